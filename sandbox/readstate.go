package sandbox

// ReadState returns a comparable value that stands for everything the
// sandbox's answer for a path depends on besides the path and the file
// system it resolves on: the sandbox (its roots, lists and mounts, fixed
// when it was built; a view's is the sandbox it was taken of) and the
// protected and secret locations found by identity as they are now (the
// search a judgement made now would use: the last one while nothing it
// depends on has changed, else a new one). Two calls return equal values
// only when the sandbox would judge every path alike, for the same file
// system. A host that keeps answers across judgements (the shell guard's
// kept judgement of the files a git index tracks) compares it; the value
// holds what it names alive. A nil *Sandbox returns nil.
func (s *Sandbox) ReadState() any {
	if s == nil {
		return nil
	}
	base := s
	if s.base != nil {
		base = s.base
	}
	ids := s.current()
	if ids == nil || ids.search == nil {
		return nil
	}
	return readState{sandbox: base, search: ids.search}
}

// readState is what ReadState returns.
type readState struct {
	sandbox *Sandbox
	search  *searchMark
}
