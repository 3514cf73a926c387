package bashguard

import "reflect"

// KeptJudge is optional: a [PathJudge] that also implements it lets a
// Guard keep its answers for reads from one [Guard.Judge] call to the next,
// where a command's output carries the content of many files whose
// judgement would otherwise be made again for every command (git diff, git
// log -p, git show REV and git archive print any file the repository's
// index or history holds: its every path is judged, once for each state of
// the judge and of the files, not once for each command).
//
// ReadState returns a comparable value that stands for everything the
// judge's answer for a [Read] depends on besides the path and the file
// system: its rules (of every source, the session's as they are now), its
// sandbox's roots, lists and the protected and secret files found by
// identity (see sandbox.Sandbox.ReadState). Two judges whose values are
// equal (==) must answer every Read alike for the same file system; the
// Guard keeps the value with the answers, so a value that holds pointers
// keeps what they point at alive (no other judge's can take their
// address). Of the file system, the answer may depend on the names and
// links on the path's way, where they lead, the identity (device and
// inode) of the file reached, and for a git config file ([Guard.ConfigCredential])
// its content: the Guard stamps each of those and judges again when one
// changes. An answer that depends on anything else is not to be kept: nil
// (or a value that cannot be compared) keeps nothing, and every command is
// judged on its own, within the bounds of one command.
//
// ReadState is called once per command that needs it, from any goroutine.
type KeptJudge interface {
	ReadState() any
}

// ReadState implements [KeptJudge] for the checker's answers when the
// checker is a KeptJudge itself (as *sandbox.Sandbox is); else it returns
// nil.
func (j checkerJudge) ReadState() any {
	k, ok := j.c.(KeptJudge)
	if !ok {
		return nil
	}
	s := k.ReadState()
	if s == nil {
		return nil
	}
	return checkerState{s}
}

// checkerState is a checkerJudge's state: the checker's, which a judge
// that maps the same checker's answers otherwise does not share.
type checkerState struct{ checker any }

// judgeState returns the state the judge j gives for its reads, and
// whether answers may be kept under it: j is a KeptJudge whose value is
// not nil and can be compared. A panic of ReadState keeps nothing.
func judgeState(j PathJudge) (st any, ok bool) {
	k, is := j.(KeptJudge)
	if !is {
		return nil, false
	}
	defer func() {
		if recover() != nil {
			st, ok = nil, false
		}
	}()
	st = k.ReadState()
	// A value not equal to itself (a NaN inside) keeps nothing; one
	// that holds a value that cannot be compared panics here.
	if st == nil || !reflect.TypeOf(st).Comparable() || !sameState(st, st) {
		return nil, false
	}
	return st, true
}

// sameState reports whether the states a and b are equal; a comparison
// that panics (a value inside that cannot be compared) is not.
func sameState(a, b any) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a == b
}
