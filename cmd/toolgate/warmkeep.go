package main

import (
	"maps"
	"os"
	"reflect"
	"slices"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/permission"
)

// maxWarmBuilt bounds the checkers and the guards a warm process keeps;
// past it they are dropped together (the settings of one environment
// and one working directory change seldom, and a few modes suffice).
const maxWarmBuilt = 4

// keptChecker is a compiled rule set a warm process keeps, and the
// configuration it was compiled from (the warm process's own copy).
type keptChecker struct {
	cfg permission.Config
	c   *permission.Checker
}

// keptGuard is a shell guard a warm process keeps, and the policy it was
// built from (the warm process's own copy).
type keptGuard struct {
	pol bashguard.Policy
	g   *bashguard.Guard
}

// warmReuse counts what a warm process took from its cache instead of
// building it: tests see through it that the kept state is reused.
type warmReuse struct {
	checkers, guards int
}

// newChecker is runtime.Workspace.NewChecker for a warm process: the
// kept Checker of a configuration deeply equal to cfg (every rule, its
// origin and directory, every default, the mode, the directories and
// the tools' kinds), else permission.New's, kept for the next call. A
// Checker does not change once built, so an equal configuration is the
// same Checker; any change in any settings source changes cfg, and
// compiles afresh.
func (c *warmCache) newChecker(cfg permission.Config) (*permission.Checker, error) {
	for _, k := range c.checkers {
		if reflect.DeepEqual(k.cfg, cfg) {
			c.reuse.checkers++
			return k.c, nil
		}
	}
	own := cloneConfig(cfg)
	ch, err := permission.New(own)
	if err != nil {
		return nil, err
	}
	if len(c.checkers) >= maxWarmBuilt {
		c.checkers = nil
	}
	c.checkers = append(c.checkers, keptChecker{cfg: own, c: ch})
	return ch, nil
}

// cloneConfig is a copy of cfg that shares no slice or map with it.
func cloneConfig(cfg permission.Config) permission.Config {
	cfg.Allow, cfg.Ask, cfg.Deny = slices.Clone(cfg.Allow), slices.Clone(cfg.Ask), slices.Clone(cfg.Deny)
	cfg.Rules = slices.Clone(cfg.Rules)
	cfg.DefaultFor = maps.Clone(cfg.DefaultFor)
	cfg.AdditionalDirectories = slices.Clone(cfg.AdditionalDirectories)
	cfg.ShellTools, cfg.PathTools = slices.Clone(cfg.ShellTools), slices.Clone(cfg.PathTools)
	return cfg
}

// newGuard is runtime.Workspace.NewGuard for a warm process: the kept
// Guard of a policy deeply equal to pol, else a new one, kept for the
// next call. A Guard is made to live for many judgements: what it keeps
// is the trees of the scripts it parsed (by their text) and the
// workspace facts git reads, which it revalidates on every judgement as
// a Guard of a long-lived host does. A policy with a LookupHome function
// is not kept (functions are not compared).
func (c *warmCache) newGuard(pol bashguard.Policy) *bashguard.Guard {
	if pol.LookupHome != nil {
		return nil
	}
	for _, k := range c.guards {
		if reflect.DeepEqual(k.pol, pol) {
			c.reuse.guards++
			return k.g
		}
	}
	own := clonePolicy(pol)
	g := bashguard.New(own)
	if len(c.guards) >= maxWarmBuilt {
		c.dropGuards()
	}
	c.guards = append(c.guards, keptGuard{pol: own, g: g})
	return g
}

// clonePolicy is a copy of pol that shares no slice or map with it.
func clonePolicy(pol bashguard.Policy) bashguard.Policy {
	pol.Environ = maps.Clone(pol.Environ)
	pol.SystemRoots = slices.Clone(pol.SystemRoots)
	pol.ExtraSafe = slices.Clone(pol.ExtraSafe)
	return pol
}

// dropGuards closes and forgets every kept guard.
func (c *warmCache) dropGuards() {
	for _, k := range c.guards {
		_ = k.g.Close()
	}
	c.guards = nil
}

// readFile is os.ReadFile for the small files a call reads whole (the
// go env file, GOROOT's VERSION): in a warm process the kept content
// while the file's stat is as when it was read (warmCache.file); on a
// nil cache, os.ReadFile itself. Each call gets a copy of its own.
func (c *warmCache) readFile(path string) ([]byte, error) {
	if c == nil {
		return os.ReadFile(path)
	}
	v, err := c.file("read", path, func() (any, error) { return os.ReadFile(path) })
	b, _ := v.([]byte)
	return slices.Clone(b), err
}

// executable is os.Executable, read once in a warm process (the path of
// the running binary does not change while the process lives: a call
// from a client whose binary is another, or was renamed, which changes
// its change time, is refused, warmServer.refuse); "" when it cannot be
// named. On a nil cache, os.Executable itself.
func (c *warmCache) executable() string {
	if c == nil {
		self, _ := os.Executable()
		return self
	}
	if !c.selfRead {
		c.self, _ = os.Executable()
		c.selfRead = true
	}
	return c.self
}
