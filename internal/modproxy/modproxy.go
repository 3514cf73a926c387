// Package modproxy writes module versions from a source tree into a
// file-system module proxy, so that the go command can be pointed at it
// (GOPROXY=file://DIR) and resolve, download and build a version that no
// public proxy holds yet: a release before its tag, or the working tree
// under the version its users will name.
//
// A version is the four files the GOPROXY protocol serves, laid out as
// the go command reads them from a file:// proxy:
//
//	DIR/<escaped module path>/@v/list          every version, one a line
//	DIR/<escaped module path>/@v/<version>.info {"Version":…,"Time":…}
//	DIR/<escaped module path>/@v/<version>.mod  the module's go.mod
//	DIR/<escaped module path>/@v/<version>.zip  the module's files
//
// The zip follows the module zip rules (golang.org/x/mod/zip): every file
// is under "<module>@<version>/"; the files of a subdirectory that holds
// a go.mod of its own (another module), of version-control directories
// and of vendor directories are left out, as are files that are not
// regular; a path the go command would refuse is an error, not a skip.
// Where the tree is a git work tree, its files are those git would commit
// (tracked, or untracked and not ignored), so that build outputs and
// other ignored files stay out as they would from a tag.
package modproxy

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Limits of the module zip rules (golang.org/x/mod/zip).
const (
	maxZipFile = 500 << 20 // the whole zip, uncompressed
	maxGoMod   = 16 << 20
)

// Add writes the module whose go.mod is in dir into the proxy at proxy,
// as version (a canonical semantic version such as "v0.3.0"), recorded as
// published at t. It returns the module's path. A version already in the
// proxy is overwritten.
func Add(proxy, dir, version string, t time.Time) (string, error) {
	if !canonical.MatchString(version) {
		return "", fmt.Errorf("modproxy: %q is not a canonical semantic version (vMAJOR.MINOR.PATCH)", version)
	}
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return "", fmt.Errorf("modproxy: %w", err)
	}
	if len(gomod) > maxGoMod {
		return "", fmt.Errorf("modproxy: %s/go.mod is larger than %d bytes", dir, maxGoMod)
	}
	mod, err := modulePath(gomod)
	if err != nil {
		return "", fmt.Errorf("modproxy: %s/go.mod: %w", dir, err)
	}
	if major := majorSuffix(mod); major != "" && !strings.HasPrefix(version, major+".") {
		return "", fmt.Errorf("modproxy: version %s does not match the major version of module %s", version, mod)
	}
	files, err := moduleFiles(dir)
	if err != nil {
		return "", fmt.Errorf("modproxy: %s: %w", dir, err)
	}
	zipData, err := zipModule(dir, mod, version, files)
	if err != nil {
		return "", fmt.Errorf("modproxy: %s: %w", dir, err)
	}
	escaped, err := escapePath(mod)
	if err != nil {
		return "", fmt.Errorf("modproxy: %w", err)
	}
	vdir := filepath.Join(proxy, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		return "", fmt.Errorf("modproxy: %w", err)
	}
	info, err := json.Marshal(struct {
		Version string
		Time    string
	}{version, t.UTC().Format(time.RFC3339)})
	if err != nil {
		return "", fmt.Errorf("modproxy: %w", err)
	}
	writes := []struct {
		name string
		data []byte
	}{
		{version + ".mod", gomod},
		{version + ".zip", zipData},
		{version + ".info", info},
	}
	for _, w := range writes {
		if err := os.WriteFile(filepath.Join(vdir, w.name), w.data, 0o644); err != nil {
			return "", fmt.Errorf("modproxy: %w", err)
		}
	}
	// The list last: a version is listed only once its files are there.
	list, err := os.ReadFile(filepath.Join(vdir, "list"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("modproxy: %w", err)
	}
	versions := strings.Fields(string(list))
	if !slices.Contains(versions, version) {
		versions = append(versions, version)
	}
	if err := os.WriteFile(filepath.Join(vdir, "list"), []byte(strings.Join(versions, "\n")+"\n"), 0o644); err != nil {
		return "", fmt.Errorf("modproxy: %w", err)
	}
	return mod, nil
}

var (
	canonical = regexp.MustCompile(`^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$`)
	majorRE   = regexp.MustCompile(`/(v[2-9][0-9]*|v[1-9][0-9]+)$`)
)

