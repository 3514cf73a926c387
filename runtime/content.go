package runtime

import (
	"encoding/json"
	"strings"
)

// Content is one part of a tool's structured output, as MCP's content
// blocks and structured results are: text, an image or other media, an
// embedded resource, or a JSON value. Give parts to [Pipeline.After] in
// [Run.Content]; [Outcome.Content] is what goes back to the model.
//
// The text parts are those with Text or JSON set: the PostToolUse hooks,
// truncation and token accounting see them, joined by newlines, as the
// call's output. Other parts (an image's Data) pass through unseen.
type Content struct {
	// Type is the part's kind as the host names it: "text", "image",
	// "audio", "resource", "json" (structured output), ...
	Type string
	// Text is a text part's text, or an embedded resource's.
	Text string
	// JSON is a structured result (MCP's structuredContent).
	JSON json.RawMessage
	// Data holds a binary part's bytes; MIMEType says what they are.
	Data     []byte
	MIMEType string
	// URI names a resource.
	URI string
}

// textual reports whether hooks and truncation see c.
func (c *Content) textual() bool { return c.Text != "" || c.JSON != nil }

// text returns what hooks and truncation see of a textual part.
func (c *Content) text() string {
	if c.JSON != nil {
		return string(c.JSON)
	}
	return c.Text
}

// joinText returns the text parts of parts, joined by newlines, preceded
// by lead when it is not empty.
func joinText(lead string, parts []Content) string {
	var b strings.Builder
	if lead != "" {
		b.WriteString(lead)
	}
	for i := range parts {
		if !parts[i].textual() {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(parts[i].text())
	}
	return b.String()
}

// reshape returns the parts that go back to the model once the hooks and
// truncation made final of the text view: the parts as given when the text
// is unchanged; otherwise the final text as one text part in place of
// every text part (a hook that redacts leaves no unredacted copy in a
// structured result), followed by the other parts.
func reshape(lead string, parts []Content, view, final string) []Content {
	if final == view && lead == "" {
		return parts
	}
	out := make([]Content, 0, len(parts)+1)
	out = append(out, Content{Type: "text", Text: final})
	for _, c := range parts {
		if !c.textual() {
			out = append(out, c)
		}
	}
	return out
}
