//go:build linux

package runner

// confinePlanned is the plan of one run, prepared while the launcher
// starts. The launcher reads its plan only once it runs: after the clone
// into the namespaces, the exec and the start of its runtime, some
// milliseconds in all. The prepare (the walk file's read and its check,
// one stat a directory of the roots, the plant snapshot) takes as long in
// a large project, and nothing of it is needed to start the launcher,
// only the plan's shape (confinePlanShape). A failed prepare closes the
// plan pipe unwritten: the launcher then fails, and runs nothing.
type confinePlanned struct {
	done chan struct{}
	plan confinePlan
	lvl  ConfineLevel
	err  error
}

// confinePlanReady is a plan prepared already.
func confinePlanReady(plan confinePlan, lvl ConfineLevel) *confinePlanned {
	p := &confinePlanned{done: make(chan struct{}), plan: plan, lvl: lvl}
	close(p.done)
	return p
}

// confinePlanAsync starts preparing the plan of c's run (confinePrepare)
// on a goroutine of its own. ruleset, when not -1, is the Landlock
// ruleset made for the plan's shape (confineRulesetMade), with its flags:
// the plan adds its rules to it while the launcher starts, unless it
// cannot use it (confineRulesetUse).
func confinePlanAsync(c runConfig, abi int, tmp string, ruleset int, flags uint32) *confinePlanned {
	p := &confinePlanned{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.plan, p.lvl, p.err = confinePrepare(c, abi, tmp)
		if p.err == nil && ruleset >= 0 && confineRulesetUse(&p.plan, ruleset, flags) {
			p.plan.startLate()
		}
	}()
	return p
}

// wait waits for the plan, and returns it, or why it could not be made.
func (p *confinePlanned) wait() (*confinePlan, error) {
	<-p.done
	return &p.plan, p.err
}
