package runtime

import "context"

// sessionKey is the context key of the session id.
type sessionKey struct{}

// WithSessionID returns a copy of ctx that carries the session id, for
// code that sits between a host's request and the pipeline (a server
// middleware, a tool wrapper) and cannot thread the id through. A [Call]
// whose Session is empty is made in the session ctx names, in
// [Pipeline.Check] and [Pipeline.After].
func WithSessionID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, sessionKey{}, id)
}

// SessionIDFrom returns the session id [WithSessionID] put in ctx.
func SessionIDFrom(ctx context.Context) (string, bool) {
	id, ok := ctx.Value(sessionKey{}).(string)
	return id, ok && id != ""
}
