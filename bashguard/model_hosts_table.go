package bashguard

import (
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// The reader of the netTools table (hosts_tools.go): it finds the
// subcommand, reads the options and the command's environment for where
// the tool connects, and judges the hosts of the registry and of each
// operand that names one.

// envVar is an assignment in the environment of the command being
// judged ("NAME=value cmd", env NAME=value cmd).
type envVar struct {
	name, val string
	lit       bool // val is known before run time
}

// netRead is what the options and environment of one command line say.
type netRead struct {
	replace []string // registries named instead of the default
	add     []string // further registries and sources
	unknown string   // an option or variable that moves the tool where it is not read here
	offline bool
	noIndex bool
	urls    []string // URLs in the values of other options
	hosts   []string // host[:port] values of options (openssl -connect)
	global  bool     // -g, --global: the project's manifest is not installed
	conn    []string // connection strings (psql -d "host=... dbname=...")
	dir     string   // the project's directory, where the configuration files are (npm --prefix)
}

// effectOf returns the effect of the option or variable name in m, "*"
// ending a prefix. With abbrev, a long option may be abbreviated as the
// tool's parser allows, for every effect but those that switch judging
// off; of several matches the one that judges most wins, whatever the
// order of the map.
func effectOf(m map[string]netEffect, name string, abbrev bool) netEffect {
	if e, ok := m[name]; ok {
		return e
	}
	var best netEffect
	for k, e := range m {
		switch {
		case strings.HasSuffix(k, "*") && strings.HasPrefix(name, k[:len(k)-1]),
			abbrev && e != effOffline && e != effNoIndex && strings.HasPrefix(k, "--") && len(name) > 3 &&
				strings.HasPrefix(name, "--") && strings.HasPrefix(k, name):
			if effRank(e) > effRank(best) {
				best = e
			}
		}
	}
	return best
}

// effRank orders the effects by how much they judge.
func effRank(e netEffect) int {
	switch e {
	case effUnknown:
		return 5
	case effReplace:
		return 4
	case effRepo:
		return 3
	case effAdd, effHost, effConn:
		return 2
	case 0:
		return 0
	}
	return 1
}

func (r *netRead) apply(e netEffect, name, val string, known bool) {
	switch {
	case e == effOffline:
		r.offline = r.offline || val == "" || val == "true" || val == "1"
	case e == effNoIndex:
		r.noIndex = r.noIndex || val == "" || val == "true" || val == "1"
	case !known:
		if r.unknown == "" {
			r.unknown = name
		}
	case e == effUnknown:
		if r.unknown == "" {
			r.unknown = name
		}
	case e == effReplace:
		if val == "" {
			if r.unknown == "" {
				r.unknown = name
			}
			return
		}
		r.replace = append(r.replace, val)
	case e == effAdd:
		if val != "" {
			r.add = append(r.add, val)
		}

	case e == effHost:
		r.hosts = append(r.hosts, val)
	case e == effDir:
		r.dir = val
	case e == effConn:
		switch {
		case strings.Contains(val, "://"):
			r.urls = append(r.urls, val)
		case strings.Contains(val, "="):
			r.conn = append(r.conn, val)
		}
	case e == effRepo:
		if parts := strings.Split(val, "/"); len(parts) == 3 {
			r.replace = append(r.replace, parts[0])
		}
	}
}

// netToolSpecs are the rows of the netTools table as specs, by the names
// the tools are run as: every option a row names (those that take a
// value, those that move the tool, its harmless flags) is a spec row, read
// by the one scanner. What each option does to where the tool connects is
// the row's opts. Each is made on its first use, as the specs' tables
// are: a hook process judges a few commands.
var netToolSpecs = sync.OnceValue(func() map[string]func() *spec {
	return netToolSpecsOf(netTools())
})

// netToolSpecsOf returns, for each tool of tools, its spec, compiled on
// the first call; safe for concurrent use.
func netToolSpecsOf(tools map[string]*netTool) map[string]func() *spec {
	m := make(map[string]func() *spec, len(tools))
	for name, t := range tools {
		m[name] = t.options
		if t.options == nil {
			m[name] = sync.OnceValue(func() *spec { return t.toSpec(name) })
		}
	}
	return m
}

// toSpec is the spec of the tool t's options. Its grammar takes options
// anywhere, no abbreviation (an abbreviation never takes the next word
// as its value, as before; t.abbrev lets it still reach its option's
// effect), and one dash for the long options of a singleDash tool. A
// prefix ("--@*") is no spelling: effectOf reads it. A short option of
// two letters (mvn -gs) is no spelling either: the scanner reads it as a
// cluster, whose first letter the spec does not know.
func (t *netTool) toSpec(name string) *spec {
	s := &spec{name: name, grammar: grammar{permute: true, oneDash: t.singleDash}}
	if t.kindsSpec != nil {
		s.leadCommands, s.scriptOps = t.kindsSpec.leadCommands, t.kindsSpec.scriptOps
	}
	seen := map[string]bool{}
	add := func(w string, k kind) {
		text := strings.TrimSuffix(w, "=")
		if seen[text] || strings.HasSuffix(w, "*") || !t.singleDash && len(text) > 2 && text[1] != '-' {
			return
		}
		seen[text] = true
		s.rows = append(s.rows, optRow{w, k, ""})
	}
	for _, r := range t.kinds {
		for w := range strings.FieldsSeq(r.spell) {
			seen[strings.TrimSuffix(strings.TrimSuffix(w, "[=]"), "=")] = true
		}
		s.rows = append(s.rows, r)
	}
	for i := 0; i < len(t.valShort); i++ {
		add("-"+t.valShort[i:i+1]+"=", kWord)
	}
	for _, l := range t.valLong {
		add(l+"=", kWord)
	}
	for _, o := range slices.Sorted(maps.Keys(t.opts)) {
		add(o, kFlag)
	}
	for _, f := range strings.Fields(netToolFlags()[name]) {
		add(f, kFlag)
	}
	return s.compile()
}

// readLine reads the options of v (the tool t's command line, by its
// spec s) and the command's environment for where the tool connects, and
// returns the operands.
func (m *cmdCall) readLine(t *netTool, s *spec, v *argv) (netRead, []int) {
	var r netRead
	var ops []int
	scanNetLine(s, v, 1, func(e *scanned) {
		switch {
		case e.opt == &dashDashOpt:
		case e.problem != "" || e.opt == &noptUnknownOpt:
			r.unread(t, s, e)
		case e.opt == nil:
			ops = append(ops, e.at)
		default:
			r.option(t, e, v.literal(e.at))
		}
	})
	for _, e := range m.cmdEnv {
		if eff := effectOf(t.env, e.name, false); eff != 0 {
			r.apply(eff, e.name+"=", e.val, e.lit)
		}
	}
	return r, ops
}

// scanNetLine reads v from the word at from on by the spec s; where s has
// subcommands, its options end at the first operand, and a subcommand's
// spec reads the rest of the line (docker pull's -a is not docker's).
func scanNetLine(s *spec, v *argv, from int, fn func(e *scanned)) {
	if len(s.subs) == 0 {
		scanSpec(s, v, from, false, fn)
		return
	}
	i := scanSpec(s, v, from, true, fn)
	if i >= v.len() {
		return
	}
	if sub := s.subs[v.vals[i]]; sub != nil && v.literal(i) {
		fn(&scanned{word: v.vals[i], at: i})
		scanNetLine(sub, v, i+1, fn)
		return
	}
	scanSpec(s, v, i, false, fn)
}

// option reads one option o the spec resolved, by its spelling or its
// name, with its value (known: the value is literal).
func (r *netRead) option(t *netTool, o *scanned, known bool) {
	name, val := o.spell, o.val
	if name == "-g" || name == "--global" || name == "--location" && val == "global" {
		r.global = true
	}
	e := effectOf(t.opts, name, false)
	if e == 0 && o.opt != nil && o.opt.name != name {
		// By the option's name, its row's first spelling (gem's
		// --local, which install's -l is).
		name, e = o.opt.name, effectOf(t.opts, o.opt.name, false)
	}
	switch {
	case e != 0:
		r.apply(e, name, val, known)
	case !known:
		// asked as a word only known at run time
	case strings.Contains(val, "://"):
		r.urls = append(r.urls, val)
	case strings.Contains(val, "host="):
		r.conn = append(r.conn, val) // psql -d "host=... dbname=..."
	}
}

// unread reads an option the spec s cannot resolve (one it does not
// know, a key nopt keeps that npm does not define, one lacking its value): a prefix of the row's opts ("--@scope:registry"),
// or an abbreviation of one where the tool takes them, has its effect;
// any other is an option the tool may move with, which asks, naming it.
func (r *netRead) unread(t *netTool, s *spec, e *scanned) {
	name, val := e.spell, ""
	shown := "" // the option as written, for the reason, where name is not
	switch {
	case s.grammar.nopt:
		name, val, _ = strings.Cut("--"+strings.TrimLeft(e.word, "-"), "=") // nopt reads any number of dashes alike
		shown, _, _ = strings.Cut(e.word, "=")
	case strings.HasPrefix(e.word, "--") || t.singleDash || s.grammar.oneDash:
		name, val, _ = strings.Cut(e.word, "=")
	}
	// An abbreviation the spec finds ambiguous (npm's --re) has the
	// effect that judges most of those it may name, and asks.
	ambiguous := e.problem != "" && e.problem != problemUnknown
	if eff := effectOf(t.opts, name, t.abbrev || s.grammar.abbrev && ambiguous); eff != 0 {
		r.apply(eff, name, val, true)
		if !ambiguous {
			return
		}
	}
	if shown == "" {
		shown = name
	}
	if r.unknown == "" {
		r.unknown = shown
	}
}

// named reports whether the options name where the tool goes.
func (r *netRead) named() bool {
	return r.unknown != "" || len(r.urls)+len(r.hosts)+len(r.conn)+len(r.replace)+len(r.add) > 0
}

// tableHosts judges the command v of the tool t (named name).
func (m *cmdCall) tableHosts(c *verdictAcc, name string, t *netTool, v *argv) {
	if printsOnly(v) {
		return
	}
	r, ops := m.readLine(t, netToolSpecs()[name](), v)
	sub, rest, ok := t.sub(v, ops)
	if _, star := t.subs["*"]; !ok && star && r.named() && (len(ops) == 0 || !t.local[v.vals[ops[0]]]) {
		ok = true // aria2c -i FILE, redis-cli -u URL: options name where it goes
	}
	if !ok || r.offline {
		return
	}
	m.optionHosts(c, name, &r)
	if sub.kind == subRun && len(rest) == 0 {
		return // npm init, npx alone: nothing to fetch
	}
	if r.usesRegistry(t, sub.kind) {
		m.registryHosts(c, name, t, &r)
	}
	for _, s := range r.add {
		m.sourceHost(c, t, s)
	}
	if t.remotes && len(r.replace) == 0 {
		m.remoteHosts(c, name)
	}
	m.subHosts(c, name, t, sub, &r, v, rest)
}

// optionHosts judges the hosts the options name, and asks for those
// that move the tool where it is not read here.
func (m *cmdCall) optionHosts(c *verdictAcc, name string, r *netRead) {
	if r.unknown != "" {
		// The rest is judged still: a host it names may be denied.
		m.unknownHost(c, "the hosts "+name+" connects to with "+r.unknown+", which are not read here")
	}
	for _, u := range r.urls {
		m.literalURLHost(c, u[schemeStart(u):], false)
	}
	for _, h := range r.hosts {
		m.hostList(c, h)
	}
	for _, s := range r.conn {
		m.connInfoHosts(c, s)
	}
}

// hostList judges a libpq list of hosts, host[,host...]; a directory
// holds a local socket.
func (m *cmdCall) hostList(c *verdictAcc, list string) {
	for _, one := range strings.Split(list, ",") {
		if !strings.HasPrefix(one, "/") {
			m.hostOperand(c, one)
		}
	}
}

// usesRegistry reports whether the subcommand of kind k reaches the
// tool's registry: one the options name, or the default one unless an
// option turns it off; subcommands whose operands name the hosts reach
// none.
func (r *netRead) usesRegistry(t *netTool, k netSubKind) bool {
	switch k {
	case subURLs, subHTTPie, subSecondURL, subImage, subConfig, subHosts, subRepo:
		return false
	}
	return len(r.replace) > 0 || !r.noIndex && len(t.registry) > 0
}

// subHosts judges the operands rest of the subcommand sub, as its kind
// says they name hosts.
func (m *cmdCall) subHosts(c *verdictAcc, name string, t *netTool, sub netSub, r *netRead, v *argv, rest []int) {
	switch sub.kind {
	case subReg:
		m.pkgSpecHosts(c, t, v, rest)
	case subPkgs:
		m.pkgsHosts(c, t, r, v, rest)
	case subProject:
		m.unknownHost(c, orText(sub.why, "the hosts "+t.manifestName()+" name")+", which are not read here")
	case subRun:
		m.pkgSpecHosts(c, t, v, rest[:1])
	case subURLs:
		for _, i := range rest {
			m.urlHost(c, v, i, true)
		}
	case subHTTPie:
		m.httpieHost(c, v, rest)
	case subSecondURL:
		if len(rest) > 1 {
			m.urlHost(c, v, rest[1], false)
		}
	case subImage:
		if len(rest) > 0 {
			m.imageHost(c, name, t.shortImages, v, rest[0])
		}
	case subConfig:
		m.eachLiteral(c, v, rest, m.configOperandHost)
	case subHosts:
		m.eachLiteral(c, v, rest, m.hostsOperandHost)
	case subDB:
		m.eachLiteral(c, v, rest, m.dbOperandHost)
	case subFirstHost:
		m.eachLiteral(c, v, rest[:min(len(rest), 1)], m.firstHostOperand)
	case subRepo:
		m.repoHosts(c, sub, v, rest)
	case subRuntime:
		if len(r.replace) == 0 && len(t.registry) == 0 {
			m.unknownHost(c, sub.why+", only known at run time")
		}
	}
}

// pkgSpecHosts judges the package operands ops.
func (m *cmdCall) pkgSpecHosts(c *verdictAcc, t *netTool, v *argv, ops []int) {
	for _, i := range ops {
		m.specHost(c, t, v, i)
	}
}

// pkgsHosts judges the operands of a subPkgs subcommand: without one, it
// installs what the project's manifest names.
func (m *cmdCall) pkgsHosts(c *verdictAcc, t *netTool, r *netRead, v *argv, rest []int) {
	if len(rest) == 0 {
		m.unknownHost(c, "the hosts "+t.manifestName()+" name, which are not read here")
	} else if t.spec == specNpm && !r.global {
		m.npmManifestHosts(c)
	}
	m.pkgSpecHosts(c, t, v, rest)
}

// eachLiteral gives judge each literal operand of ops, and judges the
// others as hosts only known at run time.
func (m *cmdCall) eachLiteral(c *verdictAcc, v *argv, ops []int, judge func(c *verdictAcc, w string)) {
	for _, i := range ops {
		if !v.literal(i) {
			m.unknownHost(c, "a host only known at run time ("+v.vals[i]+")")
			continue
		}
		judge(c, v.vals[i])
	}
}

// configOperandHost judges an operand of a subConfig subcommand: a URL
// is where later commands connect.
func (m *cmdCall) configOperandHost(c *verdictAcc, w string) {
	if strings.Contains(w, "://") {
		m.literalURLHost(c, w[schemeStart(w):], false)
	}
}

// hostsOperandHost judges an operand of a subHosts tool: a host, dig's
// @server; DNS types and +options are not hosts.
func (m *cmdCall) hostsOperandHost(c *verdictAcc, w string) {
	if !strings.HasPrefix(w, "+") && !dnsTypes()[strings.ToUpper(w)] {
		m.hostOperand(c, strings.TrimPrefix(w, "@"))
	}
}

// dbOperandHost judges an operand of a database client: a URL, or a
// connection string's host=.
func (m *cmdCall) dbOperandHost(c *verdictAcc, w string) {
	switch {
	case strings.Contains(w, "://"):
		m.literalURLHost(c, w[schemeStart(w):], false)
	case strings.Contains(w, "="):
		m.connInfoHosts(c, w) // psql reads an operand with "=" as a connection string
	}
}

// firstHostOperand judges the first operand of a subFirstHost tool:
// //host/share (smbclient), a URL, or [user@]host[:port].
func (m *cmdCall) firstHostOperand(c *verdictAcc, w string) {
	switch {
	case strings.HasPrefix(w, "//") || strings.HasPrefix(w, "\\\\"):
		h, _, _ := strings.Cut(strings.TrimLeft(w, "/\\"), "/")
		h, _, _ = strings.Cut(h, "\\")
		m.hostOperand(c, h)
	case strings.Contains(w, "://"):
		m.literalURLHost(c, w, false)
	default:
		if at := strings.LastIndexByte(w, '@'); at >= 0 {
			w = w[at+1:]
		}
		if h, ok := scpHost(w); ok {
			m.judgeHost(c, h)
		} else {
			m.hostOperand(c, w)
		}
	}
}

// repoHosts judges the operands of a subRepo subcommand: the URLs among
// them; without one, the repository the working copy names (sub.why).
func (m *cmdCall) repoHosts(c *verdictAcc, sub netSub, v *argv, rest []int) {
	found := false
	for _, i := range rest {
		w := v.vals[i]
		if !v.literal(i) {
			m.unknownHost(c, "a host only known at run time ("+w+")")
			found = true
			continue
		}
		h, isURL, ok := gitURLHost(w)
		found = found || isURL
		switch {
		case !isURL:
		case ok:
			m.judgeHost(c, h)
		case h != "local":
			m.unknownHost(c, "the host of "+w+", which is not read here")
		}
	}
	if !found && sub.why != "" {
		m.unknownHost(c, sub.why+", only known at run time")
	}
}

func (t *netTool) manifestName() string {
	if t.manifest == "" {
		return "the project's manifest and lockfile"
	}
	return t.manifest
}

// printsOnly reports a command line that prints the tool's version or
// help, and reaches no host.
func printsOnly(v *argv) bool {
	return v.len() == 2 && v.literal(1) && hostVersionWords()[v.vals[1]]
}

// sub finds the subcommand among the operands ops: two words ("pip
// install") before one; rest are the operands after it.
func (t *netTool) sub(v *argv, ops []int) (netSub, []int, bool) {
	if s, ok := t.subs["*"]; ok {
		if len(ops) == 0 || v.literal(ops[0]) && t.local[v.vals[ops[0]]] {
			return netSub{}, nil, false
		}
		if len(ops) > 0 && !v.literal(ops[0]) && s.kind == subRuntime {
			return s, nil, true
		}
		return s, ops, true
	}
	for len(ops) > 0 && v.literal(ops[0]) {
		if n, ok := t.lead[v.vals[ops[0]]]; ok && len(ops) > n {
			ops = ops[1+n:]
		} else if strings.HasPrefix(v.vals[ops[0]], "+") {
			ops = ops[1:] // cargo +nightly build: rustup's toolchain
		} else {
			break
		}
	}
	if len(ops) == 0 {
		s, ok := t.subs[""]
		return s, nil, ok
	}
	if !v.literal(ops[0]) {
		return netSub{}, nil, false // asked as a word only known at run time
	}
	if len(ops) > 1 && v.literal(ops[1]) {
		if s, ok := t.subs[v.vals[ops[0]]+" "+v.vals[ops[1]]]; ok {
			return s, ops[2:], true
		}
	}
	s, ok := t.subs[v.vals[ops[0]]]
	if !ok && t.abbrevSubs && v.vals[ops[0]] != "" {
		s, ok = t.subPrefixed(v.vals[ops[0]])
	}
	return s, ops[1:], ok
}

// subPrefixed is the first, in order, of t.subs whose name begins with
// word, for a tool that reads a unique prefix as the command (abbrevSubs).
func (t *netTool) subPrefixed(word string) (netSub, bool) {
	names := slices.Sorted(maps.Keys(t.subs))
	for _, n := range names {
		if strings.HasPrefix(n, word) {
			return t.subs[n], true
		}
	}
	return netSub{}, false
}

// registryHosts judges the registry: the one options or the environment
// name, or the default one unless a configuration file may name another.
func (m *cmdCall) registryHosts(c *verdictAcc, name string, t *netTool, r *netRead) {
	if len(r.replace) > 0 {
		for _, s := range r.replace {
			m.registryWord(c, s)
		}
		return
	}
	for _, h := range t.registry {
		m.judgeHost(c, h)
	}
	if f := m.configFile(t.config, r.dir); f != "" {
		m.unknownHost(c, "the registry "+f+" may name for "+name+", which is not read here")
	}
}

// registryWord judges a registry given as a URL or as a host.
func (m *cmdCall) registryWord(c *verdictAcc, s string) {
	if strings.Contains(s, "://") {
		m.literalURLHost(c, s, false)
		return
	}
	m.literalURLHost(c, s, true)
}

// sourceHost judges a further source: a URL, a local path (which reaches
// no host of its own), or a name (a conda channel, which is on the
// tool's registry; anything else is not read here).
func (m *cmdCall) sourceHost(c *verdictAcc, t *netTool, s string) {
	switch {
	case strings.Contains(s, "://"):
		m.literalURLHost(c, s[schemeStart(s):], false)
	case strings.HasPrefix(s, "/") || strings.HasPrefix(s, ".") || strings.HasPrefix(s, "~"):
	case t.spec == specName && len(t.registry) > 0 && !strings.ContainsAny(s, ":@"):
		m.judgeHost(c, t.registry[0])
	default:
		m.unknownHost(c, "the host of "+s+", which is not read here")
	}
}

// configFile returns the first of files (see netTool.config) found in the
// working directory, or the project directory dir the options name
// (relative to it), or above it; or "".
func (m *cmdCall) configFile(files []string, dir string) string {
	if len(files) == 0 || m.dir == "" || !filepath.IsAbs(m.dir) {
		return ""
	}
	if dir != "" {
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(m.dir, dir)
		}
		return configFileFrom(files, filepath.Clean(dir))
	}
	// The nearest directory holding each unmarked file, looked up once
	// (a fact of the cache, computed again when it cannot be kept).
	var near [8]struct {
		dir  string
		done bool
	}
	nearest := func(i int, name string) string {
		if i >= len(near) {
			return m.ws.nearest(m.dir, name)
		}
		if !near[i].done {
			near[i].dir, near[i].done = m.ws.nearest(m.dir, name), true
		}
		return near[i].dir
	}
	// Every directory below d lacks name (else the walk ended there), so
	// d holds one where the nearest is d.
	return walkConfig(files, filepath.Clean(m.dir), func(i int, d, name string) bool { return nearest(i, name) == d })
}

