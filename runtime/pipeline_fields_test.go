package runtime

import (
	"encoding/json"
	"testing"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/tool"
)

// A member named like a declared field but for letter case is read as that
// field by encoding/json (struct fields match without regard to case), so
// the checks must not pass it by.
func TestPipelineFieldNameCase(t *testing.T) {
	w := newWorld(t, permission.Config{
		Default: permission.Allow,
		Deny:    []string{"Task(danger)", "WebFetch(domain:evil.com)"},
		Allow:   []string{"Task", "WebFetch"},
	}, nil)
	w.start(t, "s1", permission.ModeDefault)
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	runCases(t, w, "s1", []pcase{
		{"path field in upper case", "Read", raw(`{"FILE_PATH":"/etc/passwd"}`), permission.Deny, permission.LayerTraits, "input:field-case",
			`input field "FILE_PATH" differs from the declared field "file_path" only in letter case`},
		{"path field twice, once in another case", "Read", raw(`{"file_path":"README.md","File_Path":"/etc/passwd"}`), permission.Deny, permission.LayerTraits, "input:field-case",
			`"File_Path" differs from the declared field "file_path"`},
		{"a longer name is another field", "Write", raw(`{"file_path":"README.md","file_paths":"x"}`), permission.Allow, permission.LayerRules, "default", "default for edit tools is allow"},
		{"URL field in upper case", "WebFetch", raw(`{"URL":"https://evil.com/x"}`), permission.Deny, permission.LayerTraits, "input:field-case",
			`input field "URL" differs from the declared field "url" only in letter case`},
		{"subagent type in upper case", "Task", raw(`{"SUBAGENT_TYPE":"danger","prompt":"x"}`), permission.Deny, permission.LayerTraits, "input:field-case",
			`input field "SUBAGENT_TYPE" differs from the field "subagent_type" only in letter case`},
		{"subagent type twice", "Task", raw(`{"subagent_type":"ok","Subagent_type":"danger","prompt":"x"}`), permission.Deny, permission.LayerTraits, "input:field-case",
			`"Subagent_type" differs from the field "subagent_type"`},
		{"command field in another case", "Bash", raw(`{"command":"ls","Command":"rm -rf ~"}`), permission.Deny, permission.LayerTraits, "input:field-case",
			`"Command" differs from the declared field "command"`},
		{"exact names still pass", "Task", raw(`{"subagent_type":"ok","prompt":"x"}`), permission.Allow, permission.LayerRules, "Task", "allowed by allow rule Task"},
		{"long s folds to s", "Task", raw("{\"\u017fubagent_type\":\"danger\",\"prompt\":\"x\"}"), permission.Deny, permission.LayerTraits, "input:field-case",
			"differs from the field \"subagent_type\" only in letter case"},
	})
}

// A URL's host is matched in the form the fetch reaches: an IPv4 address
// however the WHATWG parser reads it, an IPv4-mapped IPv6 address as the
// IPv4 one; a host that is not ASCII (IDNA would map it) is refused.
func TestPipelineURLHost(t *testing.T) {
	w := newWorld(t, permission.Config{
		Default: permission.Allow,
		Deny:    []string{"WebFetch(domain:evil.com)", "WebFetch(domain:169.254.169.254)", "Glob(/etc/**)"},
		Allow:   []string{"WebFetch"},
	}, nil)
	w.start(t, "s1", permission.ModeDefault)
	const denied = "denied by deny rule WebFetch(domain:169.254.169.254)"
	var cases []pcase
	for _, u := range []string{
		"http://169.254.169.254/latest", "http://2852039166/latest", "http://0xA9FEA9FE/latest", "http://0251.0376.0251.0376/",
		"http://169.254.43518/", "http://169.16689662/", "http://[::ffff:169.254.169.254]/", "http://[::FFFF:a9fe:a9fe]/", "http://169.254.169.254./",
		"http://[::a9fe:a9fe]/", "http://[::169.254.169.254]/", "http://[64:ff9b::a9fe:a9fe]/", "http://[64:ff9b::169.254.169.254]/", "http://169.254.169.254../",
	} {
		cases = append(cases, pcase{"IPv4 written as " + u, "WebFetch", in("url", u), permission.Deny, permission.LayerRules, "WebFetch(domain:169.254.169.254)", denied})
	}
	cases = append(cases,
		pcase{"full-width letter in the host", "WebFetch", in("url", "https://ｅvil.com/x"), permission.Deny, permission.LayerTraits, "input:url-host", `host "ｅvil.com" is not ASCII: write it in its punycode (xn--) form`},
		pcase{"number-like host that is no address", "WebFetch", in("url", "http://1.2.3.999/"), permission.Deny, permission.LayerTraits, "input:url-host", `part "999" is too big`},
		pcase{"five parts", "WebFetch", in("url", "http://1.2.3.4.5/"), permission.Deny, permission.LayerTraits, "input:url-host", "more than four parts"},
		// A bare WebFetch allow does not reach inside the network.
		pcase{"another link-local address", "WebFetch", in("url", "http://169.254.169.253/"), permission.Ask, permission.LayerTraits, "network:internal",
			`url "http://169.254.169.253/" reaches 169.254.169.253, a link-local address; allow it with a rule naming the host (WebFetch(domain:169.254.169.253))`},
		pcase{"a denied name with trailing dots", "WebFetch", in("url", "https://evil.com../x"), permission.Deny, permission.LayerRules, "WebFetch(domain:evil.com)", "denied by deny rule WebFetch(domain:evil.com)"},
		pcase{"a name ending in a letter", "WebFetch", in("url", "https://Example.COM/x"), permission.Allow, permission.LayerRules, "WebFetch", "allowed by allow rule WebFetch"},
		pcase{"punycode", "WebFetch", in("url", "https://xn--mnchen-3ya.de/"), permission.Allow, permission.LayerRules, "WebFetch", "allowed by allow rule WebFetch"},
		pcase{"brace alternative naming ..", "Glob", in("pattern", "{..,src}/*"), permission.Deny, permission.LayerSandbox, "sandbox:invalid-path", `a brace group of the wildcard part holds ".."`},
		pcase{"composed alternative naming ..", "Glob", in("pattern", "{.,x}{.,y}/outside/*"), permission.Deny, permission.LayerSandbox, "sandbox:invalid-path", `names "." or ".." ("../outside/*")`},
	)
	runCases(t, w, "s1", cases)
}

