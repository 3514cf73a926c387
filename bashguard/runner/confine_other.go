//go:build !linux

package runner

// confineLaunch fails: Landlock exists on Linux only, and a runner on
// another system never starts a launcher.
func confineLaunch() int { return 126 }

// CanConfine reports that commands cannot be confined: Landlock exists on
// Linux only.
func (r *Shell) CanConfine() (bool, string) {
	return false, "kernel confinement (Landlock) exists on Linux only"
}

// ProbeNamespaces reports that the launcher's namespaces are not given:
// the launcher exists on Linux only.
func ProbeNamespaces(newNet bool) string {
	return "kernel confinement (Landlock) exists on Linux only"
}

// confineFacts is empty: there is nothing to keep between runs.
type confineFacts struct{}
