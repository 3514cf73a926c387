//go:build linux

package runner

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/toolgate/toolgate/sandbox"
)

// confineBenchTree fills root with a project of n entries (files and
// directories, root excluded): directories of 100 files, ten to a parent
// directory, with the sandbox's secret files scattered in them (a .env in
// every 97th directory, a private key in every 89th, a .env at the top)
// and a git directory. It returns how many secret paths it made.
func confineBenchTree(tb testing.TB, root string, n int) int {
	tb.Helper()
	made, secrets := 0, 0
	write := func(p, body string) {
		require.NoError(tb, os.WriteFile(p, []byte(body), 0o644))
		made++
	}
	mkdir := func(p string) {
		require.NoError(tb, os.Mkdir(p, 0o755))
		made++
	}
	mkdir(filepath.Join(root, ".git"))
	write(filepath.Join(root, ".git", "config"), "[core]\n")
	write(filepath.Join(root, ".env"), "TOKEN=top\n")
	secrets++
	write(filepath.Join(root, "go.mod"), "module example.com/big\n")
	for top := 0; made < n; top++ {
		parent := filepath.Join(root, "mod"+strconv.Itoa(top))
		mkdir(parent)
		for sub := 0; sub < 10 && made < n; sub++ {
			dir := filepath.Join(parent, "pkg"+strconv.Itoa(sub))
			mkdir(dir)
			k := top*10 + sub
			for f := 0; f < 100 && made < n; f++ {
				switch {
				case f == 0 && k%97 == 3:
					write(filepath.Join(dir, ".env"), "TOKEN=x\n")
					secrets++
				case f == 0 && k%89 == 5:
					write(filepath.Join(dir, "id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY-----\n")
					secrets++
				default:
					write(filepath.Join(dir, "f"+strconv.Itoa(f)+".go"), "package p\n")
				}
			}
		}
	}
	return secrets
}

// BenchmarkConfinedRun is one command ("true") run by a Shell that is
// reused across commands, as a session reuses it, in a small project and
// in a generated project of 100,000 entries with secrets scattered in it,
// judged by the sandbox. Each iteration runs it confined and then
// unconfined, side by side, so that load on the machine weighs on both;
// the metrics are the medians of each ("confined-ms", "unconfined-ms")
// and of their difference ("confine-ms"), what confinement costs per
// command.
func BenchmarkConfinedRun(b *testing.B) {
	confineTestABI(b)
	for _, size := range []struct {
		name    string
		entries int
	}{{"small", 20}, {"100k", 100_000}} {
		root, err := filepath.EvalSymlinks(b.TempDir())
		require.NoError(b, err)
		secrets := confineBenchTree(b, root, size.entries)
		sb, err := sandbox.New(sandbox.Config{Roots: []string{root}, WorkDir: root})
		require.NoError(b, err)
		confined := &Shell{Dir: root, Checker: sb}
		unconfined := &Shell{Dir: root, Checker: sb, Confinement: Confinement{Fallback: ConfineRunUnconfined},
			probe: func() confineSupport { return confineSupport{reason: "benchmark"} }}
		run := func(b *testing.B, r *Shell) time.Duration {
			start := time.Now()
			res, err := r.Run(context.Background(), "true")
			d := time.Since(start)
			if err != nil || res.ExitCode != 0 || res.Confined.Enforced != (r == confined) ||
				(r == confined && res.Confined.Secrets != secrets) {
				b.Fatalf("%+v %v (want %d secrets)", res, err, secrets)
			}
			return d
		}
		b.Run(size.name, func(b *testing.B) {
			// The first run of a Shell learns the workspace; the
			// benchmark is of the runs after it.
			run(b, confined)
			var on, off, diff []time.Duration
			for b.Loop() {
				c, u := run(b, confined), run(b, unconfined)
				on, off, diff = append(on, c), append(off, u), append(diff, c-u)
			}
			median := func(ds []time.Duration) float64 {
				slices.Sort(ds)
				return float64(ds[len(ds)/2]) / float64(time.Millisecond)
			}
			b.ReportMetric(median(on), "confined-ms")
			b.ReportMetric(median(off), "unconfined-ms")
			b.ReportMetric(median(diff), "confine-ms")
		})
	}
}

// BenchmarkConfineWalkFile is what a process that keeps its walk in a
// walk file does before it confines a command, in a generated project of
// 100,000 entries: it reads the file and either finds every directory
// unchanged ("unchanged") or, a file made in one directory since, walks
// the tree again where it changed and records it ("changed", the file
// made before and removed after each iteration). The metric "file-bytes"
// is the walk file's size.
func BenchmarkConfineWalkFile(b *testing.B) {
	c, root := confineBenchKept(b)
	changed := filepath.Join(root, "mod0", "pkg0", "changed.go")
	for _, name := range []string{"unchanged", "changed"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if name == "changed" {
					require.NoError(b, os.WriteFile(changed, []byte("package p\n"), 0o644))
				}
				rec, ok := confineWalkRead(c, c.confine.WalkFile)
				_, run, err := confineKeptRoots(c, rec)
				if !ok || err != nil || (run == nil) != (name == "unchanged") {
					b.Fatalf("read %v, walked again %v: %v", ok, run != nil, err)
				}
				if name == "changed" {
					require.NoError(b, os.Remove(changed))
				}
			}
			fi, err := os.Stat(c.confine.WalkFile)
			require.NoError(b, err)
			b.ReportMetric(float64(fi.Size()), "file-bytes")
		})
	}
}

// BenchmarkConfinePlantCheck is the check after a run of a process that
// keeps its walk in a walk file, in a generated project of 100,000
// entries where the run planted nothing: every directory the walk listed
// is found unchanged since the snapshot.
func BenchmarkConfinePlantCheck(b *testing.B) {
	c, _ := confineBenchKept(b)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		rec, _ := confineWalkRead(c, c.confine.WalkFile)
		w, _, err := confineKeptRoots(c, rec)
		require.NoError(b, err)
		b.StartTimer()
		if planted := w.plants.revert(c.checker, nil, 0); len(planted) != 0 {
			b.Fatalf("planted %v", planted)
		}
	}
}

// confineBenchKept makes a generated project of 100,000 entries and the
// configuration of a process that keeps its walk in a walk file, with
// the walk recorded: past the clock's tick of the project's making, so
// that the first walk's stamps are trusted, and twice, so that the second
// records the identities the first wrote.
func confineBenchKept(b *testing.B) (runConfig, string) {
	b.Helper()
	confineTestABI(b)
	root, err := filepath.EvalSymlinks(b.TempDir())
	require.NoError(b, err)
	private := b.TempDir()
	confineBenchTree(b, root, 100_000)
	sb, err := sandbox.New(sandbox.Config{Roots: []string{root}, WorkDir: root})
	require.NoError(b, err)
	c := runConfig{bash: DefaultBash, dir: root, roots: []string{root}, checker: sb, maxProcs: DefaultMaxProcs,
		confine: Confinement{WalkFile: filepath.Join(private, "walk"), IdentityFile: filepath.Join(private, "identities.json"), MaxWalk: 200_000}}
	// Past the clock's tick of the project's making: the first walk's
	// stamps are trusted. The second records the identities the first
	// wrote.
	time.Sleep(confinePlantRecent + 100*time.Millisecond)
	for range 2 {
		rec, _ := confineWalkRead(c, c.confine.WalkFile)
		_, _, err = confineKeptRoots(c, rec)
		require.NoError(b, err)
	}
	return c, root
}
