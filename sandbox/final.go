package sandbox

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/internal/gitfiles"
)

// The final file: what a path resolves to is inspected, not only named.
//
//   - A regular file with more than one hard link may be a second name of
//     any file on its file system. One that is a protected or secret file
//     found by identity (see identity.go) is judged as that file. Any
//     protected file may be read under any name; any other is Ask for
//     every write, and for a read unless it lies in a protected directory
//     (git links the objects of a local clone; a link there can only be
//     made by a write that asks) or in a
//     package manager's tree (node_modules, site-packages, dist-packages),
//     where pnpm and uv link every file from their stores and the secret
//     files found by identity were all recorded.
//   - A file whose name cannot say whether it is a credential is judged by
//     its first bytes (at most maxShape): a *.pem or *.key file holding
//     only certificates or public keys is not secret; a private-key block
//     in a certificate file (*.crt, *.cer, *.cert), or a Google
//     service-account key in a *.json file, is.
//   - A "config" file or a "hooks" directory beside a HEAD file and an
//     objects directory belongs to a git directory (a bare repository
//     nested in the roots, say): writing it is protected.

// maxShape bounds the bytes read to judge a file by its content.
const maxShape = 16 << 10

// finalAsk is an Ask for the final file, with its reason.
type finalAsk struct {
	secret bool // a secret (else protected, or a hard link)
	why    string
}

// inspect judges the final file r (st, ok and err are its lstat) for a
// read or a write once the names have found nothing; the result's ok is
// false when it is to be allowed.
func (s *Sandbox) inspect(r string, write bool, ids *identities, st fileStat, ok bool, err error) (finalAsk, bool) {
	if err != nil {
		return finalAsk{why: "cannot examine " + r + ": " + err.Error()}, true
	}
	if write {
		if why, ok := gitDirFile(r); ok {
			return finalAsk{why: why}, true
		}
	}
	if !ok || !st.isRegular() {
		return finalAsk{}, false
	}
	if a, known := ids.files[fileID{st.dev, st.ino}]; known && st.nlink <= 1 && (write || a.secret) && a.real != r {
		// One of the protected or secret files found by identity, reached
		// under another name: a link from the user's configuration into
		// the roots, or a bind mount of it.
		return finalAsk{secret: a.secret, why: "is " + a.loc + " (" + kindWord(a.secret) + ", matches " + strconv.Quote(a.pat) + "), reached under another name"}, true
	} else if known && a.real != r && !write && (s.keysMayHoldCredential(a.loc) || s.keysMayHoldCredential(a.real)) {
		return finalAsk{secret: true, why: "is " + a.loc + " reached under another name: " + credentialWhy}, true
	}
	if st.nlink > 1 {
		a, known := ids.files[fileID{st.dev, st.ino}]
		switch {
		case known && (write || a.secret):
			return finalAsk{secret: a.secret, why: "is a hard link of " + a.loc + " (" + kindWord(a.secret) + ", matches " + strconv.Quote(a.pat) + ")"}, true
		case known:
			// A protected file read under another name: known, and no
			// secret.
			return finalAsk{}, false
		}
		n := strconv.FormatUint(st.nlink, 10)
		if write {
			return finalAsk{why: "has " + n + " hard links: writing it writes every other name of the file, which may be a protected file"}, true
		}
		_, protected := s.protected.first(r)
		if !protected {
			_, protected = ids.byIdentity(r, true)
		}
		if !ids.complete || !inPackageTree(r) && !protected {
			return finalAsk{secret: true, why: "has " + n + " hard links: another name of the file may be a secret"}, true
		}
	}
	if why, ok := secretShape(r); ok {
		return finalAsk{secret: true, why: why}, true
	}
	return finalAsk{}, false
}

// credentialWhy says why another name of a repository's config is read
// as a secret.
const credentialWhy = "a git config, whose keys may hold a credential (a remote's URL with a token, http.extraHeader), read under a name that says nothing of it"