// TestPipelineWebFetchFloor: loopback, link-local, metadata, private and
// unspecified addresses, in every spelling, ask although a bare WebFetch
// allow would allow them, in every mode; a rule naming the host allows it.
func TestPipelineWebFetchFloor(t *testing.T) {
	w := newWorld(t, permission.Config{
		Default: permission.Allow,
		Allow:   []string{"WebFetch", "WebFetch(domain:10.1.2.3)", "WebFetch(domain:*.corp.internal)", "WebFetch(domain:192.168.9.10)"},
	}, nil)
	var cases []pcase
	for _, c := range []struct{ url, host, what string }{
		{"http://localhost:8080/", "localhost", "the loopback host"},
		{"http://api.localhost/", "api.localhost", "the loopback host"},
		{"http://127.0.0.1/", "127.0.0.1", "a loopback address"},
		{"http://2130706433/", "127.0.0.1", "a loopback address"},
		{"http://0x7f.1/", "127.0.0.1", "a loopback address"},
		{"http://127.1/", "127.0.0.1", "a loopback address"},
		{"http://[::1]/", "::1", "a loopback address"},
		{"http://[::ffff:127.0.0.1]/", "127.0.0.1", "a loopback address"},
		{"http://0.0.0.0/", "0.0.0.0", "this machine (an unspecified address)"},
		{"http://0/", "0.0.0.0", "this machine (an unspecified address)"},
		{"http://[::]/", "::", "this machine (an unspecified address)"},
		{"http://169.254.169.254/latest/meta-data/", "169.254.169.254", "a cloud metadata address"},
		{"http://[::a9fe:a9fe]/", "169.254.169.254", "a cloud metadata address"},
		{"http://[64:ff9b::a9fe:a9fe]/", "169.254.169.254", "a cloud metadata address"},
		{"http://[2002:a9fe:a9fe::1]/", "2002:a9fe:a9fe::1", "a cloud metadata address"},
		{"http://[fd00:ec2::254]/", "fd00:ec2::254", "a cloud metadata address"},
		{"http://169.254.170.2/v2/credentials", "169.254.170.2", "a cloud metadata address"},
		{"http://100.100.100.200/", "100.100.100.200", "a cloud metadata address"},
		{"http://metadata.google.internal/computeMetadata/v1/", "metadata.google.internal", "a cloud metadata host"},
		{"http://METADATA.google.internal./", "metadata.google.internal", "a cloud metadata host"},
		{"http://[fe80::1%25eth0]/", "fe80::1", "a link-local address"},
		{"http://10.0.0.7/", "10.0.0.7", "a private address"},
		{"http://172.16.5.4/", "172.16.5.4", "a private address"},
		{"http://192.168.1.1/", "192.168.1.1", "a private address"},
		{"http://0xc0a80101/", "192.168.1.1", "a private address"},
		{"http://[fc00::1]/", "fc00::1", "a private address"},
		{"http://100.64.0.1/", "100.64.0.1", "a shared or private-use address"},
	} {
		cases = append(cases, pcase{"floor: " + c.url, "WebFetch", in("url", c.url), permission.Ask, permission.LayerTraits, "network:internal",
			"reaches " + c.host + ", " + c.what + "; allow it with a rule naming the host (WebFetch(domain:" + c.host + "))"})
	}
	cases = append(cases,
		// The first allow rule answers; the one naming the host lifts the floor.
		pcase{"a rule naming the address", "WebFetch", in("url", "http://10.1.2.3/"), permission.Allow, permission.LayerRules, "WebFetch", "allowed by allow rule WebFetch"},
		pcase{"a rule naming the host", "WebFetch", in("url", "http://10.1.2.3./"), permission.Allow, permission.LayerRules, "WebFetch", "allowed by allow rule WebFetch"},
		pcase{"a wildcard rule naming the host", "WebFetch", in("url", "https://wiki.corp.internal/"), permission.Allow, permission.LayerRules, "WebFetch", "allowed by allow rule WebFetch"},
		pcase{"a wildcard naming another host", "WebFetch", in("url", "http://192.168.9.9/"), permission.Ask, permission.LayerTraits, "network:internal", "a private address"},
		pcase{"a public address", "WebFetch", in("url", "http://8.8.8.8/"), permission.Allow, permission.LayerRules, "WebFetch", "allowed by allow rule WebFetch"},
		pcase{"a public IPv6 address", "WebFetch", in("url", "http://[2001:4860:4860::8888]/"), permission.Allow, permission.LayerRules, "WebFetch", "allowed by allow rule WebFetch"},
		pcase{"a name like an internal one", "WebFetch", in("url", "https://localhost.example.com/"), permission.Allow, permission.LayerRules, "WebFetch", "allowed by allow rule WebFetch"},
	)
	for _, mode := range []permission.Mode{permission.ModeDefault, permission.ModeAcceptEdits, permission.ModeBypassPermissions, permission.ModeAuto} {
		id := "s-" + mode.String()
		w.start(t, id, mode)
		runCases(t, w, id, cases)
	}
}

