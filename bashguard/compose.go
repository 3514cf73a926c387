package bashguard

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/toolgate/toolgate/permission"
)

// A compose file names paths of this machine as docker run's options
// do: a service's volumes bind them (its short syntax is -v's,
// SRC:DST[:MODE]; the long one has type bind and a source), its env_file
// is read, its build context is sent whole, and the project's secrets
// and configs are files read into the containers; a volume's driver_opts
// device mounts a path too. A privileged service, or one given devices,
// asks, as --privileged and --device do. docker compose up, run
// and create make the containers of the project's files (-f, or
// compose.yaml and the other default names in the project directory,
// with their override files), so each such path is judged as the option
// that names it would be (hostPaths). What the reader cannot follow
// asks, naming it: a file that does not parse, an include or an extends
// of other files, a value with ${VARIABLE} in it, a file larger than
// maxConfFile.

// composeDefaults are the files docker compose reads in the project
// directory when no -f names one: the first of the names that is there,
// and the override file beside it (compose-spec's "Compose file").
var composeDefaults = []struct{ file, override string }{
	{"compose.yaml", "compose.override.yaml"}, {"compose.yml", "compose.override.yml"},
	{"docker-compose.yaml", "docker-compose.override.yaml"}, {"docker-compose.yml", "docker-compose.override.yml"},
}

// composeRead is what one compose file names: the paths, relative ones
// still relative to the project directory, or why it cannot be read.
type composeRead struct {
	paths []hostPath
	why   string
}

// composeFiles judges the paths the compose files of a docker compose
// line name: files are those of -f, in the project directory dir
// ("" for the working directory).
func (m *cmdCall) composeFiles(c *verdictAcc, name string, files []string, dir string) {
	if m.dir == "" {
		return
	}
	if dir == "" {
		dir = m.dir
	} else if !filepath.IsAbs(dir) {
		dir = filepath.Join(m.dir, dir)
	}
	if len(files) == 0 {
		for _, d := range composeDefaults {
			if m.ws.lexists(filepath.Join(dir, d.file)) {
				files = []string{filepath.Join(dir, d.file), filepath.Join(dir, d.override)}
				break
			}
		}
	}
	for _, f := range files {
		if f == "-" {
			c.addf(permission.Ask, ArgsRule(name), "reads a compose file from its input, ", "whose volumes may bind any path of this machine", "", false)
			continue
		}
		if !filepath.IsAbs(f) {
			f = filepath.Join(m.dir, f)
		}
		r := m.ws.get(factKey{kind: "compose", a: f}, func(r *stampRec) any {
			text, err := r.readSmall(f, maxConfFile)
			switch {
			case os.IsNotExist(err):
				return composeRead{} // docker compose refuses a file that is not there
			case err != nil:
				return composeRead{why: "cannot be read here (" + err.Error() + ")"}
			}
			return readCompose(text)
		}).(composeRead)
		if r.why != "" {
			c.addf(permission.Ask, ArgsRule(name), "reads the compose file ", f, ", which "+r.why+", and may bind any path of this machine into a container", false)
			continue
		}
		for _, p := range r.paths {
			if p.path = composePath(p.path, dir, m.pol.Home); p.path == "" {
				c.addf(permission.Ask, ArgsRule(name), "reads the compose file ", f, ", which names a path in a home directory not known here, and may bind any path of this machine into a container", false)
				continue
			}
			m.hostPaths(c, name, []hostPath{p}, 0)
		}
	}
}

// composePath is a path of a compose file as docker compose resolves
// it: "~" is the home directory, a relative path the project
// directory's; "" for a "~" path where the home is not known, or
// "~user".
func composePath(p, dir, home string) string {
	switch {
	case strings.HasPrefix(p, "~") && (home == "" || p != "~" && !strings.HasPrefix(p, "~/")):
		return ""
	case p == "~":
		return home
	case strings.HasPrefix(p, "~/"):
		return filepath.Join(home, p[2:])
	case filepath.IsAbs(p):
		return p
	}
	return filepath.Join(dir, p)
}

