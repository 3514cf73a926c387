//go:build linux

package runner

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
)

// What the runner, the launcher and its second stage send each other over
// their pipes — the plan, the line that ends a Late plan, the launcher's
// report — is written in a form of this package's own, read without
// reflection: the second stage starts for every confined command, and
// decoding JSON there cost a cold reflection of the plan's type each
// time. Each message is a frame: its length (a uvarint) and its fields in
// a fixed order, numbers as uvarints and strings and lists with their
// lengths first. A plan begins with confineWireMagic, which names the
// form's version: a launcher built from another version of this package
// refuses the plan, so the run fails rather than a field going unread. A
// frame that does not parse to its last byte is refused whole.

// confineWireMagic begins every plan.
const confineWireMagic = "toolgate-plan-1"

// Bounds of the frames read: a plan holds a rule per granted directory
// (confineMaxRules bounds them well below this), a report a line.
const (
	confineWirePlanMax   = 64 << 20
	confineWireReportMax = 1 << 20
)

var errConfineWire = errors.New("the message is not in the form this launcher reads (another version of the runner wrote it?)")

// wireOut builds one frame's payload.
type wireOut struct{ b []byte }

func (w *wireOut) uint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }

func (w *wireOut) bool(v bool) {
	if v {
		w.uint(1)
	} else {
		w.uint(0)
	}
}

func (w *wireOut) str(s string) {
	w.uint(uint64(len(s)))
	w.b = append(w.b, s...)
}

func (w *wireOut) strs(ss []string) {
	w.uint(uint64(len(ss)))
	for _, s := range ss {
		w.str(s)
	}
}

// send writes the frame to dst in one write.
func (w *wireOut) send(dst io.Writer) error {
	frame := binary.AppendUvarint(make([]byte, 0, len(w.b)+binary.MaxVarintLen64), uint64(len(w.b)))
	_, err := dst.Write(append(frame, w.b...))
	return err
}

// wireIn reads one frame's payload; bad is set by the first field that
// does not parse, and every read after it returns zero.
type wireIn struct {
	b   []byte
	bad bool
}

// recvFrame reads the next frame of r, of at most max bytes.
func recvFrame(r *bufio.Reader, max int) (*wireIn, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return nil, err
	}
	if n > uint64(max) {
		return nil, errConfineWire
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	return &wireIn{b: b}, nil
}

func (r *wireIn) uint() uint64 {
	if r.bad {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

// small reads a number that must fit in bits bits.
func (r *wireIn) small(bits uint) uint64 {
	v := r.uint()
	if v>>bits != 0 {
		r.bad = true
		return 0
	}
	return v
}

func (r *wireIn) bool() bool {
	switch r.uint() {
	case 0:
		return false
	case 1:
		return true
	}
	r.bad = true
	return false
}

func (r *wireIn) str() string {
	n := r.uint()
	if r.bad || n > uint64(len(r.b)) {
		r.bad = true
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// count reads a list's length: each element takes a byte at least, so a
// length past the bytes left does not parse.
func (r *wireIn) count() int {
	n := r.uint()
	if r.bad || n > uint64(len(r.b)) {
		r.bad = true
		return 0
	}
	return int(n)
}

func (r *wireIn) strs() []string {
	n := r.count()
	if n == 0 {
		return nil
	}
	ss := make([]string, n)
	for i := range ss {
		ss[i] = r.str()
	}
	return ss
}

// done reports an error unless every field parsed and none is left.
func (r *wireIn) done() error {
	if r.bad || len(r.b) != 0 {
		return errConfineWire
	}
	return nil
}

// sendPlan writes the plan p (its exported fields, as the launcher reads
// them) to w.
func sendPlan(w io.Writer, p *confinePlan) error {
	var o wireOut
	o.str(confineWireMagic)
	o.uint(uint64(p.ABI))
	o.uint(p.FS)
	o.uint(p.Net)
	o.uint(p.Scoped)
	o.uint(uint64(len(p.Rules)))
	for _, r := range p.Rules {
		o.str(r.Path)
		o.uint(r.Access)
		o.bool(r.Follow)
	}
	o.uint(uint64(p.MaxProcs))
	o.uint(p.CPU)
	o.uint(p.Data)
	o.uint(p.FileSize)
	o.str(p.Bash)
	o.uint(uint64(p.NetMode))
	o.bool(p.Namespaces)
	o.str(p.NeedNS)
	o.strs(p.Hidden)
	o.strs(p.Binds)
	o.strs(p.Covers)
	o.bool(p.Ruleset)
	o.uint(uint64(p.RulesetFlags))
	o.str(p.TmpBind[0])
	o.str(p.TmpBind[1])
	o.bool(p.Late)
	return o.send(w)
}

// recvPlan reads a plan sendPlan wrote.
func recvPlan(r *bufio.Reader) (confinePlan, error) {
	in, err := recvFrame(r, confineWirePlanMax)
	if err != nil {
		return confinePlan{}, err
	}
	if in.str() != confineWireMagic {
		return confinePlan{}, errConfineWire
	}
	var p confinePlan
	p.ABI = int(in.small(31))
	p.FS, p.Net, p.Scoped = in.uint(), in.uint(), in.uint()
	if n := in.count(); n > 0 {
		p.Rules = make([]confineRule, n)
		for i := range p.Rules {
			p.Rules[i] = confineRule{Path: in.str(), Access: in.uint(), Follow: in.bool()}
		}
	}
	p.MaxProcs = int(in.small(31))
	p.CPU, p.Data, p.FileSize = in.uint(), in.uint(), in.uint()
	p.Bash = in.str()
	p.NetMode = confineNetMode(in.small(8))
	p.Namespaces = in.bool()
	p.NeedNS = in.str()
	p.Hidden, p.Binds, p.Covers = in.strs(), in.strs(), in.strs()
	p.Ruleset = in.bool()
	p.RulesetFlags = uint32(in.small(32))
	p.TmpBind = [2]string{in.str(), in.str()}
	p.Late = in.bool()
	if err := in.done(); err != nil {
		return confinePlan{}, err
	}
	return p, nil
}

// sendLateDone writes the line that ends a Late plan.
func sendLateDone(w io.Writer, d confineLateDone) error {
	var o wireOut
	o.str(d.Refuse)
	return o.send(w)
}

// recvLateDone reads what sendLateDone wrote.
func recvLateDone(r *bufio.Reader) (confineLateDone, error) {
	in, err := recvFrame(r, confineWireReportMax)
	if err != nil {
		return confineLateDone{}, err
	}
	d := confineLateDone{Refuse: in.str()}
	return d, in.done()
}

// sendStatus writes one report of the launcher.
func sendStatus(w io.Writer, s confineStatus) error {
	var o wireOut
	o.bool(s.Applied)
	o.str(s.Error)
	o.strs(s.Layers)
	o.str(s.NoNS)
	return o.send(w)
}

// recvStatus reads one report sendStatus wrote.
func recvStatus(r *bufio.Reader) (confineStatus, error) {
	in, err := recvFrame(r, confineWireReportMax)
	if err != nil {
		return confineStatus{}, err
	}
	s := confineStatus{Applied: in.bool(), Error: in.str(), Layers: in.strs(), NoNS: in.str()}
	if err := in.done(); err != nil {
		return confineStatus{}, err
	}
	return s, nil
}