// majorSuffix is a module path's major-version suffix ("v2" of
// "example.com/m/v2"), or "" for major versions 0 and 1.
func majorSuffix(mod string) string {
	if m := majorRE.FindStringSubmatch(mod); m != nil {
		return m[1]
	}
	return ""
}

// modulePath is the path of a go.mod's module directive.
func modulePath(gomod []byte) (string, error) {
	for line := range strings.SplitSeq(string(gomod), "\n") {
		f := strings.Fields(strings.TrimSpace(line))
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`+"`"), nil
		}
	}
	return "", errors.New("no module directive")
}

// escapePath is the module path as a proxy spells it: each upper-case
// letter as "!" and its lower case.
func escapePath(mod string) (string, error) {
	var b strings.Builder
	for _, r := range mod {
		switch {
		case r == '!' || r >= 0x80:
			return "", fmt.Errorf("module path %q: character %q", mod, r)
		case 'A' <= r && r <= 'Z':
			b.WriteByte('!')
			b.WriteRune(r + ('a' - 'A'))
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), nil
}

// moduleFiles lists, slash-separated and relative to dir, the files of
// the module rooted at dir, sorted.
func moduleFiles(dir string) ([]string, error) {
	candidates, err := gitFiles(dir)
	if err != nil {
		candidates, err = walkFiles(dir)
		if err != nil {
			return nil, err
		}
	}
	// A directory below dir that holds a go.mod is another module.
	var nested []string
	for _, f := range candidates {
		if path.Base(f) == "go.mod" && f != "go.mod" {
			nested = append(nested, path.Dir(f)+"/")
		}
	}
	var files []string
	for _, f := range candidates {
		if slices.ContainsFunc(nested, func(n string) bool { return strings.HasPrefix(f, n) }) {
			continue
		}
		elems := strings.Split(f, "/")
		if slices.ContainsFunc(elems[:len(elems)-1], func(e string) bool {
			return e == "vendor" || e == ".git" || e == ".hg" || e == ".svn" || e == ".bzr"
		}) {
			continue
		}
		fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(f)))
		if errors.Is(err, fs.ErrNotExist) {
			continue // tracked, but deleted in the work tree: not what a commit of it would hold
		}
		if err != nil {
			return nil, err
		}
		if !fi.Mode().IsRegular() {
			continue
		}
		files = append(files, f)
	}
	slices.Sort(files)
	return slices.Compact(files), nil
}

// gitFiles are the files git would commit under dir: tracked, or
// untracked and not ignored. It fails where dir is not in a git work tree
// or git is missing.
func gitFiles(dir string) ([]string, error) {
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ".")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %v: %s", err, stderr.Bytes())
	}
	var files []string
	for f := range strings.SplitSeq(string(out), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	return files, nil
}

// walkFiles are the files under dir, version-control directories left out.
func walkFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", ".hg", ".svn", ".bzr":
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	return files, err
}

// zipModule is the module zip of files (relative to dir).
func zipModule(dir, mod, version string, files []string) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	folded := map[string]string{}
	var total int64
	for _, f := range files {
		if err := checkFilePath(f); err != nil {
			return nil, err
		}
		if other, ok := folded[strings.ToLower(f)]; ok {
			return nil, fmt.Errorf("%q and %q differ only in case", other, f)
		}
		folded[strings.ToLower(f)] = f
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			return nil, err
		}
		if total += int64(len(data)); total > maxZipFile {
			return nil, fmt.Errorf("the module's files are larger than %d bytes", maxZipFile)
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: mod + "@" + version + "/" + f, Method: zip.Deflate})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// checkFilePath refuses a file path the go command refuses in a module
// zip (golang.org/x/mod/module.CheckFilePath): an element that is empty,
// ".", "..", starts with "-" or holds a character outside letters, digits
// and !#$%&()+,-.=@[]^_{}~ and space; or a name Windows reserves.
func checkFilePath(f string) error {
	for _, e := range strings.Split(f, "/") {
		if e == "" || e == "." || e == ".." || strings.HasPrefix(e, "-") {
			return fmt.Errorf("file path %q: element %q is not allowed in a module", f, e)
		}
		for _, r := range e {
			if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("!#$%&()+,-.=@[]^_{}~ ", r)) {
				return fmt.Errorf("file path %q: character %q is not allowed in a module", f, r)
			}
		}
		short, _, _ := strings.Cut(e, ".")
		for _, bad := range []string{"CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9"} {
			if strings.EqualFold(short, bad) {
				return fmt.Errorf("file path %q: %q is a name Windows reserves", f, e)
			}
		}
	}
	return nil
}
