package permission

// matchStar reports whether s matches pattern, in which '*' matches any run
// of bytes (including none) and every other byte matches itself. It does
// not allocate.
func matchStar(pattern, s string) bool {
	// Iterative matcher with single-star backtracking (linear in practice).
	px, sx := 0, 0
	nextPx, nextSx := -1, -1
	for px < len(pattern) || sx < len(s) {
		if px < len(pattern) {
			c := pattern[px]
			if c == '*' {
				nextPx, nextSx = px, sx+1
				px++
				continue
			}
			if sx < len(s) && s[sx] == c {
				px++
				sx++
				continue
			}
		}
		if nextPx >= 0 && nextSx <= len(s) {
			px, sx = nextPx+1, nextSx
			nextSx++
			continue
		}
		return false
	}
	return true
}

func hasStar(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '*' {
			return true
		}
	}
	return false
}
