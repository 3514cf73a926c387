package runtime

import (
	"bytes"
	"hash/maphash"

	"github.com/toolgate/toolgate/runtime/store"
)

// counters returns the session's layer-7 counters for a store. Each recent
// call is encoded as its tool, a zero byte, a flag byte ('r' raw, 'l'
// hashed, 'c' canonical) and its body or sum.
func (s *Session) counters() store.Counters {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := store.Counters{Step: s.step, Tokens: s.tokens, StepTokens: s.stepTokens, LowRun: s.lowRun, CompactFails: s.compactFails}
	c.Recent = make([][]byte, len(s.recent))
	for i := range s.recent {
		k := &s.recent[i]
		b := append([]byte(k.tool), 0)
		switch {
		case k.long:
			b = append(b, 'l')
			if k.raw {
				b[len(b)-1] = 'L'
			}
			b = append(b, k.sum[:]...)
		case k.raw:
			b = append(append(b, 'r'), k.body...)
		default:
			b = append(append(b, 'c'), k.body...)
		}
		c.Recent[i] = b
	}
	return c
}

// restoreCounters takes the counters another worker saved. Recent calls it
// cannot decode are dropped.
func (s *Session) restoreCounters(c store.Counters) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.step, s.tokens, s.stepTokens, s.lowRun, s.compactFails = max(c.Step, 0), max(c.Tokens, 0), max(c.StepTokens, 0), max(c.LowRun, 0), max(c.CompactFails, 0)
	s.lastStatusOK = false
	recent := c.Recent
	if n := cap(s.recent); len(recent) > n {
		recent = recent[len(recent)-n:]
	}
	s.recent = s.recent[:0]
	for _, b := range recent {
		i := bytes.IndexByte(b, 0)
		if i < 0 || i+1 >= len(b) {
			continue
		}
		tool, flag, body := string(b[:i]), b[i+1], b[i+2:]
		var k callKey
		k.tool = tool
		switch flag {
		case 'l', 'L':
			if len(body) != len(k.sum) {
				continue
			}
			k.long, k.raw = true, flag == 'L'
			copy(k.sum[:], body)
			k.quick = maphash.Bytes(s.seed, k.sum[:]) ^ maphash.String(s.seed, tool)
		case 'r', 'c':
			k.raw = flag == 'r'
			k.body = bytes.Clone(body)
			k.quick = maphash.Bytes(s.seed, k.body) ^ maphash.String(s.seed, tool)
		default:
			continue
		}
		s.recent = append(s.recent, k)
	}
}