// A path with white space around it is one file to the checks and
// another to a tool that trims it, as Claude Code's tools do before they
// resolve a path (" /etc/passwd" is read as "/etc/passwd", ".env " as
// ".env", " ~/x" as a file in the home directory): refused, not guessed.
func TestPipelinePathSpace(t *testing.T) {
	w := newWorld(t, permission.Config{
		Default:    permission.Ask,
		DefaultFor: map[permission.Kind]permission.Decision{permission.KindRead: permission.Allow},
		Deny:       []string{"Read(./.env)", "Edit(./src/secret/**)"},
		Allow:      []string{"Edit(./src/**)", "Bash(ls:*)"},
	}, nil)
	w.start(t, "s1", permission.ModeDefault)
	const why = "has white space at its start or end, which a tool may trim"
	runCases(t, w, "s1", []pcase{
		{"leading space before an absolute path", "Read", in("file_path", " /etc/passwd"), permission.Deny, permission.LayerTraits, "input:path-space", `file_path " /etc/passwd" ` + why},
		{"trailing space after a denied file", "Read", in("file_path", ".env "), permission.Deny, permission.LayerTraits, "input:path-space", `file_path ".env " ` + why},
		{"leading tab before the home directory", "Read", in("file_path", "\t~/.ssh/id_rsa"), permission.Deny, permission.LayerTraits, "input:path-space", why},
		{"trailing new line", "Edit", in("file_path", "src/secret/key\n"), permission.Deny, permission.LayerTraits, "input:path-space", why},
		{"no-break space", "Read", in("file_path", "\u00a0/etc/passwd"), permission.Deny, permission.LayerTraits, "input:path-space", why},
		{"byte order mark", "Read", in("file_path", "\ufeff/etc/passwd"), permission.Deny, permission.LayerTraits, "input:path-space", why},
		{"ideographic space", "Read", in("file_path", ".env\u3000"), permission.Deny, permission.LayerTraits, "input:path-space", why},
		{"line separator", "Read", in("file_path", ".env\u2028"), permission.Deny, permission.LayerTraits, "input:path-space", why},
		{"glob pattern", "Glob", in("pattern", " /etc/*"), permission.Deny, permission.LayerTraits, "input:path-space", `pattern " /etc/*" ` + why},
		{"glob path", "Glob", in("pattern", "*", "path", "/etc "), permission.Deny, permission.LayerTraits, "input:path-space", `path "/etc " ` + why},
		{"notebook path", "NotebookEdit", in("notebook_path", " /etc/x.ipynb"), permission.Deny, permission.LayerTraits, "input:path-space", why},
		// Benign look-alikes: space inside a name is part of it.
		{"space inside a file name", "Read", in("file_path", "my notes.md"), permission.Allow, permission.LayerRules, "default", "default for read tools is allow"},
		{"space inside a directory name", "Edit", in("file_path", "src/new dir/a b.go"), permission.Allow, permission.LayerRules, "Edit(./src/**)", "allowed by allow rule Edit(./src/**)"},
		{"a shell command keeps its spaces", "Bash", in("command", " ls src "), permission.Allow, permission.LayerRules, "Bash(ls:*)", "allowed by allow rule Bash(ls:*)"},
	})
}

