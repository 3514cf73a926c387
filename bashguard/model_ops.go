package bashguard

import "strings"

// plainName reports whether n is a plain name, such as a service's or a
// unit's: letters, digits and "@._-", not starting with "-" or ".", so
// that a program that finds a file by it (service runs /etc/init.d/NAME)
// finds none elsewhere.
func plainName(n string) bool {
	if n == "" || n[0] == '-' || n[0] == '.' {
		return false
	}
	for _, r := range n {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@._-", r)) {
			return false
		}
	}
	return true
}
