// Package faultproxy is a TCP proxy on loopback that tests put between a
// store and its database to make the network fail on demand: stall (stop
// forwarding, connections stay open), drop (close every connection) or
// reset (abort every connection with a TCP RST).
package faultproxy

import (
	"bytes"
	"io"
	"net"
	"sync"
	"testing"
)

// Proxy forwards connections on Addr to a target. It is safe for
// concurrent use.
type Proxy struct {
	ln     net.Listener
	target string

	mu       sync.Mutex
	conns    map[*link]struct{}
	stallNew bool
	accepted int
}

// link is one proxied connection: the client's and the target's ends.
type link struct {
	client, server net.Conn
	mu             sync.Mutex
	cond           *sync.Cond
	stalled        bool
	listens        bool // the client sent a LISTEN statement on it
}

// Which selects connections.
type Which uint8

const (
	// All is every open connection.
	All Which = iota
	// Listeners are the connections on which the client sent a LISTEN
	// statement (PostgreSQL's change feed).
	Listeners
	// Others are the rest: the pool's connections.
	Others
)

func (l *link) is(w Which) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return w == All || (w == Listeners) == l.listens
}

// Start listens on a loopback port and forwards to target until the test
// ends.
func Start(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("faultproxy: %v", err)
	}
	p := &Proxy{ln: ln, target: target, conns: map[*link]struct{}{}}
	go p.accept()
	t.Cleanup(p.close)
	return p
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Accepted counts the connections accepted so far.
func (p *Proxy) Accepted() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.accepted
}

func (p *Proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		l := &link{client: c, server: s}
		l.cond = sync.NewCond(&l.mu)
		p.mu.Lock()
		p.accepted++
		l.stalled = p.stallNew
		p.conns[l] = struct{}{}
		p.mu.Unlock()
		go l.pipe(s, c, true)
		go l.pipe(c, s, false)
	}
}

// pipe copies src to dst, holding what it read while the link is
// stalled.
func (l *link) pipe(dst, src net.Conn, fromClient bool) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			l.mu.Lock()
			if fromClient && bytes.Contains(buf[:n], []byte("LISTEN ")) {
				l.listens = true
			}
			for l.stalled {
				l.cond.Wait()
			}
			l.mu.Unlock()
			if _, werr := dst.Write(buf[:n]); werr != nil {
				break
			}
		}
		if err != nil {
			if err == io.EOF {
				if tc, ok := dst.(*net.TCPConn); ok {
					_ = tc.CloseWrite()
					return
				}
			}
			break
		}
	}
	l.client.Close()
	l.server.Close()
}

func (l *link) setStalled(v bool) {
	l.mu.Lock()
	l.stalled = v
	l.mu.Unlock()
	l.cond.Broadcast()
}

func (p *Proxy) links(w Which) []*link {
	p.mu.Lock()
	ls := make([]*link, 0, len(p.conns))
	for l := range p.conns {
		ls = append(ls, l)
	}
	p.mu.Unlock()
	out := ls[:0]
	for _, l := range ls {
		if l.is(w) {
			out = append(out, l)
		}
	}
	return out
}

// Stall stops forwarding on every connection, those open now and those
// accepted later, until Resume: a database behind a proxy that stopped
// forwarding.
func (p *Proxy) Stall() {
	p.mu.Lock()
	p.stallNew = true
	p.mu.Unlock()
	for _, l := range p.links(All) {
		l.setStalled(true)
	}
}

// StallOpen stops forwarding on the connections of w open now, for good;
// later ones are forwarded: connections a NAT or a firewall forgot.
func (p *Proxy) StallOpen(w Which) {
	for _, l := range p.links(w) {
		l.setStalled(true)
	}
}

// Resume forwards again on every connection.
func (p *Proxy) Resume() {
	p.mu.Lock()
	p.stallNew = false
	p.mu.Unlock()
	for _, l := range p.links(All) {
		l.setStalled(false)
	}
}

// Drop closes the open connections of w at both ends.
func (p *Proxy) Drop(w Which) { p.end(w, false) }

// Reset aborts the open connections of w with a TCP RST at both ends.
func (p *Proxy) Reset(w Which) { p.end(w, true) }

func (p *Proxy) end(w Which, rst bool) {
	ls := p.links(w)
	p.mu.Lock()
	for _, l := range ls {
		delete(p.conns, l)
	}
	p.mu.Unlock()
	for _, l := range ls {
		for _, c := range []net.Conn{l.client, l.server} {
			if tc, ok := c.(*net.TCPConn); ok && rst {
				_ = tc.SetLinger(0)
			}
			c.Close()
		}
		l.setStalled(false) // the pipes see the closed ends and return
	}
}

func (p *Proxy) close() {
	p.ln.Close()
	p.end(All, false)
}
