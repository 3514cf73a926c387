//go:build !linux

package runner

// confineLaunch fails: Landlock exists on Linux only, and a runner on
// another system never starts a launcher.
func confineLaunch() int { return 126 }