// readCompose reads the paths a compose file's text names.
func readCompose(text string) composeRead {
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return composeRead{why: "does not parse (" + err.Error() + ")"}
	}
	var r composeRead
	for _, k := range []string{"include", "extends"} {
		if _, ok := doc[k]; ok {
			return composeRead{why: "has " + k + ", other files not read here"}
		}
	}
	services, _ := doc["services"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(services)) {
		svc, ok := services[name].(map[string]any)
		if !ok {
			continue
		}
		if why := r.service(svc); why != "" {
			return composeRead{why: "names in its service " + name + " " + why}
		}
	}
	volumes, _ := doc["volumes"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(volumes)) {
		vol, _ := volumes[name].(map[string]any)
		opts, _ := vol["driver_opts"].(map[string]any)
		if why := r.add(opts["device"], hostPath{read: true, write: true, tree: true}); why != "" {
			return composeRead{why: "names in its volume " + name + " " + why}
		}
	}
	for _, top := range []string{"secrets", "configs"} {
		entries, _ := doc[top].(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(entries)) {
			if e, ok := entries[k].(map[string]any); ok {
				if why := r.add(e["file"], hostPath{read: true}); why != "" {
					return composeRead{why: "names in its " + top + " " + why}
				}
			}
		}
	}
	return r
}

// service records the paths of one service: its volumes, env files and
// build context; why, for a value it cannot follow.
func (r *composeRead) service(svc map[string]any) (why string) {
	if _, ok := svc["extends"]; ok {
		return "extends, another file not read here"
	}
	if p, _ := svc["privileged"].(bool); p {
		return "privileged, every device and capability of this machine, with which it reaches any file"
	}
	if _, ok := svc["devices"]; ok {
		return "devices of this machine, a disk among them"
	}
	vols, _ := svc["volumes"].([]any)
	for _, v := range vols {
		if why := r.volume(v); why != "" {
			return why
		}
	}
	envs, ok := svc["env_file"].([]any)
	if !ok {
		envs = []any{svc["env_file"]}
	}
	for _, e := range envs {
		if m, ok := e.(map[string]any); ok {
			e = m["path"]
		}
		if why := r.add(e, hostPath{read: true}); why != "" {
			return why
		}
	}
	ctx := svc["build"]
	if b, ok := ctx.(map[string]any); ok {
		if ctx = b["context"]; ctx == nil {
			ctx = "."
		}
	}
	if s, ok := ctx.(string); ok && strings.Contains(s, "://") {
		return "" // a context fetched from a URL
	}
	return r.add(ctx, hostPath{read: true, tree: true, context: true})
}

// volume records the path one entry of a service's volumes binds: -v's
// SRC:DST[:MODE], or a map of type bind with its source.
func (r *composeRead) volume(v any) (why string) {
	switch v := v.(type) {
	case string:
		if strings.Contains(v, "$") {
			return "a volume only known at run time (" + v + ")"
		}
		if src, readOnly, binds := bindSource("-v", v); binds {
			r.paths = append(r.paths, hostPath{path: src, read: true, write: !readOnly, tree: true})
		}
		return ""
	case map[string]any:
		t, _ := v["type"].(string)
		src, _ := v["source"].(string)
		if t != "bind" && (t != "" || src == "" || !strings.ContainsAny(src[:1], "/.~")) {
			return "" // a volume, a tmpfs; without a type, a source that is a path is a bind
		}
		readOnly, _ := v["read_only"].(bool)
		return r.add(v["source"], hostPath{read: true, write: !readOnly, tree: true})
	}
	return fmt.Sprintf("a volume of a form not read here (%v)", v)
}

// add records the path v (a string) as p says; why, for a value that is
// not a plain path.
func (r *composeRead) add(v any, p hostPath) (why string) {
	s, ok := v.(string)
	switch {
	case v == nil:
		return ""
	case !ok:
		return fmt.Sprintf("a path of a form not read here (%v)", v)
	case strings.Contains(s, "$"):
		return "a path only known at run time (" + s + ")"
	}
	p.path = s
	r.paths = append(r.paths, p)
	return ""
}