// A subagent tool runs the type its subagent_type names; without one,
// Claude Code's runs its general-purpose agent and subagent.Runner none.
// Another member ("name" is the spawned agent's name in Claude Code's
// Agent tool) must not stand in for the type and lift the call with the
// type's allow rule, and a type that is not a string is refused.
func TestPipelineSubagentType(t *testing.T) {
	w := newWorld(t, permission.Config{
		Default: permission.Ask,
		Deny:    []string{"Task(danger)"},
		Allow:   []string{"Task(explorer)"},
	}, nil)
	w.start(t, "s1", permission.ModeDefault)
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	const ask = "no rule matched; the default for subagent tools is ask"
	runCases(t, w, "s1", []pcase{
		{"name in place of the type", "Task", raw(`{"name":"explorer","prompt":"x"}`), permission.Ask, permission.LayerRules, "default", ask},
		{"agent in place of the type", "Task", raw(`{"agent":"explorer","prompt":"x"}`), permission.Ask, permission.LayerRules, "default", ask},
		{"empty type beside a name", "Task", raw(`{"subagent_type":"","name":"explorer","prompt":"x"}`), permission.Ask, permission.LayerRules, "default", ask},
		{"null type beside a name", "Task", raw(`{"subagent_type":null,"name":"explorer","prompt":"x"}`), permission.Ask, permission.LayerRules, "default", ask},
		{"type in an array", "Task", raw(`{"subagent_type":["danger"],"name":"explorer","prompt":"x"}`), permission.Deny, permission.LayerTraits, "input:field-type",
			`input field "subagent_type" must be a string`},
		{"type as a number", "Task", raw(`{"subagent_type":1,"prompt":"x"}`), permission.Deny, permission.LayerTraits, "input:field-type",
			`input field "subagent_type" must be a string`},
		{"a denied name without a type", "Task", raw(`{"name":"danger","prompt":"x"}`), permission.Deny, permission.LayerRules, "Task(danger)", "denied by deny rule Task(danger)"},
		{"a denied type behind an allowed name", "Task", raw(`{"subagent_type":"danger","name":"explorer","prompt":"x"}`), permission.Deny, permission.LayerRules, "Task(danger)", "denied by deny rule Task(danger)"},
		// Benign: the type decides, and a name beside it is the agent's name.
		{"the type alone", "Task", raw(`{"subagent_type":"explorer","prompt":"x"}`), permission.Allow, permission.LayerRules, "Task(explorer)", "allowed by allow rule Task(explorer)"},
		{"the type with a name", "Task", raw(`{"subagent_type":"explorer","name":"scout-1","prompt":"x"}`), permission.Allow, permission.LayerRules, "Task(explorer)", "allowed by allow rule Task(explorer)"},
		{"the type written with an escape", "Task", raw(`{"subagent_type":"expl\u006frer","prompt":"x"}`), permission.Allow, permission.LayerRules, "Task(explorer)", "allowed by allow rule Task(explorer)"},
	})
}

