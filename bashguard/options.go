package bashguard

// longIs reports whether name is one of the long options full, or an
// abbreviation of one as GNU getopt takes it (at least one character
// after "--").
func longIs(name string, full ...string) bool {
	for _, f := range full {
		// name is a prefix of f; the third byte, the first after "--",
		// settles most candidates before the strings are compared.
		if len(name) <= len(f) && (len(name) < 3 || name[2] == f[2]) &&
			(name == f || len(name) >= 3 && f[:len(name)] == name) {
			return true
		}
	}
	return false
}

// shortOpts holds "-!" to "-~" so that short option names need no
// allocation.
const shortOpts = "-!-\"-#-$-%-&-'-(-)-*-+-,---.-/-0-1-2-3-4-5-6-7-8-9-:-;-<-=->-?-@-A-B-C-D-E-F-G-H-I-J-K-L-M-N-O-P-Q-R-S-T-U-V-W-X-Y-Z-[-\\-]-^-_-`-a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t-u-v-w-x-y-z-{-|-}-~"

func shortName(dash, ch byte) string {
	if dash != '-' || ch < 33 || ch > 126 {
		return string([]byte{dash, ch})
	}
	i := int(ch-33) * 2
	return shortOpts[i : i+2]
}

// hasByte reports whether the short set s holds c: the option letters of
// one command, which a loop checks faster than a call to IndexByte.
func hasByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}
