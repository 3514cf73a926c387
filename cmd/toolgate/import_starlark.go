package main

import (
	"fmt"
	"strconv"
	"strings"
)

// A reader of the Starlark that policy files of call-only languages
// (Codex's .rules) are written in: a sequence of top-level calls
// name(arg, key = value, …) whose values are strings, lists, None, True
// or False. Anything else is an error naming its line.

// starValue is one literal value.
type starValue struct {
	// str is set for a string.
	str *string
	// list is non-nil for a list (empty lists too).
	list []starValue
	// ident is None, True or False.
	ident string
	line  int
}

func (v starValue) text() (string, bool) {
	if v.str == nil {
		return "", false
	}
	return *v.str, true
}

func (v starValue) isNone() bool { return v.ident == "None" }

// starCall is one top-level call.
type starCall struct {
	name  string
	line  int
	pos   []starValue
	named []string
	kw    []starValue
}

// bind matches a call's arguments to the function's parameters, in
// positional order; an unknown, repeated or surplus argument is an error.
func (c starCall) bind(params []string) (map[string]starValue, error) {
	if params == nil {
		return nil, fmt.Errorf("line %d: unknown function %s", c.line, c.name)
	}
	args := map[string]starValue{}
	if len(c.pos) > len(params) {
		return nil, fmt.Errorf("line %d: %s takes at most %d positional arguments", c.line, c.name, len(params))
	}
	for i, v := range c.pos {
		args[params[i]] = v
	}
	for i, k := range c.named {
		known := false
		for _, p := range params {
			known = known || p == k
		}
		if !known {
			return nil, fmt.Errorf("line %d: %s has no parameter %s", c.kw[i].line, c.name, k)
		}
		if _, dup := args[k]; dup {
			return nil, fmt.Errorf("line %d: %s given twice", c.kw[i].line, k)
		}
		args[k] = c.kw[i]
	}
	return args, nil
}

type starTok struct {
	kind byte // 'i' ident, 's' string, or the punctuation itself; 0 at the end
	text string
	line int
}

type starLexer struct {
	src  string
	off  int
	line int
}

func (l *starLexer) next() (starTok, error) {
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == '\n':
			l.line++
			l.off++
		case c == ' ' || c == '\t' || c == '\r':
			l.off++
		case c == '\\' && strings.HasPrefix(l.src[l.off:], "\\\n"):
			l.line++
			l.off += 2
		case c == '#':
			for l.off < len(l.src) && l.src[l.off] != '\n' {
				l.off++
			}
		default:
			return l.token()
		}
	}
	return starTok{line: l.line}, nil
}

func (l *starLexer) token() (starTok, error) {
	start, line := l.off, l.line
	c := l.src[l.off]
	switch {
	case strings.IndexByte("()[],=", c) >= 0:
		l.off++
		return starTok{kind: c, text: string(c), line: line}, nil
	case c == '"' || c == '\'':
		s, err := l.str(false)
		return starTok{kind: 's', text: s, line: line}, err
	case (c == 'r' || c == 'R') && l.off+1 < len(l.src) && (l.src[l.off+1] == '"' || l.src[l.off+1] == '\''):
		l.off++
		s, err := l.str(true)
		return starTok{kind: 's', text: s, line: line}, err
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		for l.off < len(l.src) {
			c := l.src[l.off]
			if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				break
			}
			l.off++
		}
		if l.off < len(l.src) && (l.src[l.off] == '"' || l.src[l.off] == '\'') {
			return starTok{}, fmt.Errorf("line %d: %s-prefixed strings are not read (only plain and r strings)", line, l.src[start:l.off])
		}
		return starTok{kind: 'i', text: l.src[start:l.off], line: line}, nil
	}
	return starTok{}, fmt.Errorf("line %d: %q is outside the Starlark toolgate reads (top-level calls of strings and lists)", line, c)
}

