package bashguard

import (
	"encoding/csv"
	"strings"
)

// bindSource reads the path of this machine that a container option
// binds, from its value: docker -v's SRC:DST[:OPTS], where SRC is a path
// when it begins with "/", "." or "~" (else it names a volume), and
// --mount's comma-separated key=value list (CSV, as docker reads it),
// whose source (src) is a path when type is bind (the default is a
// volume); for a list that does not read as CSV, ok is true and src
// "": it may bind any path. readOnly says that the
// container cannot write it (ro, readonly). ok is false when the value
// binds no path of this machine.
func bindSource(opt, val string) (src string, readOnly, ok bool) {
	if opt == "--mount" {
		// docker reads the list as one line of CSV: a field may be
		// quoted ("src=/etc"). One that does not read binds a path not
		// known here: ok, with the source "".
		f, ok := csvFields(val)
		if !ok {
			return "", false, true
		}
		src = f.value("source", "src")
		if v, set := f.get("readonly", "ro"); set {
			readOnly = v == "" || v == "1" || strings.EqualFold(v, "true")
		}
		return src, readOnly, strings.EqualFold(f.value("type"), "bind") && src != ""
	}
	parts := strings.Split(val, ":")
	src = parts[0]
	if len(parts) < 2 || src == "" || !strings.ContainsAny(src[:1], "/.~") {
		return "", false, false // an anonymous or a named volume
	}
	if len(parts) > 2 {
		for o := range strings.SplitSeq(parts[len(parts)-1], ",") {
			if o == "ro" || o == "readonly" {
				readOnly = true
			}
		}
	}
	return src, readOnly, true
}

// hostPath is a path of this machine that a container tool's option or
// operand names, with what the build or the container does with it.
type hostPath struct {
	path  string
	read  bool // the file is read
	write bool // it is written
	tree  bool // the tree below it is read whole, its secrets and links too
	// context: the tree is a build context, sent without what its
	// .dockerignore names (dockerignore.go).
	context bool
	// follow: the links in the tree are followed, and what they reach
	// read (a helm chart's).
	follow bool
}

// containerPaths reads the paths of this machine that the value of the
// option spelled spell, of kind k, names (spec.go: kBind, kBuildSecret,
// kBuildSSH, kBuildOutput, kBuildContext). ok is false when the value
// does not read as its format: it may name any path.
func containerPaths(k kind, spell, val string) ([]hostPath, bool) {
	switch k {
	case kBind:
		return bindPaths(spell, val)
	case kVolumeOpt:
		if k, dev, _ := strings.Cut(val, "="); strings.TrimSpace(k) == "device" {
			return []hostPath{{path: dev, read: true, write: true, tree: true}}, dev != ""
		}
		return nil, true
	case kBuildSecret:
		return secretPaths(val)
	case kBuildSSH:
		_, keys, named := strings.Cut(val, "=")
		if !named {
			return nil, true // the agent of SSH_AUTH_SOCK
		}
		var out []hostPath
		for key := range strings.SplitSeq(keys, ",") {
			if key != "" {
				out = append(out, hostPath{path: key, read: true})
			}
		}
		return out, true
	case kBuildOutput:
		return outputPaths(val)
	case kBuildContext:
		return contextPaths(spell, val)
	}
	return nil, false
}

// bindPaths are the paths a -v or --mount value binds: its source, and
// the device a volume of the local driver mounts.
func bindPaths(spell, val string) (out []hostPath, ok bool) {
	src, readOnly, binds := bindSource(spell, val)
	if spell == "--mount" {
		dev, has := mountDevice(val)
		switch {
		case has && dev == "":
			return nil, false // a list that does not read, or a glob
		case has:
			// a volume of the local driver over a path: a bind
			out = append(out, hostPath{path: dev, read: true, write: true, tree: true})
		}
	}
	switch {
	case !binds:
		return out, true
	case src == "":
		return nil, false
	}
	return append(out, hostPath{path: src, read: true, write: !readOnly, tree: true}), true
}

