//go:build linux

package runner

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"

	"github.com/toolgate/toolgate/internal/wire"
)

// What the runner, the launcher and its second stage send each other over
// their pipes — the plan, the line that ends a Late plan, the launcher's
// report — is written in a form of this package's own, read without
// reflection: the second stage starts for every confined command, and
// decoding JSON there cost a cold reflection of the plan's type each
// time. Each message is a frame: its length (a uvarint) and its fields in
// a fixed order, in internal/wire's form (numbers as uvarints, strings and
// lists with their lengths first, booleans as a byte). A plan begins with confineWireMagic, which names the
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

// wireOut builds one frame's payload (internal/wire's items).
type wireOut struct{ b []byte }

func (w *wireOut) uint(v uint64)    { w.b = wire.AppendUvarint(w.b, v) }
func (w *wireOut) bool(v bool)      { w.b = wire.AppendBool(w.b, v) }
func (w *wireOut) str(s string)     { w.b = wire.AppendString(w.b, s) }
func (w *wireOut) strs(ss []string) { w.b = wire.AppendStrings(w.b, ss) }

// send writes the frame to dst in one write: its length, then its items.
func (w *wireOut) send(dst io.Writer) error {
	frame := binary.AppendUvarint(make([]byte, 0, len(w.b)+binary.MaxVarintLen64), uint64(len(w.b)))
	_, err := dst.Write(append(frame, w.b...))
	return err
}

// recvFrame reads the next frame of r, of at most max bytes, for its
// items to be read.
func recvFrame(r *bufio.Reader, max int) (*wire.Reader, error) {
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
	return wire.NewReader(b), nil
}

// wireDone is errConfineWire unless every item of in parsed and none is
// left.
func wireDone(in *wire.Reader) error {
	if !in.Done() {
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
	if in.Str() != confineWireMagic {
		return confinePlan{}, errConfineWire
	}
	var p confinePlan
	p.ABI = int(in.Small(31))
	p.FS, p.Net, p.Scoped = in.Uvarint(), in.Uvarint(), in.Uvarint()
	if n := in.Count(); n > 0 {
		p.Rules = make([]confineRule, n)
		for i := range p.Rules {
			p.Rules[i] = confineRule{Path: in.Str(), Access: in.Uvarint(), Follow: in.Bool()}
		}
	}
	p.MaxProcs = int(in.Small(31))
	p.CPU, p.Data, p.FileSize = in.Uvarint(), in.Uvarint(), in.Uvarint()
	p.Bash = in.Str()
	p.NetMode = confineNetMode(in.Small(8))
	p.Namespaces = in.Bool()
	p.NeedNS = in.Str()
	p.Hidden, p.Binds, p.Covers = in.Strs(), in.Strs(), in.Strs()
	p.Ruleset = in.Bool()
	p.RulesetFlags = uint32(in.Small(32))
	p.TmpBind = [2]string{in.Str(), in.Str()}
	p.Late = in.Bool()
	if err := wireDone(in); err != nil {
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
	d := confineLateDone{Refuse: in.Str()}
	return d, wireDone(in)
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
	s := confineStatus{Applied: in.Bool(), Error: in.Str(), Layers: in.Strs(), NoNS: in.Str()}
	if err := wireDone(in); err != nil {
		return confineStatus{}, err
	}
	return s, nil
}
