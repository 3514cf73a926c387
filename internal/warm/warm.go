// Package warm is the wire between toolgate-check, the small hook client,
// and the warm "toolgate check" process that answers for it.
//
// A hook call that starts the whole toolgate binary pays for the start of
// a large program before it judges anything. toolgate-check is a small
// program that hands the call (its arguments, standard input, environment
// and working directory) over a UNIX socket to a toolgate process that is
// already running, with exactly that environment and working directory,
// and prints what it answers. Whatever goes wrong, the client runs the
// whole binary instead: the warm process is a cache of a process start,
// never a second source of decisions.
//
// The package is imported by the client, so it imports nothing but
// errors and syscall, which a hello-world's runtime holds already, and
// internal/stattime, which imports syscall alone.
package warm

import (
	"errors"
	"syscall"

	"github.com/toolgate/toolgate/internal/stattime"
)

// Limits of one request and one answer, so that neither side reads an
// unbounded message.
const (
	// MaxInput is the most standard input a request carries: one byte
	// more than toolgate check reads, so that a larger event is refused
	// there as it is when read from the process's own input.
	MaxInput = 16<<20 + 1
	// maxField is the most one argument, variable or path may hold.
	maxField = 1 << 20
	// maxFields is the most arguments or environment variables.
	maxFields = 1 << 14
	// maxOutput is the most an answer's output streams may hold.
	maxOutput = 64 << 20
	// MaxServers is the most warm processes a user's socket directory
	// holds: a host whose hook environment changes on every call would
	// otherwise start one for each.
	MaxServers = 8
)

// magic opens every request and answer: the wire's name and version.
const magic = "TGW\x01"

// errMessage is the error of a message that is not this wire's.
var errMessage = errors.New("warm: malformed message")

// FileID names a file by its device, inode, size and change times: what
// the client and the server compare to agree that they mean the same
// binary and the same working directory.
type FileID struct {
	Dev, Ino, Size, Mtime, Ctime uint64
}

// IDOf returns the FileID of the stat result st.
func IDOf(st *syscall.Stat_t) FileID {
	mtime, ctime := stattime.Times(st)
	return FileID{
		Dev: uint64(st.Dev), Ino: st.Ino, Size: uint64(st.Size),
		Mtime: uint64(mtime.Sec)*1e9 + uint64(mtime.Nsec),
		Ctime: uint64(ctime.Sec)*1e9 + uint64(ctime.Nsec),
	}
}

// Stat returns the FileID of path, following links.
func Stat(path string) (FileID, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return FileID{}, err
	}
	return IDOf(&st), nil
}

// DirStat returns the FileID of the directory path by its device and
// inode only: a directory's times change with every file made in it,
// and it is still the same directory.
func DirStat(path string) (FileID, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return FileID{}, err
	}
	return FileID{Dev: uint64(st.Dev), Ino: st.Ino}, nil
}

// Request is one hook call handed to a warm process.
type Request struct {
	// Bin is the toolgate binary the client would run, and BinID its
	// identity: the server answers only when it runs that very file.
	Bin   string
	BinID FileID
	// Dir is the client's working directory and DirID its identity
	// (DirStat).
	Dir   string
	DirID FileID
	// Env is the client's whole environment, in its order.
	Env []string
	// Args are the arguments after "check".
	Args []string
	// Input is the call's standard input, at most MaxInput bytes.
	Input []byte
}

// Answer is what the warm process answers: the two output streams and
// the exit status of the check.
type Answer struct {
	Code           int
	Stdout, Stderr []byte
}

// Key names the warm process that may answer r: one for each binary,
// working directory and environment. It is a hash for choosing a socket,
// not a proof; the server compares every field itself.
func Key(r *Request) string {
	h := uint64(14695981039346656037)
	mix := func(s string) {
		for i := 0; i < len(s); i++ {
			h ^= uint64(s[i])
			h *= 1099511628211
		}
		h ^= 0xff // a separator no string holds after the fold
		h *= 1099511628211
	}
	mix(r.Bin)
	mix(string(appendID(nil, r.BinID)))
	mix(r.Dir)
	mix(string(appendID(nil, r.DirID)))
	for _, kv := range r.Env {
		mix(kv)
	}
	const hex = "0123456789abcdef"
	var b [16]byte
	for i := range b {
		b[i] = hex[h>>(60-4*uint(i))&0xf]
	}
	return string(b[:])
}

// Dir returns the directory of the user's warm sockets for the
// environment getenv reads: $XDG_RUNTIME_DIR/toolgate-warm (the mount
// namespace of a confined command covers the runtime directory), else
// the warm folder of toolgate's state directory, $XDG_STATE_HOME/toolgate
// or ~/.local/state/toolgate (outside every location a confined command
// may write). It returns "" when no absolute directory is set.
func Dir(getenv func(string) string) string {
	abs := func(d string) bool { return len(d) > 0 && d[0] == '/' }
	if d := getenv("XDG_RUNTIME_DIR"); abs(d) {
		return d + "/toolgate-warm"
	}
	if d := getenv("XDG_STATE_HOME"); abs(d) {
		return d + "/toolgate/warm"
	}
	if h := getenv("HOME"); abs(h) {
		return h + "/.local/state/toolgate/warm"
	}
	return ""
}

