package bashguard

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Every listing agrees with the rows of its spec: no option it takes runs
// a program, writes, changes state or moves the command elsewhere, and an
// option the spec says walks the trees otherwise (follows links, reads
// hidden names, recurses) has that effect on the listing too. Every lister
// is reached by the name that starts its command line.
func TestListingsAgreeWithSpecs(t *testing.T) {
	n := 0
	for _, at := range allSpecs() {
		l := at.s.lists
		if l == nil {
			continue
		}
		for name, o := range l.rows() {
			n++
			k := specOptionKind(at.s, name)
			if k == kUnknown && strings.HasPrefix(name, "--no-") {
				k = kFlag // a negated option is a flag
			}
			switch k {
			case kProgram, kWrite, kChange, kEnv, kSetProgram, kRepo, kDir, kContent, kUnknown:
				t.Errorf("%s: the listing takes %s, of kind %s", at.s.name, name, k)
			}
			want := map[kind]listEffect{kFollow: lFollow, kRecurseFollow: lRecursive | lFollow, kRecurse: lRecursive,
				kHidden: lHidden, kUnrestricted: lUnrestricted}[k]
			assert.Equal(t, want, o.eff&want, "%s: %s is of kind %s, and its listing row says %b", at.s.name, name, k, o.eff)
		}
		if at.s.subs == nil {
			root := listerSpec(at.words[0])
			assert.NotNil(t, root, "%s has a listing, but %s is no lister", at.s.name, at.words[0])
		}
	}
	assert.Greater(t, n, 150, "options the listings take")
}

// specOptionKind is the kind of the option of s named name.
func specOptionKind(s *spec, name string) kind {
	for _, sp := range s.tables().short {
		if sp.opt.name == name {
			return sp.opt.kind
		}
	}
	for _, sp := range s.tables().long {
		if sp.opt.name == name {
			return sp.opt.kind
		}
	}
	return kUnknown
}
