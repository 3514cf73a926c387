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
// line name: files are those of -f, project the --project-directory
// ("" for none). As docker compose finds them: without -f, the default
// names in the project directory, or in the working directory and each
// one above it; relative paths in the files are the project directory's,
// which is the first file's directory unless --project-directory names
// one.
func (m *cmdCall) composeFiles(c *verdictAcc, name string, files []string, project string) {
	if m.dir == "" {
		c.addf(permission.Ask, ArgsRule(name), "reads compose files ", "", "with no working directory configured, so they cannot be read", false)
		return
	}
	for i, f := range files {
		if f != "-" && !filepath.IsAbs(f) {
			files[i] = filepath.Join(m.dir, f)
		}
	}
	if project != "" && !filepath.IsAbs(project) {
		project = filepath.Join(m.dir, project)
	}
	if len(files) == 0 {
		files = m.composeDefaultFiles(orText(project, m.dir), project != "")
	}
	dir := project
	if dir == "" && len(files) > 0 && files[0] != "-" {
		dir = filepath.Dir(files[0])
	}
	for _, f := range files {
		if f == "-" {
			c.addf(permission.Ask, ArgsRule(name), "reads a compose file from its input, ", "whose volumes may bind any path of this machine", "", false)
			continue
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

// composeDefaultFiles are the compose files docker compose reads without
// -f: the first of composeDefaults in dir, or, unless only is set (a
// --project-directory), in the first directory above it that holds one,
// with the override file beside it.
func (m *cmdCall) composeDefaultFiles(dir string, only bool) []string {
	for d, n := filepath.Clean(dir), 0; n < maxUp; n++ {
		for _, def := range composeDefaults {
			if m.ws.lexists(filepath.Join(d, def.file)) {
				return []string{filepath.Join(d, def.file), filepath.Join(d, def.override)}
			}
		}
		up := filepath.Dir(d)
		if only || up == d {
			break
		}
		d = up
	}
	return nil
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
	return r.build(svc["build"])
}

// build records the paths a service's build reads: its context, sent
// without what its .dockerignore excludes unless a dockerfile is named
// (whose own ignore file would take its place), its additional
// contexts, whole, and the keys of its ssh.
func (r *composeRead) build(b any) (why string) {
	ctx, own := b, true
	if m, ok := b.(map[string]any); ok {
		if ctx = m["context"]; ctx == nil {
			ctx = "."
		}
		_, named := m["dockerfile"]
		own = !named
		for _, v := range composeList(m["additional_contexts"]) {
			if s, ok := v.(string); ok && (strings.Contains(s, "://") || strings.Contains(s, ":") && !strings.ContainsAny(s[:1], "/.~")) {
				continue // an image, a URL, another service (service:name)
			}
			if why := r.add(v, hostPath{read: true, tree: true}); why != "" {
				return why
			}
		}
		for _, v := range composeList(m["ssh"]) {
			if v == "default" {
				continue // the agent of SSH_AUTH_SOCK
			}
			if why := r.add(v, hostPath{read: true}); why != "" {
				return why
			}
		}
	}
	if s, ok := ctx.(string); ok && strings.Contains(s, "://") {
		return "" // a context fetched from a URL
	}
	return r.add(ctx, hostPath{read: true, tree: true, context: own})
}

// composeList is the values of a compose field written as a list or as a
// map (additional_contexts: {name: path}, or [name=path]): a map's
// values, a list's items after their "=", in order.
func composeList(v any) []any {
	switch v := v.(type) {
	case []any:
		out := make([]any, 0, len(v))
		for _, x := range v {
			if s, ok := x.(string); ok {
				if _, val, has := strings.Cut(s, "="); has {
					x = val
				}
			}
			out = append(out, x)
		}
		return out
	case map[string]any:
		out := make([]any, 0, len(v))
		for _, k := range slices.Sorted(maps.Keys(v)) {
			out = append(out, v[k])
		}
		return out
	}
	return nil
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
