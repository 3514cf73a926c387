package bashguard

import "os"

// The models of the commands whose output the walker knows without
// running them (valueCommands, lists.go): "$(pwd)" and "$(git rev-parse
// --show-toplevel)" stand for what they print.

// pwdValue is the output of pwd: the working directory.
func (m *cmdCall) pwdValue() (string, bool) { return m.dir, true }

// repoTopValue is the output of git rev-parse --show-toplevel run in the
// working directory.
func (m *cmdCall) repoTopValue() (string, bool) {
	if fi, err := os.Stat(m.dir); err != nil || !fi.IsDir() {
		return "", false
	}
	if top, why := m.repoTop(); top != "" && why == "" {
		return top, true
	}
	return "", false
}
