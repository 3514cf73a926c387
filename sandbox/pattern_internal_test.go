package sandbox

import (
	"path"
	"testing"
)

// FuzzElemMatch: every compiled component kind matches exactly the names
// path.Match matches with the component's text.
func FuzzElemMatch(f *testing.F) {
	for _, s := range [][2]string{
		{"*.tfstate.*", "prod.tfstate.backup"}, {"*.tfstate.*", ".tfstate."}, {"*a*a*", "aa"}, {"*a*a*", "aaa"},
		{".env.*", ".env.local"}, {"id_rsa*", "id_rsa.pub"}, {"**", "x"}, {"*.p12", "a.p12"}, {"a*b*c", "abc"}, {"a*b*c", "acb"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pat, name string) {
		if pat == "" || len(pat) > 64 || len(name) > 64 {
			return
		}
		for i := 0; i < len(name); i++ {
			if name[i] == '/' {
				return
			}
		}
		want, err := path.Match(pat, name)
		if err != nil {
			return
		}
		e := compileElem(pat)
		if e.kind == elemAny {
			return
		}
		if got := e.match(name); got != want {
			t.Fatalf("compileElem(%q).match(%q) = %v, path.Match says %v", pat, name, got, want)
		}
	})
}