// Private reports whether dir is a directory (not a link) of this user's
// that nobody else may enter or write: the only place a socket is looked
// for, or made.
func Private(dir string) bool {
	var st syscall.Stat_t
	if err := syscall.Lstat(dir, &st); err != nil {
		return false
	}
	return st.Mode&syscall.S_IFMT == syscall.S_IFDIR && st.Uid == uint32(syscall.Geteuid()) && st.Mode&0o077 == 0
}

// Socket returns the path of the socket for key in dir, and false when
// the path is too long for a socket address.
func Socket(dir, key string) (string, bool) {
	p := dir + "/" + key + ".sock"
	return p, len(p) < 108
}

// AppendRequest appends the encoding of r to b.
func AppendRequest(b []byte, r *Request) []byte {
	b = append(b, magic...)
	b = appendString(b, r.Bin)
	b = appendID(b, r.BinID)
	b = appendString(b, r.Dir)
	b = appendID(b, r.DirID)
	b = appendStrings(b, r.Env)
	b = appendStrings(b, r.Args)
	return appendString(b, string(r.Input))
}

// AppendAnswer appends the encoding of a to b.
func AppendAnswer(b []byte, a *Answer) []byte {
	b = append(b, magic...)
	b = appendUint(b, uint64(uint32(int32(a.Code))))
	b = appendString(b, string(a.Stdout))
	return appendString(b, string(a.Stderr))
}

// ReadRequest reads one request from r, within the limits.
func ReadRequest(r Reader) (*Request, error) {
	d := decoder{r: r}
	d.magic()
	q := &Request{}
	q.Bin = d.str(maxField)
	q.BinID = d.id()
	q.Dir = d.str(maxField)
	q.DirID = d.id()
	q.Env = d.strs()
	q.Args = d.strs()
	q.Input = []byte(d.str(MaxInput))
	if d.err != nil {
		return nil, d.err
	}
	return q, nil
}

// ReadAnswer reads one answer from r, within the limits.
func ReadAnswer(r Reader) (*Answer, error) {
	d := decoder{r: r}
	d.magic()
	a := &Answer{Code: int(int32(uint32(d.uint())))}
	a.Stdout = []byte(d.str(maxOutput))
	a.Stderr = []byte(d.str(maxOutput))
	if d.err != nil {
		return nil, d.err
	}
	return a, nil
}

// Reader is the one method of a stream the decoder needs (os.File,
// net.Conn and bytes.Reader have it).
type Reader interface {
	Read(p []byte) (int, error)
}

// appendUint appends v as eight little-endian bytes.
func appendUint(b []byte, v uint64) []byte {
	for i := range 8 {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}

// appendString appends s with its length before it.
func appendString(b []byte, s string) []byte {
	return append(appendUint(b, uint64(len(s))), s...)
}

// appendStrings appends the count of ss and each of them.
func appendStrings(b []byte, ss []string) []byte {
	b = appendUint(b, uint64(len(ss)))
	for _, s := range ss {
		b = appendString(b, s)
	}
	return b
}

// appendID appends the fields of id.
func appendID(b []byte, id FileID) []byte {
	for _, v := range [...]uint64{id.Dev, id.Ino, id.Size, id.Mtime, id.Ctime} {
		b = appendUint(b, v)
	}
	return b
}

// decoder reads the wire's fields from r through a buffer (a field is a
// read of its own otherwise), keeping the first error; after one, every
// field reads as empty.
type decoder struct {
	r    Reader
	buf  []byte
	next int
	err  error
}

// full reads exactly len(p) bytes.
func (d *decoder) full(p []byte) {
	for n := 0; n < len(p) && d.err == nil; {
		if d.next == len(d.buf) {
			if d.buf == nil {
				d.buf = make([]byte, 0, 64<<10)
			}
			m, err := d.r.Read(d.buf[:cap(d.buf)])
			d.buf, d.next = d.buf[:max(m, 0)], 0
			if m <= 0 {
				if err == nil {
					err = errMessage
				}
				d.err = err
				return
			}
		}
		c := copy(p[n:], d.buf[d.next:])
		n += c
		d.next += c
	}
}

// magic reads the opening bytes and checks them.
func (d *decoder) magic() {
	var m [len(magic)]byte
	d.full(m[:])
	if d.err == nil && string(m[:]) != magic {
		d.err = errMessage
	}
}

// uint reads one eight-byte number.
func (d *decoder) uint() uint64 {
	var p [8]byte
	d.full(p[:])
	var v uint64
	for i := range 8 {
		v |= uint64(p[i]) << (8 * i)
	}
	return v
}

// str reads one string of at most limit bytes.
func (d *decoder) str(limit int) string {
	n := d.uint()
	if d.err != nil {
		return ""
	}
	if n > uint64(limit) {
		d.err = errMessage
		return ""
	}
	p := make([]byte, n)
	d.full(p)
	if d.err != nil {
		return ""
	}
	return string(p)
}

// strs reads a count and that many strings, within the limits.
func (d *decoder) strs() []string {
	n := d.uint()
	if d.err != nil {
		return nil
	}
	if n > maxFields {
		d.err = errMessage
		return nil
	}
	ss := make([]string, 0, n)
	for range n {
		ss = append(ss, d.str(maxField))
	}
	return ss
}

// id reads a FileID.
func (d *decoder) id() FileID {
	return FileID{Dev: d.uint(), Ino: d.uint(), Size: d.uint(), Mtime: d.uint(), Ctime: d.uint()}
}
