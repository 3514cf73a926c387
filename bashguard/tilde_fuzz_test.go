package bashguard

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/permission"
)

// FuzzTildeWords: a word that starts with "~" is never judged as the
// relative path it reads as: it expands to a home directory the user
// database gives (so its real path is judged), or it is not allowed.
func FuzzTildeWords(f *testing.F) {
	for _, s := range []string{"root/.bashrc", "/x", "", "+/x", "-", "nosuch/.ssh/id_rsa", "ro\"ot\"/x", "root", "a.b-c_d/e"} {
		f.Add(s)
	}
	pol := DefaultPolicy()
	pol.Home = "/home/user"
	pol.LookupHome = func(name string) (string, error) {
		if name == "root" || name == "a.b-c_d" {
			return "/home/" + name, nil
		}
		return "", errors.New("no such user")
	}
	g := New(pol)
	judge := &recordJudge{}
	f.Fuzz(func(t *testing.T, rest string) {
		if strings.ContainsAny(rest, "\n;&|<>()`$\\' \t*?[{") {
			return // one plain word only
		}
		judge.paths = judge.paths[:0]
		v := g.Judge(context.Background(), "/work", judge, "cat ~"+rest)
		for _, p := range judge.paths {
			if !strings.HasPrefix(p, "/") {
				t.Fatalf("cat ~%s: the judge saw the relative path %q", rest, p)
			}
		}
		if v.Decision == permission.Allow && len(judge.paths) == 0 {
			t.Fatalf("cat ~%s allowed without judging a path: %s", rest, v.Reason)
		}
	})
}

// recordJudge allows every path and records what it was asked (the fuzz
// target runs one input at a time).
type recordJudge struct{ paths []string }

func (r *recordJudge) JudgePath(p string, _ Access) permission.Result {
	r.paths = append(r.paths, p)
	return permission.Result{Decision: permission.Allow, Layer: permission.LayerSandbox}
}
