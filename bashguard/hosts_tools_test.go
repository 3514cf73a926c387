package bashguard

import (
	"compress/gzip"
	"context"
	"errors"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNetToolFlags holds netToolFlags to the table: each is a tool's, and
// no flag spells an option the row reads as taking a value, which the
// spec would keep (its first row wins) while the flag says otherwise.
func TestNetToolFlags(t *testing.T) {
	for name, flags := range netToolFlags() {
		tool := netTools()[name]
		if !assert.NotNil(t, tool, "netToolFlags names %s, which is not in netTools", name) {
			continue
		}
		for _, f := range strings.Fields(flags) {
			long := strings.HasPrefix(f, "--") || tool.singleDash && len(f) > 2
			assert.False(t, long && slices.Contains(tool.valLong, f) || !long && len(f) == 2 && hasByte(tool.valShort, f[1]),
				"%s: the flag %s is an option that takes a value", name, f)
			assert.True(t, long || len(f) == 2, "%s: %s is no spelling of a short option", name, f)
		}
	}
}

// TestNetToolsTable holds the table of hosts_tools.go to its own rules:
// an option that names a registry or host takes a value in both
// spellings (--opt=URL and --opt URL), every subcommand says what it
// reaches, and one whose hosts come from elsewhere says from where.
func TestNetToolsTable(t *testing.T) {
	for name, tool := range netTools() {
		for opt, e := range tool.opts {
			switch e {
			case effReplace, effAdd, effHost, effRepo, effConn:
			default:
				continue
			}
			if strings.HasSuffix(opt, "*") {
				continue
			}
			// A value only after "=" (traceroute's --gateway=HOST, as
			// CLIF reads it) leaves a next word to the operands.
			sp := specSpellingDeep(netToolSpecs()[name](), opt)
			assert.True(t, sp != nil && sp.arg != argNone, "%s: %s names a registry or host but is not among the options that take a value", name, opt)
		}
		assert.NotEmpty(t, tool.subs, "%s has no subcommands", name)
		for sub, s := range tool.subs {
			assert.NotZero(t, s.kind, "%s %s: no kind", name, sub)
			if s.kind == subRuntime && len(tool.registry) == 0 {
				assert.NotEmpty(t, s.why, "%s %s: reaches hosts only known at run time without saying where they come from", name, sub)
			}
		}
	}
}

// netToolHelp says where the installed tools list their options: the
// command lines that print their help, and the reader of that text
// ("gnu": rows of -x, --long; "indented": the same, indented further;
// "mvn": commons-cli's; "npm": npm's usage
// lines; "man:PAGE": the OPTIONS of a manual page's roff source).
var netToolHelp = map[string]struct {
	helps  [][]string
	reader string
}{
	"cargo": {[][]string{{"--help"}, {"install", "--help"}, {"build", "--help"}, {"add", "--help"}, {"publish", "--help"},
		{"doc", "--help"}, {"search", "--help"}, {"tree", "--help"}, {"vendor", "--help"}, {"owner", "--help"},
		{"yank", "--help"}, {"login", "--help"}, {"info", "--help"}, {"update", "--help"}, {"metadata", "--help"},
		{"package", "--help"}, {"test", "--help"}, {"bench", "--help"}, {"run", "--help"}, {"check", "--help"},
		{"fetch", "--help"}, {"generate-lockfile", "--help"}}, "gnu"},
	"rustup": {[][]string{{"--help"}, {"toolchain", "install", "--help"}, {"update", "--help"}, {"target", "add", "--help"},
		{"component", "add", "--help"}, {"self", "update", "--help"}, {"default", "--help"}}, "gnu"},
	"docker": {[][]string{{"--help"}, {"run", "--help"}, {"create", "--help"}, {"pull", "--help"}, {"build", "--help"},
		{"buildx", "build", "--help"}, {"push", "--help"}, {"image", "pull", "--help"}, {"image", "push", "--help"},
		{"image", "build", "--help"}, {"container", "run", "--help"}, {"container", "create", "--help"}, {"login", "--help"},
		{"search", "--help"}, {"manifest", "inspect", "--help"}, {"compose", "--help"}, {"compose", "up", "--help"},
		{"compose", "pull", "--help"}, {"compose", "build", "--help"}, {"buildx", "imagetools", "inspect", "--help"},
		{"buildx", "imagetools", "create", "--help"}, {"cp", "--help"}, {"container", "cp", "--help"}, {"volume", "create", "--help"}}, "gnu"},
	"podman": {[][]string{{"--help"}, {"run", "--help"}, {"create", "--help"}, {"pull", "--help"}, {"push", "--help"},
		{"build", "--help"}, {"cp", "--help"}, {"image", "pull", "--help"}, {"image", "push", "--help"}, {"image", "build", "--help"},
		{"container", "run", "--help"}, {"container", "create", "--help"}, {"container", "cp", "--help"}, {"login", "--help"},
		{"search", "--help"}}, "gnu"},
	"yt-dlp":    {[][]string{nil}, "optparse:yt_dlp.options:create_parser"},
	"aria2c":    {[][]string{{"--help=#all"}}, "gnu"},
	"http":      {[][]string{nil}, "argparse:httpie.cli.definition:parser"},
	"https":     {[][]string{nil}, "argparse:httpie.cli.definition:parser"},
	"smbclient": {[][]string{{"--help"}}, "gnu"},
	"w3m":       {[][]string{{"-help"}}, "indented"},
	"lynx":      {[][]string{{"-help"}}, "lynx"},
	"lftp":      {[][]string{{"--help"}, {"-c", "help open"}}, "gnu"},
	"svn":       {[][]string{{"help", "-v", "add"}, {"help", "-v", "auth"}, {"help", "-v", "blame"}, {"help", "-v", "cat"}, {"help", "-v", "changelist"}, {"help", "-v", "checkout"}, {"help", "-v", "cleanup"}, {"help", "-v", "commit"}, {"help", "-v", "copy"}, {"help", "-v", "delete"}, {"help", "-v", "diff"}, {"help", "-v", "export"}, {"help", "-v", "import"}, {"help", "-v", "info"}, {"help", "-v", "list"}, {"help", "-v", "lock"}, {"help", "-v", "log"}, {"help", "-v", "merge"}, {"help", "-v", "mergeinfo"}, {"help", "-v", "mkdir"}, {"help", "-v", "move"}, {"help", "-v", "patch"}, {"help", "-v", "propdel"}, {"help", "-v", "propedit"}, {"help", "-v", "propget"}, {"help", "-v", "proplist"}, {"help", "-v", "propset"}, {"help", "-v", "relocate"}, {"help", "-v", "resolve"}, {"help", "-v", "resolved"}, {"help", "-v", "revert"}, {"help", "-v", "status"}, {"help", "-v", "switch"}, {"help", "-v", "unlock"}, {"help", "-v", "update"}, {"help", "-v", "upgrade"}}, "svn"},
	"hg":        {[][]string{{"help", "-v", "status"}, {"help", "pull"}, {"help", "merge"}, {"help", "commit"}, {"help", "export"}}, ""},
	"psql":      {[][]string{{"--help"}}, "gnu"},
	"pg_dump":   {[][]string{{"--help"}}, "gnu"},
	"kubectl": {[][]string{{"options"}, {"get", "--help"}, {"apply", "--help"}, {"logs", "--help"}, {"exec", "--help"}, {"label", "--help"},
		{"config", "view", "--help"}, {"create", "token", "--help"}, {"describe", "--help"}, {"run", "--help"},
		{"wait", "--help"}, {"delete", "--help"}, {"port-forward", "--help"}, {"patch", "--help"}, {"expose", "--help"}, {"scale", "--help"}, {"explain", "--help"}}, ""},
	"openssl": {[][]string{{"s_client", "-help"}, {"s_time", "-help"}, {"ocsp", "-help"}}, ""},
	"mvn":     {[][]string{{"--help"}}, "mvn"},
	"npm": {[][]string{{"install", "--help"}, {"ci", "--help"}, {"update", "--help"}, {"view", "--help"}, {"publish", "--help"},
		{"audit", "--help"}, {"exec", "--help"}, {"outdated", "--help"}, {"search", "--help"}, {"pack", "--help"}}, "npm"},
	"npx":     {[][]string{{"--help"}}, "npm"},
	"apt-get": {nil, "man:apt-get,apt"},
	"pnpm": {[][]string{{"--help"}, {"install", "--help"}, {"add", "--help"}, {"update", "--help"}, {"install-test", "--help"},
		{"fetch", "--help"}, {"dedupe", "--help"}, {"outdated", "--help"}, {"audit", "--help"}, {"view", "--help"},
		{"publish", "--help"}, {"dlx", "--help"}, {"create", "--help"}, {"config", "set", "--help"}}, "gnu"},
	"gem": {[][]string{{"install", "--help"}, {"update", "--help"}, {"fetch", "--help"}, {"search", "--help"}, {"info", "--help"},
		{"outdated", "--help"}, {"push", "--help"}, {"yank", "--help"}, {"owner", "--help"}, {"specification", "--help"},
		{"signin", "--help"}, {"sources", "--help"}}, "gnu"},
	"apt":         {nil, "man:apt-get,apt"},
	"dig":         {[][]string{{"-h"}}, "indented"},
	"host":        {[][]string{nil}, "gnu"},
	"ping":        {[][]string{{"-h"}}, "gnu"},
	"mysql":       {[][]string{{"--help"}}, "gnu"},
	"mariadb":     {[][]string{{"--help"}}, "gnu"},
	"mysqldump":   {[][]string{{"--help"}}, "gnu"},
	"traceroute":  {[][]string{{"--help"}}, "gnu"},
	"nmap":        {[][]string{{"--help"}}, "nmap"},
	"tftp":        {[][]string{{"-h"}}, "usage"},
	"tracepath":   {[][]string{{"-h"}}, "indented"},
	"mtr":         {[][]string{{"--help"}}, "gnu"},
	"drill":       {[][]string{{"-h"}}, "indented"},
	"ssh-keyscan": {[][]string{nil}, "usage"},
	"whois":       {[][]string{{"--help"}}, "gnu"},
	"links":       {[][]string{{"-help"}}, "lynx"},
	"elinks":      {[][]string{{"-long-help"}}, "indented"},
	"redis-cli":   {[][]string{{"--help"}}, "indented"},
	"mongosh":     {[][]string{nil}, "yargs:@mongosh/arg-parser/lib/arg-parser.js"},
	"aws": {[][]string{{"help"}, {"s3", "cp", "help"}, {"s3", "mv", "help"}, {"s3", "sync", "help"}, {"s3", "rm", "help"},
		{"s3", "ls", "help"}, {"s3", "mb", "help"}, {"s3", "rb", "help"}, {"s3", "presign", "help"}, {"s3", "website", "help"}}, "aws"},
	"helm": {[][]string{{"--help"}, {"completion", "--help"}, {"create", "--help"}, {"dependency", "build", "--help"}, {"dependency", "list", "--help"}, {"dependency", "update", "--help"}, {"env", "--help"}, {"get", "all", "--help"}, {"get", "hooks", "--help"}, {"get", "manifest", "--help"}, {"get", "metadata", "--help"}, {"get", "notes", "--help"}, {"get", "values", "--help"}, {"history", "--help"}, {"install", "--help"}, {"lint", "--help"}, {"list", "--help"}, {"package", "--help"}, {"plugin", "install", "--help"}, {"plugin", "list", "--help"}, {"plugin", "uninstall", "--help"}, {"plugin", "update", "--help"}, {"plugin", "package", "--help"}, {"plugin", "verify", "--help"}, {"pull", "--help"}, {"push", "--help"}, {"registry", "login", "--help"}, {"registry", "logout", "--help"}, {"repo", "add", "--help"}, {"repo", "index", "--help"}, {"repo", "list", "--help"}, {"repo", "remove", "--help"}, {"repo", "update", "--help"}, {"rollback", "--help"}, {"search", "hub", "--help"}, {"search", "repo", "--help"}, {"show", "all", "--help"}, {"show", "chart", "--help"}, {"show", "crds", "--help"}, {"show", "readme", "--help"}, {"show", "values", "--help"}, {"status", "--help"}, {"template", "--help"}, {"test", "--help"}, {"uninstall", "--help"}, {"upgrade", "--help"}, {"verify", "--help"}, {"version", "--help"}}, "gnu"},
}

// netToolProbes are the tools whose help lists only some of their
// options (nmap --help lists about half), whose spelling each is held to
// the tool itself instead: run with the spelling, a value where it takes
// one, and the words that end the run once the line is read (nmap -h),
// the tool must not refuse it. alone are the spellings the tool reads
// only as its line's one option (nmap --resume FILE), run without them.
var netToolProbes = map[string]netProbe{
	"nmap": {[]string{"-h"}, map[string]bool{"--resume": true}, getoptRefused},
	"tftp": {[]string{"-V"}, nil, regexp.MustCompile(`Usage: tftp`)},
}

// netProbe is how a tool is run to hold its spec's spellings to it: end
// are the words that end its run once its line is read, alone the
// spellings it reads only as the line's one option, and refused what it
// prints for an option it does not accept.
type netProbe struct {
	end     []string
	alone   map[string]bool
	refused *regexp.Regexp
}

// getoptRefused is what getopt prints for an option it does not accept.
var getoptRefused = regexp.MustCompile(`unrecognized option|invalid option|is ambiguous|requires an argument|doesn't allow an argument`)

// netSpellingsAccepted asserts that the program bin accepts every
// spelling of the spec s, run as netToolProbes says, and returns how
// many it checked.
func netSpellingsAccepted(t *testing.T, bin string, s *spec, probe netProbe) int {
	t.Helper()
	dir := t.TempDir()
	n := 0
	for r := range s.eachRow {
		for w := range strings.FieldsSeq(r.spell) {
			f, value := strings.CutSuffix(strings.TrimSuffix(w, "[=]"), "=")
			args := []string{f}
			if value {
				args = append(args, "/dev/null")
			}
			if !probe.alone[f] {
				args = append(args, probe.end...)
			}
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			cmd := exec.CommandContext(ctx, bin, args...)
			cmd.Dir, cmd.Env = dir, append(os.Environ(), "LANG=C", "HOME="+dir)
			out, err := cmd.CombinedOutput()
			timedOut := ctx.Err() != nil
			cancel()
			var exit *exec.ExitError
			require.True(t, err == nil || errors.As(err, &exit), "%s %v: the tool did not run: %v", bin, args, err)
			require.False(t, timedOut, "%s %v: the tool did not end its run", bin, args)
			require.NotEmpty(t, out, "%s %v: the tool printed nothing, so its reading of the spelling is not known", bin, args)
			assert.NotRegexp(t, probe.refused, string(out), "%s %v: the tool refuses the spelling %s of its spec", bin, args, f)
			n++
		}
	}
	return n
}

// netHelpUnlisted are the options a spec has that the tool's help does
// not list, each checked against the tool (cargo install's --vers, an
// alias of --version; the unstable --lockfile-path of cargo's build
// options), and the words a manual page shows as examples of its syntax
// (apt-get's "-f-" and "--no-f" for -f off, "-eany" for -e any, which
// is so the only place -e is shown; --show-upgraded is shown as
// --no-show-upgraded), pnpm's --prefer-offline, which pnpm 12
// takes and its help does not list, and the letters dig (-d, -i, -n)
// and host (-D, -i, -n) take and their usage does not list; traceroute's
// -UL, a word its parser reads whole, which its spec reads as -U -L and
// so asks; ping's -r, which its help does not list; MySQL's
// --login-path, which MariaDB's clients do not have; and the long
// options of lftp's open, its -B, and lftp's -h and -v (--help and
// --version), which lftp takes and neither help lists; and svn's
// --version, -h and --help, which no subcommand's help lists; w3m's
// -no-cookie, which -cookie's row names in its text.
var netHelpUnlisted = map[string]bool{"svn --version": true, "svn -h": true, "svn --help": true, "w3m -no-cookie": true,
	"lftp --user": true, "lftp --password": true, "lftp --env-password": true, "lftp -B": true, "lftp -h": true, "lftp -v": true,
	"cargo --vers": true, "cargo --lockfile-path": true,
	"apt-get -f-": true, "apt-get --no-f": true, "apt-get -eany": true, "apt -f-": true, "apt --no-f": true, "apt -eany": true,
	"pnpm --prefer-offline": true, "apt-get -e": true,
	"mysql --login-path": true, "mariadb --login-path": true, "mysqldump --login-path": true,
	// aws's customizations' options, which aws help does not list: aws
	// cloudformation package help (--template-file,
	// --output-template-file), ec2 get-password-data help
	// (--priv-launch-key), eks update-kubeconfig help (--kubeconfig),
	// gamelift upload-build help (--build-root), s3api get-object help
	// (--bucket, --key), ec2 run-instances help (--cli-input-json,
	// --cli-input-yaml).
	"aws --template-file": true, "aws --output-template-file": true, "aws --priv-launch-key": true, "aws --kubeconfig": true,
	"aws --build-root": true, "aws --bucket": true, "aws --key": true, "aws --cli-input-json": true, "aws --cli-input-yaml": true,
	"traceroute -UL": true, "ping -r": true, "dig -d": true, "dig -i": true, "dig -n": true, "host -D": true, "host -i": true, "host -n": true, "apt -e": true, "apt-get --show-upgraded": true, "apt --show-upgraded": true}

// netDockerUnlisted reports an option of docker's (or podman's) spec s
// that its help does not list: cobra's --help (and -h, docker's), and buildx's
// options in docker build's spec, which the help of the classic builder
// installed here does not list.
func netDockerUnlisted(s *spec, f string) bool {
	if f == "--help" || f == "-h" && s.name == "docker" {
		return true
	}
	if s.name != "docker build" && s.name != "docker image build" {
		return false
	}
	for _, r := range dockerBuildxRows {
		if slices.Contains(strings.Fields(strings.NewReplacer("[=]", "", "=", "").Replace(r.spell)), f) {
			return true
		}
	}
	return false
}

// TestNetToolFlagsAgreeWithHelp holds each tool's spec (its own, or the
// one its flags make) to the help of the tools installed where it runs:
// every spelling of the spec is an option the tool lists, and, for a
// tool whose help has a reader, every option each help lists is one the
// spec of its subcommand (the words of the help's command line the spec
// has subcommands for) classifies. It logs the tools not installed.
func TestNetToolFlagsAgreeWithHelp(t *testing.T) {
	checked, listed, tools := 0, 0, 0
	var missing, plugins []string
	for _, name := range slices.Sorted(maps.Keys(netToolHelp)) {
		h := netToolHelp[name]
		bin, err := helpTool(name) // on PATH, or where .ci/setup installs pnpm
		if err != nil {
			missing = append(missing, name)
			continue
		}
		tools++
		c, l, p := netToolHelpAgrees(t, name, bin, h.helps, h.reader)
		checked, listed, plugins = checked+c, listed+l, append(plugins, p...)
	}
	t.Logf("checked %d spellings of %d installed tools against their help; %d options their help lists, every one classified", checked, tools, listed)
	logSkipped(t, "not installed here, so not checked", missing)
	logSkipped(t, "plugins not installed here, so not checked", plugins)
	var unread, old []string
	for _, name := range slices.Sorted(maps.Keys(netTools())) {
		if _, ok := netToolHelp[name]; ok {
			continue
		}
		if netTools()[name].options != nil {
			unread = append(unread, name)
		} else {
			old = append(old, name)
		}
	}
	logSkipped(t, "with a spec of their own, but no help read here", unread)
	logSkipped(t, "options still as the table's valShort, valLong and flags, no help read here", old)
}

// logSkipped says loudly which tools a part of the test did not check,
// and why; nothing when it checked them all.
func logSkipped(t *testing.T, why string, tools []string) {
	t.Helper()
	if len(tools) > 0 {
		t.Logf("SKIPPED PART: %s: %s", why, strings.Join(tools, ", "))
	}
}

// netToolHelpAgrees holds the spec of the tool name to the help its
// program bin prints for each command line of helps, as
// TestNetToolFlagsAgreeWithHelp says, and returns how many spellings and
// listed options it checked, and the plugins not installed.
func netToolHelpAgrees(t *testing.T, name, bin string, helps [][]string, reader string) (checked, listed int, plugins []string) {
	t.Helper()
	texts := map[*spec]*strings.Builder{}
	var order []*spec
	if strings.HasPrefix(reader, "man:") {
		helps = [][]string{nil}
	}
	for _, args := range helps {
		text := netToolHelpText(t, bin, [][]string{args}, reader)
		s, words := netToolHelpSpec(name, args)
		if name == "docker" && len(words) > 0 && strings.Contains(text, "Usage:  docker [OPTIONS] COMMAND") {
			plugins = append(plugins, name+" "+strings.Join(words, " "))
			continue // a plugin not installed here (buildx, compose): docker prints its own help
		}
		if texts[s] == nil {
			texts[s] = &strings.Builder{}
			order = append(order, s)
		}
		texts[s].WriteString(strings.ReplaceAll(text, "--[no-]", "--")) // OptionParser's "--[no-]force" lists --force
		if reader != "" {
			listed += netHelpClassified(t, name, args, s, netHelpListed(reader, text), reader)
		}
		if strings.HasPrefix(reader, "optparse:") || strings.HasPrefix(reader, "argparse:") || strings.HasPrefix(reader, "yargs:") {
			pyParserArities(t, name, s, text)
		}
		if reader == "aws" {
			assert.Positive(t, awsArities(t, s, text), "%s %v: aws help lists no option with its type", name, args)
		}
	}
	if reader == "npm" || reader == "mvn" {
		return 0, listed, plugins // npm's keys are held to its definitions (TestNpmScriptSpecsAgreeWithNpm), Maven's rows to 3.8's and 3.9's help (TestSysSpecsAgreeWithHelp)
	}
	for _, s := range order {
		if probe, ok := netToolProbes[name]; ok {
			checked += netSpellingsAccepted(t, bin, s, probe)
			continue
		}
		checked += netSpellingsListed(t, name, s, texts[s].String(), reader)
	}
	return checked, listed, plugins
}

// netHelpClassified asserts that the spec s classifies every option of
// opts, which the help of the tool name's command line args lists, and
// returns how many it checked.
func netHelpClassified(t *testing.T, name string, args []string, s *spec, opts []string, reader string) int {
	t.Helper()
	require.NotEmpty(t, opts, "%s %v: its help lists no options the reader %s understands", name, args, reader)
	n := 0
	for _, o := range opts {
		if netHelpUnlisted[name+" "+o] {
			continue
		}
		n++
		assert.True(t, specClassifies(s, o), "%s %v: the option %s that its help lists is not in its spec", name, args, o)
	}
	return n
}

// netSpellingsListed asserts that every spelling of the spec s is an
// option the help text lists, and returns how many it checked.
func netSpellingsListed(t *testing.T, name string, s *spec, text, reader string) int {
	t.Helper()
	n := 0
	var listed []string
	if s.grammar.longOnly || reader == "usage" {
		listed = netHelpListed(reader, text)
	}
	for _, f := range specSpellings(s) {
		if strings.HasSuffix(f, "*") {
			continue // a prefix of names (my_getopt's --loose-X), no option of its own
		}
		if netHelpUnlisted[name+" "+f] || netHelpUnlisted[s.name+" "+f] || (name == "docker" || name == "podman") && netDockerUnlisted(s, f) {
			continue
		}
		re := regexp.MustCompile(`(^|[\s,\[|(])` + regexp.QuoteMeta(f) + `($|[\s,=\]|)<.[])`)
		assert.True(t, re.MatchString(text) || longOnlyListed(listed, f), "%s: the flag %s of %s is not an option its help lists", name, f, s.name)
		n++
	}
	return n
}

// netToolHelpSpec is the spec of the tool name that the help command
// line args describes: the subcommand its words name, where the spec has
// subcommands, and those words.
func netToolHelpSpec(name string, args []string) (*spec, []string) {
	s := netToolSpecs()[name]()
	var words []string
	for _, a := range args {
		sub := s.subs[a]
		if sub == nil {
			break
		}
		s, words = sub, append(words, a)
	}
	return s, words
}

// netToolHelpText is the help the command lines helps of the program
// name print, or the roff source of the manual page a "man:" reader names.
func netToolHelpText(t *testing.T, name string, helps [][]string, reader string) string {
	t.Helper()
	if page, ok := strings.CutPrefix(reader, "man:"); ok {
		var text strings.Builder
		for p := range strings.SplitSeq(page, ",") {
			b, err := readManPage("/usr/share/man/man8/" + p + ".8.gz")
			require.NoError(t, err, "%s: its manual page %s", name, p)
			text.WriteString(strings.NewReplacer(`\fB`, "", `\fR`, "", `\fI`, "", `\-`, "-").Replace(b))
		}
		return text.String()
	}
	if parser, ok := strings.CutPrefix(reader, "optparse:"); ok {
		return pyParserOptions(t, name, optparseScript, parser)
	}
	if parser, ok := strings.CutPrefix(reader, "argparse:"); ok {
		return pyParserOptions(t, name, argparseScript, parser)
	}
	if parser, ok := strings.CutPrefix(reader, "yargs:"); ok {
		return yargsOptions(t, name, parser)
	}
	var text strings.Builder
	for _, h := range helps {
		cmd := exec.Command(name, h...)
		cmd.Env = append(os.Environ(), "LANG=C")
		b, _ := cmd.CombinedOutput()
		text.Write(overstrike.ReplaceAll(b, nil)) // a manual page's bold and underline (aws help)
		text.WriteByte('\n')
	}
	return text.String()
}

// awsArities asserts that the spec s gives every option aws help's text
// lists with its type ("--debug (boolean)", "--region (string)") the
// arity the type says: a boolean takes no value, any other one; it
// returns how many it checked.
func awsArities(t *testing.T, s *spec, text string) int {
	t.Helper()
	n := 0
	for _, m := range awsHelpTyped.FindAllStringSubmatch(text, -1) {
		if sp := specSpelling(s, m[1]); sp != nil && m[1] != "--version" {
			n++
			assert.Equal(t, m[2] != "boolean", sp.arg == argRequired, "%s: aws help gives %s the type %s; the spec: %s", s.name, m[1], m[2], arityText(sp.arg))
		}
	}
	return n
}

// awsHelpTyped is an option of aws help's options, with its type.
var awsHelpTyped = regexp.MustCompile(`(?m)^\s+(--[a-z0-9-]+) +\((\w+)\)`)

// overstrike is a character struck over, as a terminal's manual page
// writes bold ("S\bS") and underline ("_\bS"): the first one and the
// backspace, which leave the second.
var overstrike = regexp.MustCompile("(?s).\b")

// optparseScript prints every option of the optparse parser that the
// function argv[2] of the module argv[1] makes, hidden ones too, a row
// each as a GNU help lists them ("  -o, --output VALUE"): VALUE where it
// takes one.
const optparseScript = `import importlib, sys
parser = getattr(importlib.import_module(sys.argv[1]), sys.argv[2])()
for o in parser._get_all_options():
    print("  " + ", ".join(o._short_opts + o._long_opts) + (" VALUE" if o.takes_value() else ""))
`

// argparseScript prints the options of the argparse parser that is the
// attribute argv[2] of the module argv[1], as optparseScript does.
const argparseScript = `import importlib, sys
parser = getattr(importlib.import_module(sys.argv[1]), sys.argv[2])
for a in parser._actions:
    if a.option_strings:
        print("  " + ", ".join(a.option_strings) + ("" if a.nargs == 0 else " VALUE"))
`

// pyParserOptions lists the options of a tool written in Python from its
// parser itself (parser: MODULE:NAME), printed by script, run by the
// interpreter of the tool's own #! line.
func pyParserOptions(t *testing.T, bin, script, parser string) string {
	t.Helper()
	head, err := os.ReadFile(bin)
	require.NoError(t, err)
	line, _, _ := strings.Cut(string(head), "\n")
	interp := strings.Fields(strings.TrimPrefix(line, "#!"))
	require.NotEmpty(t, interp, "%s: no #! line names its interpreter", bin)
	mod, fn, _ := strings.Cut(parser, ":")
	args := append(interp[1:], "-c", script, mod, fn)
	out, err := exec.Command(interp[0], args...).CombinedOutput()
	require.NoError(t, err, "%s: its parser %s: %s", bin, parser, out)
	return string(out)
}

// yargsScript prints the options of mongosh's parser, the module
// argv[1] (@mongosh/arg-parser's lib/arg-parser.js), as optparseScript
// does: a boolean's and an option of no declared type (whose value is
// only attached, --json=relaxed) without VALUE.
const yargsScript = `const p = require(process.argv[1]);
const o = p.generateYargsOptionsFromSchema({ schema: p.CliOptionsSchema });
const aliases = {};
for (const [a, c] of Object.entries(o.alias)) (aliases[c] = aliases[c] || []).push(a);
const dash = (n) => (n.length === 1 ? "-" : "--") + n;
for (const n of new Set([...o.string, ...o.array, ...o.boolean, ...Object.keys(o.coerce)])) {
  const value = o.string.includes(n) || o.array.includes(n);
  console.log("  " + [n, ...(aliases[n] || [])].map(dash).join(", ") + (value ? " VALUE" : ""));
}
`

// yargsOptions lists the options of a tool written in JavaScript from
// its parser itself (module: the parser's file, below the node_modules
// of the tool's program bin), printed by yargsScript under node.
func yargsOptions(t *testing.T, bin, module string) string {
	t.Helper()
	modules := filepath.Dir(filepath.Dir(bin)) // node_modules/.bin/NAME
	out, err := exec.Command("node", "-e", yargsScript, filepath.Join(modules, module)).CombinedOutput()
	require.NoError(t, err, "%s: its parser %s: %s", bin, module, out)
	return string(out)
}

// pyParserArities asserts that the spec s gives every option the text
// of pyParserOptions lists the arity its parser gives it: a value taken
// where the spec reads none would hide the next word from the judge.
func pyParserArities(t *testing.T, name string, s *spec, text string) {
	t.Helper()
	for line := range strings.Lines(text) {
		names, value := strings.CutSuffix(strings.TrimSpace(line), " VALUE")
		for o := range strings.SplitSeq(names, ", ") {
			if sp := specSpelling(s, o); assert.NotNil(t, sp, "%s: %s is not in its spec", name, o) {
				assert.Equal(t, value, sp.arg == argRequired, "%s: its parser gives %s a value: %v; the spec: %s", name, o, value, arityText(sp.arg))
			}
		}
	}
}

// lynxHelpRow is a row of lynx -help: an option, one dash, its name
// with "_" and "." in it.
var lynxHelpRow = regexp.MustCompile(`(?m)^  (-[A-Za-z0-9][A-Za-z0-9_.+-]*)`)

// awsHelpOption is an option aws help lists, in its options, "--debug
// (boolean)", or its synopsis, "[--include <value>]", "[--a | --b]".
var awsHelpOption = regexp.MustCompile(`(?m)^\s+(--[a-z0-9-]+) \(\w+\)|\[(--[a-z0-9-]+)(?: <value>)?(?: \| (--[a-z0-9-]+))?`)

// usageOption is an option of a usage line, in brackets with its value:
// "[-m mode]".
var usageOption = regexp.MustCompile(`\[(?:(-[A-Za-z0-9])(?: [a-z]+)?|-([A-Za-z0-9]{2,}))\]`)

// nmapHelpRow is a row of nmap --help: its options up to the ":" that
// ends them; nmapHelpValue, the value an option there is shown with
// ("<file>", "[portlist]", "=<Lua scripts>", "<0-5>").
var (
	nmapHelpRow   = regexp.MustCompile(`(?m)^  (-[^:]*?)(?: <[^>]*>)?:`)
	nmapHelpValue = regexp.MustCompile(`=?(<[^>]*>|\[[^]]*\])`)
)

// svnHelpRow is a row of svn help -v: an option, a letter with its long
// name in brackets, or a long name with its alias.
var svnHelpRow = regexp.MustCompile(`(?m)^  (?:(-[a-zA-Z]) \[(--[a-z][-a-z0-9]*)\]|(--[a-z][-a-z0-9]*)(?: \[(--[a-z]+)\])?)(?: ARG)? +:`)

// netHelpListed lists the options a tool's help text lists, by its
// reader.
func netHelpListed(reader, text string) []string {
	var out []string
	switch {
	case reader == "gnu", strings.HasPrefix(reader, "optparse:"), strings.HasPrefix(reader, "argparse:"), strings.HasPrefix(reader, "yargs:"):
		return gnuHelpOptions(text)
	case reader == "indented":
		// gnu's rows, indented further (dig -h lists its options 17
		// columns in).
		return gnuHelpOptions(regexp.MustCompile(`(?m)^\s+-`).ReplaceAllString(text, "  -"))
	case reader == "lynx":
		// lynx -help's rows: "  -name", "  -name=VALUE", names with "_" in them.
		// links -help indents its rows one space.
		text = regexp.MustCompile(`(?m)^ -`).ReplaceAllString(text, "  -")
		for _, m := range lynxHelpRow.FindAllStringSubmatch(text, -1) {
			out = append(out, m[1])
		}
	case reader == "svn":
		// svn help -v's rows: "  -r [--revision] ARG : ...", "  --changelist [--cl] ARG : ...".
		for _, m := range svnHelpRow.FindAllStringSubmatch(text, -1) {
			for _, o := range m[1:] {
				if o != "" {
					out = append(out, o)
				}
			}
		}
	case reader == "aws":
		// aws help's rows, "--debug (boolean)", and its synopsis's,
		// "[--include <value>]", "[--follow-symlinks | --no-follow-symlinks]".
		for _, m := range awsHelpOption.FindAllStringSubmatch(text, -1) {
			for _, o := range m[1:] {
				if o != "" && !slices.Contains(out, o) {
					out = append(out, o)
				}
			}
		}
	case reader == "usage":
		// A usage line's options, each in brackets with its value,
		// "[-4][-m mode]", or letters clustered, "[-46cDHv]".
		for _, m := range usageOption.FindAllStringSubmatch(text, -1) {
			if m[2] != "" {
				for _, c := range m[2] {
					out = append(out, "-"+string(c))
				}
				continue
			}
			out = append(out, m[1])
		}
	case reader == "nmap":
		// nmap --help's rows: "  -sS/sT/sA: ...", "  -oN/-oX <file>: ...",
		// "  -f; --mtu <val>: ...", "  -PS/PA/PU/PY[portlist]: ...", a name
		// after "/" without its dashes taking the dashes before it.
		for _, m := range nmapHelpRow.FindAllStringSubmatch(text, -1) {
			for part := range strings.SplitSeq(strings.ReplaceAll(m[1], ";", "/"), "/") {
				part, _, _ = strings.Cut(nmapHelpValue.ReplaceAllString(part, ""), "=")
				part = strings.TrimSpace(part)
				switch {
				case strings.HasPrefix(part, "-"):
				case len(out) > 0 && strings.HasPrefix(out[len(out)-1], "--"):
					part = "--" + part
				default:
					part = "-" + part
				}
				out = append(out, part)
			}
		}
	case reader == "mvn":
		for _, line := range strings.Split(text, "\n") {
			if m := mvnHelpOption.FindStringSubmatch(line); m != nil {
				for _, o := range m[1:3] {
					if o != "" {
						out = append(out, o)
					}
				}
			}
		}
	case reader == "npm":
		for _, m := range npmHelpOption.FindAllStringSubmatch(text, -1) {
			out = append(out, m[1])
		}
	case strings.HasPrefix(reader, "man:"):
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, "-") {
				out = append(out, gnuHelpOptions("  "+line)...)
			}
		}
	}
	return out
}