// configFileFrom returns the first of files found in dir or above it,
// looked up on the disk (the cache's facts are the working directory's).
func configFileFrom(files []string, dir string) string {
	return walkConfig(files, dir, func(_ int, d, name string) bool {
		_, err := readSmall(filepath.Join(d, name), 1<<20)
		return err == nil || err == errTooLarge
	})
}

// walkConfig returns the first of files (see netTool.config) in dir or
// above it: an unmarked one where holds says d holds the i-th, a marked
// one where it holds its text (or is too large to read).
func walkConfig(files []string, dir string, holds func(i int, d, name string) bool) string {
	for d, n := dir, 0; n < maxUp; n++ {
		for i, f := range files {
			name, text, marked := strings.Cut(f, ":")
			p := filepath.Join(d, name)
			if !marked {
				if holds(i, d, name) {
					return p
				}
				continue
			}
			if b, err := readSmall(p, 1<<20); err == errTooLarge || err == nil && strings.Contains(b, text) {
				return p
			}
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	return ""
}

// remoteHosts judges the hosts of the repository's remotes, from which
// gh and glab pick the host they talk to.
func (m *cmdCall) remoteHosts(c *verdictAcc, name string) {
	cfg, why := m.gitConfig()
	if why != "" {
		return // no repository: the tool's default host
	}
	for n, urls := range cfg.urls {
		for _, u := range urls {
			if h, isURL, ok := gitURLHost(u); isURL && ok {
				m.judgeHost(c, h)
			} else if isURL && h != "local" {
				m.unknownHost(c, "the host of the remote "+n+" ("+u+") "+name+" may talk to, which is not read here")
			}
		}
	}
}

// specHost judges one package operand.
func (m *cmdCall) specHost(c *verdictAcc, t *netTool, v *argv, i int) {
	w := v.vals[i]
	if !v.literal(i) {
		m.unknownHost(c, "a host only known at run time ("+w+")")
		return
	}
	local := strings.HasPrefix(w, ".") || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~")
	switch {
	case t.spec == specNpm:
		m.npmSpecHost(c, w)
	case strings.Contains(w, "://"):
		m.literalURLHost(c, w[schemeStart(w):], false)
	case m.prefixHost(c, t.spec, w):
	case t.spec == specDeno:
		m.unknownHost(c, "the modules "+w+" imports, which are not read here")
	case t.spec == specImage:
		m.imageHost(c, "", false, v, i)
	case t.spec == specURL:
		m.urlHost(c, v, i, true)
	case local || strings.HasPrefix(w, "file:"):
		m.unknownHost(c, "the hosts the package "+w+" names for its dependencies, which are not read here")
	}
	// Otherwise a name from the registry, judged already.
}

// prefixHost judges the host a package operand w of the kind k names by
// its prefix (specPrefixes), and reports whether one did.
func (m *cmdCall) prefixHost(c *verdictAcc, k specKind, w string) bool {
	for _, p := range specPrefixes()[k] {
		if strings.HasPrefix(w, p.prefix) {
			m.judgeHost(c, p.host)
			return true
		}
	}
	return false
}

// npmSpecHost judges an npm package spec (npm help package-spec).
func (m *cmdCall) npmSpecHost(c *verdictAcc, w string) {
	local := strings.HasPrefix(w, ".") || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~")
	switch {
	case strings.Contains(w, "://"):
		m.literalURLHost(c, w[schemeStart(w):], false)
	case m.prefixHost(c, specNpm, w):
	case !strings.HasPrefix(w, "@") && strings.Count(w, "/") == 1 && !local && !strings.Contains(w, ":"):
		m.judgeHost(c, "github.com") // OWNER/REPO
	case strings.HasPrefix(w, "file:") || local:
		m.unknownHost(c, "the hosts the package "+w+" names for its dependencies, which are not read here")
	default:
		if h, ok := scpHost(strings.TrimPrefix(w, "git+ssh:")); ok && strings.Contains(w, "@") && !strings.HasPrefix(w, "@") {
			m.judgeHost(c, h)
		}
		// A name from the registry, judged already.
	}
}

// httpieHost judges httpie's (and xh's) URL: its first operand, after an
// optional method; ":3000/x" is localhost.
func (m *cmdCall) httpieHost(c *verdictAcc, v *argv, ops []int) {
	if len(ops) == 0 {
		return
	}
	i := ops[0]
	if w := v.vals[i]; v.literal(i) && len(ops) > 1 && w != "" && strings.Trim(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" {
		i = ops[1]
	}
	if w := v.vals[i]; v.literal(i) && strings.HasPrefix(w, ":") {
		m.judgeHost(c, "localhost")
		return
	}
	m.urlHost(c, v, i, true)
}

// imageHost judges the registry of a container image reference:
// [HOST[:PORT]/]PATH[:TAG|@DIGEST], where the first element is a host
// when it holds a dot or a colon or is localhost; without one the image
// is on Docker Hub, or, for a tool with shortImages (podman), on the
// registries its registries.conf searches.
func (m *cmdCall) imageHost(c *verdictAcc, tool string, shortImages bool, v *argv, i int) {
	w := v.vals[i]
	if !v.literal(i) {
		m.unknownHost(c, "a host only known at run time ("+w+")")
		return
	}
	if j := strings.Index(w, "://"); j >= 0 {
		w = w[j+3:] // docker://
	} else if t, _, ok := strings.Cut(w, ":"); ok && (imageLocal()[t] || strings.HasSuffix(t, "-archive")) {
		return // a local archive or directory
	}
	first, _, hasPath := strings.Cut(w, "/")
	isHost := hasPath && (strings.ContainsAny(first, ".:") || first == "localhost")
	hub := isHost && slices.ContainsFunc(dockerHubNames, func(n string) bool { return strings.EqualFold(first, n) })
	if isHost && !hub {
		if h, ok := authorityHost(first); ok {
			m.judgeHost(c, h)
		} else {
			m.unknownHost(c, "the registry of "+w+", which is not read here")
		}
		return
	}
	if shortImages && !hub {
		m.unknownHost(c, "the registries "+tool+" searches for the short name "+w+", which registries.conf names")
		return
	}
	for _, h := range dockerHubHosts {
		m.judgeHost(c, h)
	}
}

// hostOperand judges a word that is a host, host:port, [v6]:port or a
// bare IPv6 address; anything else (a range, a CIDR block) is not read
// here.
func (m *cmdCall) hostOperand(c *verdictAcc, w string) {
	if strings.Count(w, ":") > 1 && !strings.HasPrefix(w, "[") {
		if validHost(w, true) {
			m.judgeHost(c, w)
			return
		}
	} else if h, ok := authorityHost(w); ok {
		m.judgeHost(c, h)
		return
	}
	m.unknownHost(c, "the hosts "+w+" names, which are not read here")
}

// connInfoHosts judges the host= and hostaddr= of a libpq connection
// string ("host=db.example dbname=x", spaces allowed around "="); a
// quoted value, or a service (whose hosts pg_service.conf names), is not
// read here.
func (m *cmdCall) connInfoHosts(c *verdictAcc, s string) {
	if strings.ContainsAny(s, "'\\") {
		m.unknownHost(c, "the host of "+s+", which is not read here")
		return
	}
	for _, f := range strings.Fields(connInfoEq.ReplaceAllString(s, "=")) {
		k, val, ok := strings.Cut(f, "=")
		switch {
		case !ok:
		case k == "service" || k == "servicefile":
			m.unknownHost(c, "the hosts the service of "+s+" names, which are not read here")
		case k == "host" || k == "hostaddr":
			for _, h := range strings.Split(val, ",") {
				if !strings.HasPrefix(h, "/") {
					m.hostOperand(c, h)
				}
			}
		}
	}
}

// connInfoEq is the "=" of a connection string's keyword = value, with
// the spaces libpq allows around it.
var connInfoEq = regexp.MustCompile(`\s*=\s*`)
