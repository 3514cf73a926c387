// Package store holds the interfaces behind which the pipeline keeps the
// state that outlives one process: grants ("allow always" rules), pending
// approvals, cancellations and layer-7 counters; and [Memory], the
// in-memory implementation and the default. Package
// [github.com/toolgate/toolgate/runtime/store/sqlstore] keeps the same
// state in SQLite (one machine, survives a restart) or PostgreSQL (many
// replicas, changes pushed with LISTEN/NOTIFY).
//
// A store is read when a session starts and when a [Event] says something
// changed; the pipeline's checks read its own caches, never the store.
// The pipeline bounds every call of it ([Bound]): a stalled database costs
// a call its timeout and the call is denied, saying so. From a [Lost]
// event until the reload after the next [Resync], the pipeline denies
// every call: a cancellation made elsewhere may be unheard.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Errors a store returns.
var (
	// ErrNotFound: no approval with that id.
	ErrNotFound = errors.New("store: not found")
	// ErrAnswered: the approval was answered already; the first answer
	// stands.
	ErrAnswered = errors.New("store: approval already answered")
	// ErrExpired: the approval expired unanswered; it counts as a Deny.
	ErrExpired = errors.New("store: approval expired")
	// ErrExists: an approval with that id exists.
	ErrExists = errors.New("store: approval already exists")
)

// Scope says whom a grant applies to.
type Scope uint8

const (
	// ScopeSession grants to one session of one project and user; Key is
	// [SessionKey] of the three, never the bare session id, so that the
	// same id in another workspace or for another user sees none of it.
	ScopeSession Scope = iota + 1
	// ScopeProject grants to every session of a project; Key is the
	// project's name (the workspace directory for a pipeline Open built).
	ScopeProject
	// ScopeUser grants to every session of a user; Key is the user.
	ScopeUser
)

// SessionKey returns the Key of a session-scoped grant: the session's
// project, user and id, each quoted, so that no two triples share a key.
func SessionKey(project, user, session string) string {
	b, _ := json.Marshal([3]string{project, user, session})
	return string(b)
}

// Valid reports whether s is one of the scopes.
func (s Scope) Valid() bool { return s >= ScopeSession && s <= ScopeUser }

// String returns "session", "project" or "user".
func (s Scope) String() string {
	switch s {
	case ScopeSession:
		return "session"
	case ScopeProject:
		return "project"
	case ScopeUser:
		return "user"
	}
	return "invalid"
}

// Grant is one Allow rule a person granted ("allow always").
type Grant struct {
	Scope Scope
	Key   string
	// Rule is a permission rule, such as `Bash(git status)`.
	Rule string
}

// Grants keeps grants. Adding a grant that exists is not an error.
type Grants interface {
	AddGrant(ctx context.Context, g Grant) error
	// Grants returns the rules granted to scope and key, oldest first.
	Grants(ctx context.Context, scope Scope, key string) ([]string, error)
}

// Choice values of an [Answer]; they are approval.Choice's.
const (
	ChoiceDeny        = 0
	ChoiceAllowOnce   = 1
	ChoiceAllowAlways = 2
)

// Answer is a person's answer to an approval.
type Answer struct {
	// Choice is ChoiceDeny, ChoiceAllowOnce or ChoiceAllowAlways.
	Choice uint8
	// Reason explains a Deny to the model.
	Reason string
	// By names who answered.
	By string
	// Scope is where an AllowAlways answer grants the approval's
	// AlwaysRules; zero means ScopeSession.
	Scope Scope

	at time.Time // when Memory recorded it
}