// readManPage reads the gzipped roff source at path.
func readManPage(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return "", err
	}
	b, err := io.ReadAll(z)
	return string(b), err
}

// longOnlyListed reports whether listed, the options a help of
// getopt_long_only's lists, has the spelling f: --oN as -oN, a letter
// as the letter with its value attached (-s in -sS).
func longOnlyListed(listed []string, f string) bool {
	for _, o := range listed {
		if o == f || "-"+o == f || len(f) == 2 && strings.HasPrefix(o, f) && !strings.HasPrefix(o, "--") {
			return true
		}
	}
	return false
}

// specSpellings are the spellings of the rows of s, or, for a spec
// without rows, the flags netToolFlags gives the tool.
func specSpellings(s *spec) []string {
	var out []string
	for r := range s.eachRow {
		for w := range strings.FieldsSeq(r.spell) {
			out = append(out, strings.TrimSuffix(strings.TrimSuffix(w, "[=]"), "="))
		}
	}
	return out
}

// specSpellingDeep is the spelling o of s, or of one of its
// subcommands' specs (gh auth's -h).
func specSpellingDeep(s *spec, o string) *spelling {
	if sp := specSpelling(s, o); sp != nil {
		return sp
	}
	for _, n := range slices.Sorted(maps.Keys(s.subs)) {
		if sp := specSpellingDeep(s.subs[n], o); sp != nil {
			return sp
		}
	}
	return nil
}

