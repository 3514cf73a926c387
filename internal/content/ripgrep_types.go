package content

import (
	"maps"
	"slices"
)

// ripgrepTypes are the globs of ripgrep's default file types (rg
// --type-list, crates/ignore/src/default_types.rs) that name dot files,
// whole file names or wide extensions: the types whose selection a secret
// pattern could meet. A type given to Grep's "type" field is judged as
// these filters, as ripgrep reads it.
var ripgrepTypes = map[string][]string{
	"sh": {".env", ".login", ".logout", ".profile", "profile", ".bash_login", "bash_login",
		".bash_logout", "bash_logout", ".bash_profile", "bash_profile", ".bashrc", "bashrc", "*.bashrc",
		".cshrc", "*.cshrc", ".kshrc", "*.kshrc", ".tcshrc", ".zshenv", "zshenv", ".zlogin", "zlogin",
		".zlogout", "zlogout", ".zprofile", "zprofile", ".zshrc", "zshrc",
		"*.bash", "*.csh", "*.env", "*.ksh", "*.sh", "*.tcsh", "*.zsh"},
	"zsh": {".zshenv", "zshenv", ".zlogin", "zlogin", ".zlogout", "zlogout", ".zprofile", "zprofile",
		".zshrc", "zshrc", "*.zsh"},
	"tf": {"*.tf", "*.tf.json", "*.tfvars", "*.tfvars.json", "*.terraformrc", "terraform.rc", "*.tfrc",
		"*.terraform.lock.hcl"},
	"config":        {"*.cfg", "*.conf", "*.config", "*.ini"},
	"json":          {"*.json", "composer.lock", "*.sarif"},
	"yaml":          {"*.yaml", "*.yml"},
	"toml":          {"*.toml", "Cargo.lock"},
	"xml":           {"*.xml", "*.xml.dist", "*.dtd", "*.xsl", "*.xslt", "*.xsd", "*.xjb", "*.rng", "*.sch", "*.xhtml"},
	"java":          {"*.java", "*.jsp", "*.jspx", "*.properties"},
	"gradle":        {"*.gradle", "*.gradle.kts", "gradle.properties", "gradle-wrapper.*", "gradlew", "gradlew.bat"},
	"ruby":          {"config.ru", "Gemfile", ".irbrc", "Rakefile", "*.gemspec", "*.rb", "*.rbw", "*.rake"},
	"vim":           {"*.vim", ".vimrc", ".gvimrc", "vimrc", "gvimrc", "_vimrc", "_gvimrc"},
	"vimscript":     {"*.vim", ".vimrc", ".gvimrc", "vimrc", "gvimrc", "_vimrc", "_gvimrc"},
	"bazel":         {"*.bazel", "*.bzl", "*.BUILD", "*.bazelrc", "BUILD", "MODULE.bazel", "WORKSPACE", "WORKSPACE.bazel", "WORKSPACE.bzlmod"},
	"make":          {"[Gg][Nn][Uu]makefile", "[Mm]akefile", "[Gg][Nn][Uu]makefile.am", "[Mm]akefile.am", "[Gg][Nn][Uu]makefile.in", "[Mm]akefile.in", "Makefile.*", "*.mk", "*.mak"},
	"man":           {"*.[0-9lnpx]", "*.[0-9][cEFMmpSx]"},
	"kconfig":       {"Kconfig", "Kconfig.*"},
	"systemd":       {"*.automount", "*.conf", "*.device", "*.link", "*.mount", "*.path", "*.scope", "*.service", "*.slice", "*.socket", "*.swap", "*.target", "*.timer"},
	"docker":        {"*Dockerfile*"},
	"dockercompose": {"docker-compose.yml", "docker-compose.*.yml"},
	"lock":          {"*.lock", "package-lock.json"},
	"log":           {"*.log"},
	"txt":           {"*.txt"},
	"readme":        {"README*", "*README"},
}

// ripgrepTypeNames are the other default types of ripgrep: each selects
// files by extensions of source and document formats only.
var ripgrepTypeNames = [...]string{
	"ada", "agda", "aidl", "alire", "amake", "asciidoc", "asm", "asp", "ats", "avro", "awk", "bat", "batch",
	"bitbake", "boxlang", "brotli", "buildstream", "bzip2", "c", "cabal", "candid", "carp", "cbor", "ceylon",
	"cfml", "clojure", "cmake", "cmd", "cml", "coffeescript", "coq", "cpp", "creole", "crystal", "cs", "csharp",
	"cshtml", "csproj", "css", "csv", "cuda", "cython", "d", "dart", "devicetree", "dhall", "diff", "dita",
	"dts", "dvc", "ebuild", "edn", "elisp", "elixir", "elm", "erb", "erlang", "fennel", "fidl", "fish",
	"flatbuffers", "fortran", "fsharp", "fut", "gap", "gdscript", "gleam", "gn", "go", "gprbuild", "graphql",
	"groovy", "gzip", "h", "haml", "hare", "haskell", "hbs", "hs", "html", "hy", "idris", "janet", "jinja",
	"jl", "js", "jsonl", "julia", "jupyter", "k", "kotlin", "lean", "less", "license", "lilypond", "lisp",
	"llvm", "lua", "lz4", "lzma", "m4", "mako", "markdown", "md", "matlab", "meson", "minified", "mint", "mk",
	"ml", "motoko", "msbuild", "nim", "nix", "objc", "objcpp", "ocaml", "org", "pants", "pascal", "pdf",
	"perl", "php", "po", "pod", "postscript", "prolog", "protobuf", "ps", "puppet", "purs", "py", "python",
	"qmake", "qml", "qrc", "qui", "r", "racket", "raku", "rdoc", "reasonml", "red", "rescript", "robot", "rst",
	"rust", "sass", "scala", "scdoc", "seed7", "slim", "smarty", "sml", "solidity", "soy", "spark", "spec",
	"sql", "stylus", "sv", "svelte", "svg", "swift", "swig", "taskpaper", "tcl", "tex", "texinfo", "textile",
	"thrift", "ts", "typescript", "twig", "typoscript", "typst", "usd", "v", "vala", "vb", "vcl", "verilog",
	"vhdl", "vue", "webidl", "wgsl", "wiki", "xz", "yacc", "yang", "z", "zig", "zstd",
}

// ripgrepType returns the filters a ripgrep file type stands for, whether
// ripgrep defines the type by default, and whether the type is every type
// ("all").
func ripgrepType(name string) (globs []string, known bool) {
	if g, ok := ripgrepTypes[name]; ok {
		return g, true
	}
	if name == "all" {
		var all []string
		for _, k := range slices.Sorted(maps.Keys(ripgrepTypes)) {
			all = append(all, ripgrepTypes[k]...)
		}
		return all, true
	}
	for _, n := range ripgrepTypeNames {
		if n == name {
			return nil, true
		}
	}
	return nil, false
}