// keysMayHoldCredential reports whether the protected file r is a git
// config, whose keys may hold a credential: a repository's (config or
// config.worktree in a directory named .git or NAME.git, or a bare
// repository's, beside HEAD and objects) or the user's own
// (gitfiles.UserConfigs: a url.insteadOf with a token). Read under its
// own name, a repository's is read for a credential by the path judge
// (bashguard's Guard.ConfigCredential), and the user's is outside the
// roots; reached under another name (a hard link, a bind mount), either
// is asked for as a secret is.
func (s *Sandbox) keysMayHoldCredential(r string) bool {
	if gitfiles.IsConfig(r) || slices.Contains(gitfiles.UserConfigs(s.home), r) {
		return true
	}
	_, bare := gitDirFile(r)
	return bare
}

func kindWord(secret bool) string {
	if secret {
		return "secret"
	}
	return "protected"
}

// inPackageTree reports whether r lies in a package manager's tree.
func inPackageTree(r string) bool {
	for _, d := range [...]string{"/node_modules/", "/site-packages/", "/dist-packages/"} {
		if strings.Contains(r, d) {
			return true
		}
	}
	return false
}

// shapeExts are the extensions of the files judged by their content, and
// whether a private key in them is looked for (else a service-account
// key).
var shapeExts = map[string]bool{".pem": true, ".key": true, ".crt": true, ".cer": true, ".cert": true, ".json": false}

// secretShape reports whether the first bytes of r show a credential.
func secretShape(r string) (string, bool) {
	i := strings.LastIndexByte(r, '.')
	if i < 0 || strings.IndexByte(r[i:], '/') >= 0 {
		return "", false
	}
	key, ok := shapeExts[strings.ToLower(r[i:])]
	if !ok {
		return "", false
	}
	b, ok := readHeadQuiet(r)
	if !ok {
		return "", false
	}
	if key {
		if bytes.Contains(b, []byte("PRIVATE KEY")) {
			return "holds a private key", true
		}
		return "", false
	}
	if bytes.Contains(b, []byte(`"service_account"`)) && bytes.Contains(b, []byte(`"private_key"`)) {
		return "is a service-account key (\"type\": \"service_account\" with a \"private_key\")", true
	}
	return "", false
}

// readHeadQuiet reads the first maxShape bytes of r.
func readHeadQuiet(r string) ([]byte, bool) {
	f, err := openNoBlock(r)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	b := make([]byte, maxShape)
	n, _ := f.Read(b)
	return b[:n], n > 0
}

// certOnly reports whether a *.pem or *.key file shows only certificates,
// public keys or certificate requests in its first bytes: the one case in
// which such a name is not a secret.
func certOnly(r string) bool {
	b, ok := readHeadQuiet(r)
	if !ok || bytes.Contains(b, []byte("PRIVATE KEY")) || bytes.Contains(b, []byte("ENCRYPTED")) {
		return false
	}
	rest := b
	seen := false
	for {
		i := bytes.Index(rest, []byte("-----BEGIN "))
		if i < 0 {
			break
		}
		rest = rest[i+len("-----BEGIN "):]
		j := bytes.Index(rest, []byte("-----"))
		if j < 0 {
			return false
		}
		switch string(rest[:j]) {
		case "CERTIFICATE", "TRUSTED CERTIFICATE", "X509 CRL", "CERTIFICATE REQUEST", "NEW CERTIFICATE REQUEST", "PUBLIC KEY", "RSA PUBLIC KEY", "DH PARAMETERS", "EC PARAMETERS":
			seen = true
		default:
			return false
		}
	}
	return seen
}

// gitDirFile reports whether r is the config file, or lies in the hooks
// directory, of a git directory (one holding HEAD and objects/).
func gitDirFile(r string) (string, bool) {
	dir, base := splitLast(r)
	switch {
	case base == "config":
	case strings.HasSuffix(dir, "/hooks"):
		dir, _ = splitLast(dir)
	default:
		return "", false
	}
	if st, ok, _ := statPath(dir+"/HEAD", false); !ok || !st.isRegular() {
		return "", false
	}
	if st, ok, _ := statPath(dir+"/objects", false); !ok || !st.isDir() {
		return "", false
	}
	return "belongs to the git directory " + dir + " (hooks and config run code)", true
}

func splitLast(p string) (dir, base string) {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/", p[i+1:]
	}
	return p[:i], p[i+1:]
}
