package bashguard

// Default limits used when the corresponding [Policy] field is zero.
const (
	// DefaultMaxScriptBytes bounds the size of a script that is analysed.
	DefaultMaxScriptBytes = 64 << 10
	// DefaultMaxCommands bounds the number of simple commands analysed.
	DefaultMaxCommands = 1000
	// DefaultMaxDepth bounds how deeply literal "bash -c" and "eval" text
	// is parsed again.
	DefaultMaxDepth = 4
)

// Policy configures a [Guard]. Its zero value is usable: limits take their
// defaults and network commands are denied. The working directory and the
// [PathJudge] are given to each [Guard.Judge] call.
//
// A Policy is copied by [New]; changing it afterwards does not affect the
// Guard.
type Policy struct {
	// MaxScriptBytes bounds the script size; 0 means DefaultMaxScriptBytes.
	MaxScriptBytes int
	// MaxCommands bounds the number of simple commands; 0 means
	// DefaultMaxCommands.
	MaxCommands int
	// MaxDepth bounds nested parsing of literal shell code; 0 means
	// DefaultMaxDepth.
	MaxDepth int

	// AllowNetwork lets network commands (curl, ssh, /dev/tcp, ...) through
	// to an Ask instead of a Deny. It is the original design's
	// AGENT_BLOCK_NETWORK=false.
	AllowNetwork bool

	// Loopback says that every command the guard allows runs, with
	// Confined, in a network namespace of its own whose only interface
	// is its loopback (toolgate's "network": "loopback"): a connection to
	// 127.0.0.1, ::1 or localhost there reaches only what the same
	// command started. Only then is curl, wget or nc to the loopback
	// allowed (model_net_loopback.go); otherwise it is asked, since the host's
	// loopback holds its own services. The guard cannot tell the mode
	// from AllowNetwork, which only says network commands are asked
	// rather than denied: the same words reach the host's services
	// unconfined and the command's own namespace confined.
	Loopback bool

	// Home is the home directory used to expand "~" and "~/x" and to
	// recognise "rm -rf ~". Empty means unknown: a word that needs it is
	// never auto-allowed.
	Home string

	// LookupHome returns the home directory of the named user, for
	// "~user" words, as bash finds it in the user database. Nil means
	// reading /etc/passwd (never NSS, which may reach the network). A
	// user it cannot find leaves the word unknown: it is never
	// auto-allowed.
	LookupHome func(user string) (string, error)

	// CDPath is the CDPATH of the environment the script will run in,
	// where bash looks up the directory of a relative "cd DIR"; empty
	// means unset. The directory found there is the one the commands
	// after the cd are judged in.
	CDPath string

	// Environ holds values of the environment the script will run in,
	// for the variables that hold no secret and that bash takes from
	// the environment as they are ([EnvironNames]: PATH, SHELL, USER,
	// ...); other names are ignored, as are empty values. With a value
	// here, $NAME stands for it, as $HOME does for Home: "echo $PATH"
	// is judged as the words it prints, and a value that word
	// splitting or pathname expansion would change leaves an unquoted
	// $NAME unknown. Without one, $NAME is data only known at run time
	// (printed quoted, asked unquoted unless Confined).
	Environ map[string]string

	// Confined says that every command the guard allows runs confined by
	// the kernel, as runner.Shell confines it (toolgate check wraps what
	// it allows so): reads limited to the roots without their secret
	// paths, the system locations and the tool caches. Only then does the
	// guard leave to the kernel what only run time shows and the kernel
	// bounds: the output of a judged command substitution, unquoted, as
	// operands of a command that takes any words as data (echo, printf's
	// arguments): bash splits it and expands glob characters in it, which
	// lists names in directories the confinement lets the command read,
	// never a file's content. False, such a word is asked, since the
	// listing could reach any directory.
	Confined bool

	// GoVersion is the release of the go the script's PATH runs
	// ("go1.26.8"), and GoModCache the absolute directory of its module
	// cache (GOMODCACHE; GOPATH/pkg/mod by default). With both, a go
	// command in a module that asks for no newer toolchain and whose
	// go.sum the cache holds whole reaches no host (see model_go_cache.go);
	// otherwise, under domain rules, go's module proxy is judged.
	// GoVersion "local" stands for GOTOOLCHAIN=local (go never switches
	// to another toolchain), GoModCache "off" for GOPROXY=off (go
	// downloads no module).
	GoVersion, GoModCache string

	// GoEnv is where the go the script's PATH runs keeps what it
	// downloads and builds, as "go env GOMODCACHE GOCACHE GOPATH" prints
	// it in the script's environment. The guard uses it in two ways (see
	// model_go_modcache.go): $(go env NAME) of these three names stands for its
	// value, as $(pwd) stands for the working directory; and a read or
	// probe under ModCache that the path judge asks about only because
	// it is outside the roots is allowed, since go keeps downloaded
	// module source there read-only. A write there is judged as before.
	// Empty fields are unknown; a relative one is ignored.
	GoEnv GoEnv

	// SystemRoots are the directories where the system keeps what it
	// installs: a read or probe there that the path judge asks about only
	// because it is outside the roots is allowed when the file is one
	// every user may read and no other user may replace, and its name is
	// no credential's (see model_sys_read.go). Nil means /usr, /opt, /etc, /lib
	// and /lib64, and the files of /proc that describe the machine; an
	// empty, non-nil slice lifts no read. The file tools read the same
	// roots (runtime.Workspace.SystemRoots).
	SystemRoots []string

	// ExtraSafe names further commands that are auto-allowed with any
	// literal arguments (for example "make" in a trusted project). Names on
	// the dangerous or network lists are ignored here: they stay denied.
	ExtraSafe []string
}

// DefaultPolicy returns a fresh Policy with every limit set to its default
// and network access denied. Callers usually set Home on the result.
func DefaultPolicy() Policy {
	return Policy{
		MaxScriptBytes: DefaultMaxScriptBytes,
		MaxCommands:    DefaultMaxCommands,
		MaxDepth:       DefaultMaxDepth,
	}
}

func (p *Policy) fill() {
	if p.MaxScriptBytes <= 0 {
		p.MaxScriptBytes = DefaultMaxScriptBytes
	}
	if p.MaxCommands <= 0 {
		p.MaxCommands = DefaultMaxCommands
	}
	if p.MaxDepth <= 0 {
		p.MaxDepth = DefaultMaxDepth
	}
}

// GoEnv holds the values of "go env GOMODCACHE GOCACHE GOPATH" for the
// go a script runs: absolute directories, or empty when unknown. See
// [Policy].GoEnv.
type GoEnv struct {
	// ModCache is GOMODCACHE, where go keeps downloaded modules. The
	// host leaves it empty when the cache may hold private modules.
	ModCache string
	// Cache is GOCACHE, the build cache.
	Cache string
	// Path is GOPATH's first entry.
	Path string
}
