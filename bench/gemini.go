package bench

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// GeminiVersion is the @google/gemini-cli-core release whose PolicyEngine
// the Gemini comparison drives; .ci/setup and bench/run.sh install it.
const GeminiVersion = "0.61.0"

// GeminiEnv names the environment variable that gives the installed
// package's directory (…/node_modules/@google/gemini-cli-core).
const GeminiEnv = "TOOLGATE_BENCH_GEMINI"

// Command is one row of testdata/commands.jsonl: a shell command of a
// class, and the decision each engine gives it with its default policy.
type Command struct {
	Class   string `json:"class"`
	Command string `json:"command"`
	// Toolgate is Pipeline.Check's decision ("allow", "ask", "deny").
	Toolgate string `json:"toolgate"`
	// Gemini is the PolicyEngine's decision ("allow", "ask_user", "deny").
	Gemini string `json:"gemini"`
}

// LoadCommands reads a table of commands, one JSON object a line.
func LoadCommands(path string) ([]Command, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []Command
	for i, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var c Command
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		if c.Class == "" || c.Command == "" {
			return nil, fmt.Errorf("%s:%d: a row needs a class and a command", path, i+1)
		}
		out = append(out, c)
	}
	return out, nil
}

// Gemini is Gemini CLI's PolicyEngine in a node process of its own
// (gemini/driver.mjs), kept alive for many checks and asked over its
// standard input and output, one request at a time.
type Gemini struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	mu     sync.Mutex
	errs   strings.Builder
	rss    int64 // the driver's resident memory after its last answer
	closed bool
}

// StartGemini starts the driver with the package installed at pkgDir, over
// the workspace dir. Its home is an empty directory of its own under dir's
// parent, so that no user or system policy of this machine's reaches it.
func StartGemini(pkgDir, dir, home string) (*Gemini, error) {
	if _, err := os.Stat(filepath.Join(pkgDir, "dist", "src", "policy", "policy-engine.js")); err != nil {
		return nil, fmt.Errorf("gemini: no PolicyEngine in %s: %w", pkgDir, err)
	}
	driver, err := filepath.Abs(filepath.Join("gemini", "driver.mjs"))
	if err != nil {
		return nil, err
	}
	g := &Gemini{cmd: exec.Command("node", driver, pkgDir, dir)}
	g.cmd.Dir = dir
	g.cmd.Env = append(os.Environ(), "HOME="+home)
	g.cmd.Stderr = &g.errs
	if g.in, err = g.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := g.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	g.out = bufio.NewReader(stdout)
	if err := g.cmd.Start(); err != nil {
		return nil, fmt.Errorf("gemini: %w", err)
	}
	return g, nil
}

type geminiAnswer struct {
	Decision string `json:"decision"`
	NS       int64  `json:"ns"`
	RSS      int64  `json:"rss"`
	Error    string `json:"error"`
}

func (g *Gemini) ask(command string, n int) (geminiAnswer, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	req, err := json.Marshal(struct {
		Command string `json:"command"`
		N       int    `json:"n"`
	}{command, n})
	if err != nil {
		return geminiAnswer{}, err
	}
	if _, err := g.in.Write(append(req, '\n')); err != nil {
		return geminiAnswer{}, fmt.Errorf("gemini: %w (%s)", err, g.errs.String())
	}
	line, err := g.out.ReadBytes('\n')
	if err != nil {
		return geminiAnswer{}, fmt.Errorf("gemini: %w (%s)", err, g.errs.String())
	}
	var a geminiAnswer
	if err := json.Unmarshal(line, &a); err != nil {
		return a, fmt.Errorf("gemini: %q: %w", line, err)
	}
	if a.Error != "" {
		return a, errors.New("gemini: " + a.Error)
	}
	g.rss = a.RSS
	return a, nil
}

// Decide returns the engine's decision for the shell command.
func (g *Gemini) Decide(command string) (string, error) {
	a, err := g.ask(command, 0)
	return a.Decision, err
}

// Time checks the command n times in the driver's own loop and returns the
// loop's time in nanoseconds, measured inside node, and the decision.
func (g *Gemini) Time(command string, n int) (int64, string, error) {
	a, err := g.ask(command, n)
	return a.NS, a.Decision, err
}

// RSS returns the driver's resident memory in bytes after its last answer.
// Gemini CLI's engine keeps memory outside the JS heap for every shell
// command it checks; a long benchmark starts a fresh driver when this grows
// large.
func (g *Gemini) RSS() int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.rss
}

// Close ends the driver and waits for it; closing it again does nothing.
func (g *Gemini) Close() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return nil
	}
	g.closed = true
	g.in.Close()
	return g.cmd.Wait()
}