// A Glob pattern is taken against its path field as the file system reads
// it: ".." after a link leads to the link target's parent, so the pattern
// must not be cleaned by its text first ("escape/../outside/*" is under
// the workspace as text, and the outside directory to a glob that walks).
func TestPipelineGlobPatternAgainstPath(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Ask,
		DefaultFor: map[permission.Kind]permission.Decision{permission.KindRead: permission.Allow}}, nil)
	w.start(t, "s1", permission.ModeDefault)
	const allowed = "the default for read tools is allow"
	runCases(t, w, "s1", []pcase{
		{"dot-dot after a link, wildcard", "Glob", in("path", ".", "pattern", "escape/../outside/*"), permission.Deny, permission.LayerSandbox, "sandbox:outside-roots", "outside every root"},
		{"dot-dot after a link, no wildcard", "Glob", in("path", "src", "pattern", "../escape/../outside/secret.txt"), permission.Deny, permission.LayerSandbox, "sandbox:outside-roots", "outside every root"},
		{"absolute brace alternative", "Glob", in("pattern", "{/etc,src}/*"), permission.Deny, permission.LayerSandbox, "sandbox:invalid-path",
			`an alternative of the wildcard part is an absolute path ("/etc/*")`},
		{"home brace alternative", "Glob", in("path", "src", "pattern", "{~,x}/.ssh/*"), permission.Deny, permission.LayerSandbox, "sandbox:invalid-path",
			`an alternative of the wildcard part starts with "~"`},
		// Benign: a pattern under its path, and ".." that stays inside.
		{"relative brace alternatives", "Glob", in("pattern", "{src,docs}/*.go"), permission.Allow, permission.LayerRules, "default", allowed},
		{"pattern under its path", "Glob", in("path", "src", "pattern", "**/*.go"), permission.Allow, permission.LayerRules, "default", allowed},
		{"dot-dot to the workspace", "Glob", in("path", "src", "pattern", "../*.md"), permission.Allow, permission.LayerRules, "default", allowed},
		{"absolute pattern ignores the path", "Glob", in("path", "src", "pattern", w.dir+"/*.md"), permission.Allow, permission.LayerRules, "default", allowed},
	})
}

// A shell command's relative paths are taken from its working directory
// as the file system reads them: ".." after a link leads to the parent of
// the link's target, so the joined path must not be cleaned by its text.
func TestPipelineWorkdirRelativePath(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Ask, Allow: []string{"run_bash(cat:*)"}}, nil)
	w.reconfigure(t, func(c *Config) { c.Tools = tool.GenericTools() })
	w.start(t, "s1", permission.ModeDefault)
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	runCases(t, w, "s1", []pcase{
		{"dot-dot after a link", "run_bash", raw(`{"command":"cat ../escape/../outside/secret.txt","working_dir":"src"}`), permission.Ask, permission.LayerSandbox, "path:read",
			"reads ../escape/../outside/secret.txt outside the allowed roots"},
		// Benign: ".." that stays inside, a name in the working directory.
		{"dot-dot to the workspace", "run_bash", raw(`{"command":"cat ../README.md","working_dir":"src"}`), permission.Allow, permission.LayerRules, "run_bash(cat:*)", "allowed by allow rule run_bash(cat:*)"},
		{"a file in the working directory", "run_bash", raw(`{"command":"cat main.go","working_dir":"src"}`), permission.Allow, permission.LayerRules, "run_bash(cat:*)", "allowed by allow rule run_bash(cat:*)"},
	})
}

// Claude Code's tools bring a path to Unicode normalisation form C before
// they use it: a path written otherwise names one file to the checks and
// another to the tool ("\u212Aeys" with the Kelvin sign is "Keys" in NFC,
// "donne\u0301es" is "données"), so it is refused, not guessed.
func TestPipelinePathNFC(t *testing.T) {
	w := newWorld(t, permission.Config{
		Default:    permission.Ask,
		DefaultFor: map[permission.Kind]permission.Decision{permission.KindRead: permission.Allow},
		Deny:       []string{"Read(./Keys/**)", "Edit(./src/données/**)"},
		Allow:      []string{"Edit(./src/**)"},
	}, nil)
	w.start(t, "s1", permission.ModeDefault)
	const why = "is not in Unicode normalisation form C"
	runCases(t, w, "s1", []pcase{
		{"Kelvin sign for K", "Read", in("file_path", "\u212Aeys/id"), permission.Deny, permission.LayerTraits, "input:path-nfc", `file_path "\u212aeys/id" ` + why},
		{"decomposed accent", "Edit", in("file_path", "src/donne\u0301es/a.txt"), permission.Deny, permission.LayerTraits, "input:path-nfc", why},
		{"decomposed glob", "Glob", in("pattern", "Ke\u0301ys/*"), permission.Deny, permission.LayerTraits, "input:path-nfc", `pattern "Ke\u0301ys/*" ` + why},
		// Benign: composed names, as NFC writes them.
		{"composed accent", "Edit", in("file_path", "src/café.md"), permission.Allow, permission.LayerRules, "Edit(./src/**)", "allowed by allow rule Edit(./src/**)"},
		{"the composed denied name", "Edit", in("file_path", "src/données/a.txt"), permission.Deny, permission.LayerRules, "Edit(./src/données/**)", "denied by deny rule"},
		{"letters of other scripts", "Read", in("file_path", "文档/説明.md"), permission.Allow, permission.LayerRules, "default", "default for read tools is allow"},
	})
}