// secretPaths is the file of a build's secret: id=ID,src=PATH, or
// type=env,env=VAR; with neither src nor env, the secret is looked for
// by its id, in a way not read here.
func secretPaths(val string) ([]hostPath, bool) {
	f, ok := csvFields(val)
	switch {
	case !ok:
		return nil, false
	case f.value("src", "source") != "":
		return []hostPath{{path: f.value("src", "source"), read: true}}, true
	case f.value("env") != "" || strings.EqualFold(f.value("type"), "env"):
		return nil, true
	}
	return nil, false
}

// outputPaths is where a build's -o writes: PATH, or the dest of a list.
func outputPaths(val string) ([]hostPath, bool) {
	if !strings.Contains(val, "=") {
		switch val {
		case "":
			return nil, false
		case "-":
			return nil, true // a tar on the output
		}
		return []hostPath{{path: val, write: true}}, true
	}
	f, ok := csvFields(val)
	switch {
	case !ok:
		return nil, false
	case f.value("dest") != "" && f.value("dest") != "-":
		return []hostPath{{path: f.value("dest"), write: true}}, true
	}
	return nil, true // an image, pushed or loaded
}

// contextPaths is the tree of a build context: the operand (spell "")
// or NAME=PATH of --build-context. The build's own context is sent
// without what its .dockerignore excludes; a named one is judged whole.
func contextPaths(spell, val string) ([]hostPath, bool) {
	if spell != "" {
		_, ctx, named := strings.Cut(val, "=")
		if !named {
			return nil, false
		}
		val = ctx
	}
	if val == "-" || val == "" || strings.Contains(val, "://") || strings.HasPrefix(val, "git@") {
		return nil, true // the input, or a context fetched from a URL (the host reader's)
	}
	return []hostPath{{path: val, read: true, tree: true, context: spell == ""}}, true
}

// mountDevice returns the device a --mount list gives the local volume
// driver (volume-opt=device=PATH), and whether it gives one; a list that
// does not read gives "" and true.
func mountDevice(val string) (string, bool) {
	f, ok := csvFields(val)
	if !ok {
		return "", true
	}
	for _, kv := range f {
		k, v, _ := strings.Cut(kv, "=")
		if !strings.EqualFold(strings.TrimSpace(k), "volume-opt") {
			continue
		}
		if ok, dev, _ := strings.Cut(v, "="); strings.TrimSpace(ok) == "device" {
			return dev, true
		}
	}
	if typ := strings.ToLower(f.value("type")); typ == "glob" {
		return "", true // podman's glob of paths: not read here
	}
	return "", false
}

// csvFields reads a value as docker reads a list of key=value fields:
// one line of CSV. ok is false when it does not read as CSV.
func csvFields(val string) (fieldList, bool) {
	fields, err := csv.NewReader(strings.NewReader(val)).Read()
	return fields, err == nil
}

// fieldList is a list of key=value fields, in their order.
type fieldList []string

// get returns the value of the last field named by one of keys (aliases,
// as src and source are: the last given wins), keys compared as docker
// does, without case; set says whether there is one.
func (l fieldList) get(keys ...string) (val string, set bool) {
	for _, kv := range l {
		k, v, _ := strings.Cut(kv, "=")
		for _, want := range keys {
			if strings.EqualFold(strings.TrimSpace(k), want) {
				val, set = v, true
			}
		}
	}
	return val, set
}

// value returns the value of get, or "".
func (l fieldList) value(keys ...string) string {
	v, _ := l.get(keys...)
	return v
}

// containerCopySide reads an operand of docker cp or kubectl cp as
// docker reads it (splitCpArg): an absolute path, a word without ":",
// or one whose part before the ":" begins with "." is a path of this
// machine; any other names CONTAINER:PATH. "-" is the input or the
// output, a tar stream.
func containerCopySide(w string) (local bool) {
	if w == "-" {
		return false
	}
	if strings.HasPrefix(w, "/") {
		return true
	}
	ctr, _, remote := strings.Cut(w, ":")
	return !remote || strings.HasPrefix(ctr, ".")
}