// A tool that has its own spec states its options there alone: no
// valShort, valLong or flags beside it, and every option that moves it
// is one of the spec's.
func TestNetToolOwnSpecs(t *testing.T) {
	own := 0
	for name, tool := range netTools() {
		if tool.whole {
			// Its spec is the only one that judges its line.
			assert.NotNil(t, tool.options, "%s: whole, without a spec", name)
			assert.False(t, cmdIn(name, inSys|inTools), "%s: whole, and another spec judges its line", name)
		}
		if tool.options == nil {
			continue
		}
		own++
		assert.Empty(t, tool.valShort, name)
		assert.Empty(t, tool.valLong, name)
		assert.Empty(t, netToolFlags()[name], name)
		s := tool.options()
		for opt := range tool.opts {
			if strings.HasSuffix(opt, "*") {
				continue // a prefix of names no row spells (npm's --@scope:registry), read by effectOf
			}
			assert.NotNil(t, specSpellingDeep(s, opt), "%s: %s moves it, and is not in its spec", name, opt)
		}
	}
	assert.GreaterOrEqual(t, own, 2, "kubectl and oc have their own specs")
}

// youtube-dl's rows, taken from its parser once (it is not installed
// where the tests run), are held to yt-dlp's rows of the options both
// have, which yt-dlp forked with their meaning: the same kind and the
// same arity, but for -o, which youtube-dl writes without yt-dlp's
// TYPES: prefix.
func TestYoutubeDLRowsAsYtdlp(t *testing.T) {
	yt, shared := ytdlpSpec(), 0
	for r := range youtubeDLSpec().eachRow {
		for w := range strings.FieldsSeq(r.spell) {
			f := strings.TrimSuffix(w, "=")
			sp := specSpelling(yt, f)
			if sp == nil {
				continue // renamed or dropped by yt-dlp: classified in the rows
			}
			shared++
			own := specSpelling(youtubeDLSpec(), f)
			assert.Equal(t, sp.arg, own.arg, "youtube-dl %s: its arity is yt-dlp's", f)
			want := sp.opt.kind
			if want == kTypedWrite {
				want = kWrite
			}
			assert.Equal(t, want, own.opt.kind, "youtube-dl %s: its kind is yt-dlp's", f)
		}
	}
	assert.Greater(t, shared, 180, "spellings youtube-dl shares with yt-dlp")
}
