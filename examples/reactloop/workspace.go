package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// workspace is the temporary project the scripted agent works in, and a
// directory beside it that the agent must never reach.
//
//	<tmp>/project/README.md
//	<tmp>/project/src/main.go
//	<tmp>/project/.env            a secret
//	<tmp>/project/escape -> ../outside
//	<tmp>/outside/secret.txt
type workspace struct {
	tmp, dir, outside string
	// rel rewrites absolute paths in a text as paths relative to dir.
	rel *strings.Replacer
}

func newWorkspace() (*workspace, error) {
	tmp, err := os.MkdirTemp("", "reactloop-")
	if err != nil {
		return nil, err
	}
	ws := &workspace{tmp: tmp}
	if err := ws.build(); err != nil {
		_ = os.RemoveAll(tmp)
		return nil, err
	}
	return ws, nil
}

func (ws *workspace) build() error {
	// The temporary directory may sit behind a symbolic link (macOS's
	// /var); the sandbox names real paths, so the workspace does too.
	tmp, err := filepath.EvalSymlinks(ws.tmp)
	if err != nil {
		return err
	}
	ws.dir, ws.outside = filepath.Join(tmp, "project"), filepath.Join(tmp, "outside")
	ws.rel = strings.NewReplacer(ws.dir+"/", "", ws.dir, ".", tmp+"/", "../")
	for _, d := range []string{filepath.Join(ws.dir, "src"), ws.outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	files := map[string]string{
		filepath.Join(ws.dir, "README.md"):      "# demo\nA project the scripted agent works on.\n",
		filepath.Join(ws.dir, "src", "main.go"): "package main\n\nfunc main() {}\n",
		filepath.Join(ws.dir, ".env"):           "API_TOKEN=not-a-real-token\n",
		filepath.Join(ws.outside, "secret.txt"): "outside the workspace\n",
	}
	for name, body := range files {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			return err
		}
	}
	return os.Symlink("../outside", filepath.Join(ws.dir, "escape"))
}

// outsidePath names a file beside the workspace, out of the agent's reach.
func (ws *workspace) outsidePath(name string) string {
	return filepath.Join(filepath.Dir(ws.dir), name)
}

func (ws *workspace) remove() error {
	if err := os.RemoveAll(ws.tmp); err != nil {
		return fmt.Errorf("removing the workspace: %w", err)
	}
	return nil
}