// Approval is a call waiting for a person.
type Approval struct {
	// ID is the approval's ticket: unique, unguessable.
	ID      string
	Session string
	// Project and User are the keys a project- or user-scoped grant of
	// this approval's rules uses; empty when that scope is not offered.
	Project, User string
	Tool          string
	Input         json.RawMessage
	// Agent names the agent that made the call: "lead", or a subagent's
	// name; empty when the asker does not know it.
	Agent string
	// Script is, for a shell call, the script the tool would run (the
	// input's command field), and Commands its simple commands, each with
	// its own verdict: those that Ask are what made the call ask. Both
	// are empty for other tools.
	Script   string
	Commands []ApprovalCommand
	// Reason says why the call needs approval; Explanation is the
	// layer-by-layer account of the decision.
	Reason      string
	Explanation string
	// AlwaysRules are the rules an AllowAlways answer grants; empty when
	// AllowAlways is not offered.
	AlwaysRules []string
	// Answerers name who may answer; empty means anyone the page admits.
	Answerers []string
	Created   time.Time
	Expires   time.Time
	// Answered reports an answer; Answer is it.
	Answered bool
	Answer   Answer
}

// ApprovalCommand is one simple command of a shell call awaiting approval.
type ApprovalCommand struct {
	// Args is the argv as bash would see it.
	Args []string `json:"args"`
	// Pos is where the command starts in the script, "line:col" (both
	// from 1, the column in bytes).
	Pos string `json:"pos,omitempty"`
	// Asks reports that this command is why the call asks (its verdict
	// is Ask); Reason says why, in the words of the layer that decided.
	Asks   bool   `json:"asks,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Approvals keeps pending and answered approvals.
type Approvals interface {
	// PutApproval records a new pending approval; an id in use is
	// ErrExists.
	PutApproval(ctx context.Context, a Approval) error
	// Approval returns one approval (ErrNotFound if unknown).
	Approval(ctx context.Context, id string) (Approval, error)
	// Pending lists the unanswered, unexpired approvals, oldest first.
	Pending(ctx context.Context) ([]Approval, error)
	// AnswerApproval records the first answer: a later one is
	// ErrAnswered, one after the expiry ErrExpired. An AllowAlways
	// answer adds the approval's AlwaysRules as grants of its scope in
	// the same step.
	AnswerApproval(ctx context.Context, id string, ans Answer) error
}

// Cancels keeps cancelled sessions.
type Cancels interface {
	// CancelSession records that session is cancelled; the first reason
	// stands.
	CancelSession(ctx context.Context, session, reason string) error
	// Cancelled returns the reason session was cancelled, if it was.
	Cancelled(ctx context.Context, session string) (reason string, ok bool, err error)
}

// Counters are a session's layer-7 counters, kept so that another worker
// can carry the session on. Recent holds the recent calls in the
// pipeline's own encoding.
type Counters struct {
	Step, Tokens, StepTokens, LowRun, CompactFails int
	Recent                                         [][]byte
}

// CounterStore keeps layer-7 counters.
type CounterStore interface {
	SaveCounters(ctx context.Context, session string, c Counters) error
	Counters(ctx context.Context, session string) (Counters, bool, error)
}

// EventKind says what changed.
type EventKind uint8

const (
	// GrantAdded: Scope and Key got a grant.
	GrantAdded EventKind = iota + 1
	// ApprovalAdded: approval ID is pending.
	ApprovalAdded
	// ApprovalAnswered: approval ID has its answer.
	ApprovalAnswered
	// SessionCancelled: session Key was cancelled.
	SessionCancelled
	// Resync: changes may have been missed (a lost connection); reload
	// everything cached.
	Resync
	// Lost: the store no longer hears of the changes made elsewhere (its
	// listening connection was lost): what is cached may be stale until
	// the Resync that follows once it hears again. A pipeline denies calls
	// in between, since a cancellation may have gone unheard.
	Lost
)

// Event tells that something changed, on this process or another.
type Event struct {
	Kind  EventKind
	Scope Scope
	Key   string
	ID    string
}

// Store is every kind of state, and its changes.
type Store interface {
	Grants
	Approvals
	Cancels
	CounterStore
	// Watch calls fn, on a goroutine of the store's, for each change
	// after Watch returns, until stop is called. fn must not block long.
	Watch(fn func(Event)) (stop func())
}