// str reads a quoted string at l.off, in single or double quotes, one or
// three of them.
func (l *starLexer) str(raw bool) (string, error) {
	line := l.line
	q := l.src[l.off : l.off+1]
	if strings.HasPrefix(l.src[l.off:], q+q+q) {
		q = q + q + q
	}
	l.off += len(q)
	var b strings.Builder
	for {
		if l.off >= len(l.src) {
			return "", fmt.Errorf("line %d: string not closed", line)
		}
		if strings.HasPrefix(l.src[l.off:], q) {
			l.off += len(q)
			return b.String(), nil
		}
		c := l.src[l.off]
		switch {
		case c == '\n' && len(q) == 1:
			return "", fmt.Errorf("line %d: string not closed at the end of the line", line)
		case c == '\n':
			l.line++
			b.WriteByte(c)
			l.off++
		case c == '\\' && l.off+1 < len(l.src):
			e := l.src[l.off+1]
			if raw {
				b.WriteByte(c)
				b.WriteByte(e)
				if e == '\n' {
					l.line++
				}
				l.off += 2
				continue
			}
			l.off += 2
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '\\', '\'', '"':
				b.WriteByte(e)
			case '\n':
				l.line++
			case 'x', 'u', 'U':
				n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
				if l.off+n > len(l.src) {
					return "", fmt.Errorf("line %d: short \\%c escape", l.line, e)
				}
				v, err := strconv.ParseUint(l.src[l.off:l.off+n], 16, 32)
				if err != nil {
					return "", fmt.Errorf("line %d: bad \\%c escape", l.line, e)
				}
				b.WriteRune(rune(v))
				l.off += n
			default:
				return "", fmt.Errorf("line %d: escape \\%c is not read", l.line, e)
			}
		default:
			b.WriteByte(c)
			l.off++
		}
	}
}

type starParser struct {
	lex starLexer
	tok starTok
}

func (p *starParser) advance() error {
	t, err := p.lex.next()
	p.tok = t
	return err
}

func (p *starParser) expect(kind byte) error {
	if p.tok.kind != kind {
		return fmt.Errorf("line %d: want %q, found %s", p.tok.line, kind, p.found())
	}
	return p.advance()
}

func (p *starParser) found() string {
	switch p.tok.kind {
	case 0:
		return "the end of the file"
	case 's':
		return "a string"
	}
	return strconv.Quote(p.tok.text)
}

// parseStarlarkCalls reads src as a sequence of top-level calls.
func parseStarlarkCalls(src string) ([]starCall, error) {
	p := &starParser{lex: starLexer{src: src, line: 1}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	var calls []starCall
	for p.tok.kind != 0 {
		if p.tok.kind != 'i' {
			return nil, fmt.Errorf("line %d: want a call, found %s", p.tok.line, p.found())
		}
		c := starCall{name: p.tok.text, line: p.tok.line}
		if err := p.advance(); err != nil {
			return nil, err
		}
		if p.tok.kind != '(' {
			return nil, fmt.Errorf("line %d: only calls are read at the top level, found %s after %s", p.tok.line, p.found(), c.name)
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		for p.tok.kind != ')' {
			var key string
			if p.tok.kind == 'i' && !isStarConst(p.tok.text) {
				key = p.tok.text
				if err := p.advance(); err != nil {
					return nil, err
				}
				if err := p.expect('='); err != nil {
					return nil, err
				}
			}
			v, err := p.value(0)
			if err != nil {
				return nil, err
			}
			if key == "" {
				if len(c.named) > 0 {
					return nil, fmt.Errorf("line %d: positional argument after a named one", v.line)
				}
				c.pos = append(c.pos, v)
			} else {
				c.named, c.kw = append(c.named, key), append(c.kw, v)
			}
			if p.tok.kind != ',' {
				break
			}
			if err := p.advance(); err != nil {
				return nil, err
			}
		}
		if err := p.expect(')'); err != nil {
			return nil, err
		}
		calls = append(calls, c)
	}
	return calls, nil
}

func isStarConst(s string) bool { return s == "None" || s == "True" || s == "False" }

// starMaxDepth bounds how deep lists may nest.
const starMaxDepth = 16

func (p *starParser) value(depth int) (starValue, error) {
	t := p.tok
	switch {
	case t.kind == 's':
		s := t.text
		// Adjacent strings are not joined in Starlark; one string is one value.
		return starValue{str: &s, line: t.line}, p.advance()
	case t.kind == 'i' && isStarConst(t.text):
		return starValue{ident: t.text, line: t.line}, p.advance()
	case t.kind == '[':
		if depth >= starMaxDepth {
			return starValue{}, fmt.Errorf("line %d: lists nested too deep", t.line)
		}
		v := starValue{list: []starValue{}, line: t.line}
		if err := p.advance(); err != nil {
			return v, err
		}
		for p.tok.kind != ']' {
			el, err := p.value(depth + 1)
			if err != nil {
				return v, err
			}
			v.list = append(v.list, el)
			if p.tok.kind != ',' {
				break
			}
			if err := p.advance(); err != nil {
				return v, err
			}
		}
		return v, p.expect(']')
	}
	return starValue{}, fmt.Errorf("line %d: want a string, a list, None, True or False, found %s (only literals are read)", t.line, p.found())
}
