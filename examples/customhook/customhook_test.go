package customhook_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/examples/customhook"
	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/hooks/hookstest"
	"github.com/toolgate/toolgate/permission"
)

var noForcePush = customhook.BlockPattern("no-force-push", regexp.MustCompile(`^Bash$`),
	regexp.MustCompile(`git push[^"]*(--force|-f\b)`), "force pushes are not allowed")

func TestRedactionConformance(t *testing.T) { hookstest.Run(t, customhook.Redaction()) }

func TestBlockPatternConformance(t *testing.T) { hookstest.Run(t, noForcePush) }

func TestRedactMasksSecrets(t *testing.T) {
	cases := []struct{ in, want string }{
		{"key AKIAIOSFODNN7EXAMPLE in env", "key AKIA**************** in env"},
		{"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = ****"},
		{"GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789", "GITHUB_TOKEN=ghp_****"},
		{"Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc", "Authorization: Bearer ****"},
		{`password="hunter2" user=bob`, "password=**** user=bob"},
		{"nothing to see", "nothing to see"},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, customhook.Redact(tc.in), tc.in)
	}
}

func TestRedactionInAChain(t *testing.T) {
	var rec hookstest.Recorder
	s := hooks.NewSet(customhook.Redaction(), rec.Hook())
	defer s.Close()
	o := s.PostToolUse(context.Background(), hookstest.PostToolUse("Bash", `{"command":"env"}`, "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nHOME=/root"))
	require.NoError(t, o.Err)
	assert.Equal(t, "AWS_ACCESS_KEY_ID=AKIA****************\nHOME=/root", o.Output)
	seen := hookstest.Payloads[hooks.PostToolUseEvent](&rec)
	require.Len(t, seen, 1)
	assert.Equal(t, o.Output, seen[0].Output, "hooks after the redaction (an audit log, say) see the masked output")
}

func TestBlockPattern(t *testing.T) {
	s := hooks.NewSet(noForcePush)
	defer s.Close()
	ctx := context.Background()

	o := s.PreToolUse(ctx, hookstest.PreToolUse("Bash", `{"command":"git push --force origin main"}`))
	assert.Equal(t, permission.Deny, o.Decision)
	assert.Equal(t, `force pushes are not allowed (input matches git push[^"]*(--force|-f\b))`, o.Reason)
	assert.Equal(t, "no-force-push", o.Hook)

	o = s.PreToolUse(ctx, hookstest.PreToolUse("Bash", `{"command":"git push origin main"}`))
	assert.Equal(t, permission.Allow, o.Decision)
	assert.Empty(t, o.Reason)

	o = s.PreToolUse(ctx, hookstest.PreToolUse("Write", `{"file_path":"notes.md","content":"never git push --force"}`))
	assert.Equal(t, permission.Allow, o.Decision, "only Bash is watched")
}

func Example() {
	s := hooks.NewSet(noForcePush, customhook.Redaction())
	defer s.Close()
	ctx := context.Background()

	pre := s.PreToolUse(ctx, hookstest.PreToolUse("Bash", `{"command":"git push -f"}`))
	fmt.Println(pre.Decision, "by", pre.Hook)

	post := s.PostToolUse(ctx, hookstest.PostToolUse("Bash", `{"command":"cat .env"}`, "token=s3cr3t"))
	fmt.Println(post.Output)
	// Output:
	// deny by no-force-push
	// token=****
}
