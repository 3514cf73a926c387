package bench

import "github.com/toolgate/toolgate/permission"

// ToolgateConfig renders the policy as toolgate rules: Allow, Ask and Deny
// lists in Claude Code syntax, with Ask for a call no rule matches.
func ToolgateConfig(rules []Rule) permission.Config {
	cfg := permission.Config{Default: permission.Ask, WorkDir: WorkDir, Home: Home}
	for _, r := range rules {
		switch r.Decision {
		case permission.Deny:
			cfg.Deny = append(cfg.Deny, r.Text())
		case permission.Ask:
			cfg.Ask = append(cfg.Ask, r.Text())
		default:
			cfg.Allow = append(cfg.Allow, r.Text())
		}
	}
	return cfg
}

// Toolgate decides calls with a [permission.Checker].
type Toolgate struct {
	checker *permission.Checker
	reqs    []permission.Request
}

// NewToolgate compiles the policy and turns each call into a
// [permission.Request].
func NewToolgate(rules []Rule, calls []Call) (*Toolgate, error) {
	c, err := permission.New(ToolgateConfig(rules))
	if err != nil {
		return nil, err
	}
	t := &Toolgate{checker: c, reqs: make([]permission.Request, len(calls))}
	for i := range calls {
		t.reqs[i] = calls[i].Request()
	}
	return t, nil
}

// Check returns the checker's whole answer for call i.
func (t *Toolgate) Check(i int) permission.Result { return t.checker.Check(&t.reqs[i], nil) }

// Decide returns the decision for call i.
func (t *Toolgate) Decide(i int) (permission.Decision, error) {
	return t.checker.Check(&t.reqs[i], nil).Decision, nil
}
