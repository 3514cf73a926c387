package bashguard

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgate/toolgate/sandbox"
)

// BenchmarkToolConfig is the cost of the configuration a tool reads from
// the workspace, judged beside the same tool's line without it, side by
// side: hg with a repository's .hg/hgrc, docker compose up with a compose
// file, docker build with a .dockerignore. The files are read once and
// kept on the Guard (stamped), so a call pays the stamps' checks; a bind's
// tree (compose's ./site) is walked at every call, as docker run -v's is.
func BenchmarkToolConfig(b *testing.B) {
	dir := b.TempDir()
	for name, text := range map[string]string{
		".hg/hgrc":        "[paths]\ndefault = https://hg.example/r\n[ui]\nusername = me\n",
		"compose.yaml":    "services:\n  web:\n    image: nginx\n    volumes: [\"./site:/usr/share/nginx/html:ro\"]\n    env_file: app.env\n",
		".dockerignore":   ".env\nnode_modules\n",
		"site/index.html": "<p>hi</p>\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	g := New(DefaultPolicy())
	sb, err := sandbox.New(sandbox.Config{Roots: []string{dir}, WorkDir: dir})
	if err != nil {
		b.Fatal(err)
	}
	paths := CheckerJudge(sb)
	ctx := context.Background()
	for _, tc := range []struct{ name, script string }{
		{"hg-status", "hg status"}, {"hg-version", "hg version"},
		{"compose-up", "docker compose up -d"}, {"compose-ps", "docker compose ps"},
		{"docker-build", "docker build -t app ."}, {"docker-ps", "docker ps"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if v := g.Judge(ctx, dir, paths, tc.script); v.Rule == "" {
					b.Fatal("verdict without rule")
				}
			}
		})
	}
}
