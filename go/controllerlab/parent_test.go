package controllerlab_test

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/controller-lab/controller-lab/go/controllerlab"
)

// fakeParent plays Controller Lab's side of the connection: it listens on a Unix socket, checks
// the secret the child sends first, and keeps every message for the test to wait on.
type fakeParent struct {
	t      *testing.T
	ln     net.Listener
	secret string

	mu     sync.Mutex
	cond   *sync.Cond
	conn   net.Conn
	msgs   []message
	closed bool
	hello  map[string]any
}

// message is one line from the child, decoded loosely (the test's own view of the vocabulary).
type message struct {
	Type     string          `json:"type"`
	Raw      json.RawMessage `json:"-"`
	Record   *record         `json:"record"`
	Gated    bool            `json:"gated"`
	End      *reconcileEnd   `json:"end"`
	Snapshot *queueSnapshot  `json:"snapshot"`
	Probe    map[string]any  `json:"probe"`
	Delta    *delta          `json:"delta"`
	Idle     *bool           `json:"idle"`
	Line     map[string]any  `json:"line"`
	Fate     *fate           `json:"fate"`
	// fates: a batch of them (fatebatch.go), which the parent reads as one fate message each.
	Data string `json:"data"`
	// ready: the controller's shape; queue: the controller's name.
	Controller json.RawMessage `json:"controller"`
}

type trigger struct {
	Type, Kind, APIVersion, Key, ResourceVersion, Via string
	At                                                int64
}

type fate struct {
	Controller, Type, Kind, Key, ResourceVersion, Via string
	Fate, Request, Predicate, KeyState                string
	BackoffMs                                         *float64
}

type record struct {
	Seq                   int64
	ReconcileID           string `json:"reconcileId"`
	Controller            string
	Worker                int
	ForKind               map[string]string
	Key                   string
	Request               map[string]string
	Trigger               []trigger
	Object                map[string]any
	ObjectResourceVersion string
	CacheResourceVersion  string
	CacheSeq              int64
	StartedAt             int64
	Goroutine             uint64
}

type write struct {
	Verb, APIVersion, Kind, Namespace, Name, ResourceVersion string
	PreviousResourceVersion                                  string
	Changed                                                  *bool
	Error                                                    map[string]any
	DurationMs                                               float64
}

type staleRead struct {
	APIVersion, Kind, Namespace, Name, ReadResourceVersion, WroteResourceVersion, Verb string
	NotFound                                                                           bool
	WroteBy                                                                            int64
}

type reconcileEnd struct {
	ReconcileID string `json:"reconcileId"`
	Seq         int64
	DurationMs  float64
	Writes      []write
	Outcome     struct {
		Kind   string
		Result map[string]any
		Error  struct {
			Name, Message, Stack string
			Terminal             bool
		}
	}
	Decision struct {
		Action, Reason string
		DelayMs        float64
	}
	StaleReads []staleRead
}

type queueKey struct {
	Key, State, Reason string
	Retries            int
	ReadyAt            int64
	BackoffMs          *float64
	Dirty              bool
}

type queueSnapshot struct {
	At                         int64
	Depth, Processing, Waiting int
	Keys                       []queueKey
}

type delta struct {
	Seq                                          int64
	Type, APIVersion, Kind, Key, ResourceVersion string
	Object                                       map[string]any
}

func (s *queueSnapshot) key(k string) *queueKey {
	for i := range s.Keys {
		if s.Keys[i].Key == k {
			return &s.Keys[i]
		}
	}
	return nil
}

// fateMessages is a batch of fates as one message each.
func fateMessages(data string) []message {
	var out []message
	for _, f := range controllerlab.DecodeFateBatch(data) {
		out = append(out, message{Type: "fate", Fate: &fate{Controller: f.Controller, Type: f.Type, Kind: f.Kind, Key: f.Key, ResourceVersion: f.ResourceVersion, Via: f.Via, Fate: f.Fate, Request: f.Request, Predicate: f.Predicate, KeyState: f.KeyState, BackoffMs: f.BackoffMs}})
	}
	return out
}

// newFakeParent listens and sets the environment Wrap reads (restored when the test ends).
func newFakeParent(t *testing.T, env map[string]string) *fakeParent {
	t.Helper()
	// Unix socket paths are limited to ~100 bytes: a short directory, not t.TempDir().
	dir, err := os.MkdirTemp("", "cl-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	path := filepath.Join(dir, "lab.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	p := &fakeParent{t: t, ln: ln, secret: hex.EncodeToString(b)}
	p.cond = sync.NewCond(&p.mu)
	t.Setenv(controllerlab.EnvSocket, path)
	t.Setenv(controllerlab.EnvSecret, p.secret)
	for k, v := range env {
		t.Setenv(k, v)
	}
	go p.accept()
	t.Cleanup(p.close)
	return p
}

func (p *fakeParent) accept() {
	conn, err := p.ln.Accept()
	if err != nil {
		return
	}
	p.mu.Lock()
	p.conn = conn
	p.mu.Unlock()
	scanner := bufio.NewScanner(conn)
	scanner.Buffer(make([]byte, 0, 64<<10), 16<<20)
	first := true
	for scanner.Scan() {
		line := append([]byte(nil), scanner.Bytes()...)
		if first {
			first = false
			var hello map[string]any
			if json.Unmarshal(line, &hello) != nil || hello["type"] != "hello" || hello["secret"] != p.secret {
				p.t.Errorf("the first line must be a hello with the secret, got %s", line)
				_ = conn.Close()
				break
			}
			p.mu.Lock()
			p.hello = hello
			p.mu.Unlock()
			continue
		}
		var m message
		if err := json.Unmarshal(line, &m); err != nil {
			p.t.Errorf("not a JSON line: %s: %v", line, err)
			continue
		}
		m.Raw = line
		p.mu.Lock()
		if m.Type == "fates" {
			p.msgs = append(p.msgs, fateMessages(m.Data)...)
		} else {
			p.msgs = append(p.msgs, m)
		}
		p.cond.Broadcast()
		p.mu.Unlock()
	}
	p.mu.Lock()
	p.closed = true
	p.cond.Broadcast()
	p.mu.Unlock()
}

// waitFor returns the first message (from the start) that matches, waiting up to 30 s.
func (p *fakeParent) waitFor(what string, match func(m *message) bool) *message {
	p.t.Helper()
	return p.waitForAfter(0, what, match)
}

// mark is how many messages arrived so far: waitForAfter and matching look past it.
func (p *fakeParent) mark() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.msgs)
}

// matching is every message past from that matches, as received so far.
func (p *fakeParent) matching(from int, match func(m *message) bool) []message {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []message
	for i := from; i < len(p.msgs); i++ {
		if match(&p.msgs[i]) {
			out = append(out, p.msgs[i])
		}
	}
	return out
}

// waitForAfter returns the first message past from that matches, waiting up to 30 s.
func (p *fakeParent) waitForAfter(from int, what string, match func(m *message) bool) *message {
	p.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	timer := time.AfterFunc(30*time.Second, func() { p.mu.Lock(); p.cond.Broadcast(); p.mu.Unlock() })
	defer timer.Stop()
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := from; ; p.cond.Wait() {
		for ; i < len(p.msgs); i++ {
			if match(&p.msgs[i]) {
				m := p.msgs[i]
				return &m
			}
		}
		if p.closed || time.Now().After(deadline) {
			var types []string
			for _, m := range p.msgs {
				types = append(types, m.Type)
			}
			p.t.Fatalf("no message %s among %d received (%s); connection closed: %v", what, len(p.msgs), strings.Join(types, ","), p.closed)
		}
	}
}

func (p *fakeParent) send(v any) {
	p.t.Helper()
	p.mu.Lock()
	conn := p.conn
	p.mu.Unlock()
	line, _ := json.Marshal(v)
	if _, err := conn.Write(append(line, '\n')); err != nil {
		p.t.Fatalf("send %s: %v", line, err)
	}
}

func (p *fakeParent) proceed(reconcileID string) {
	p.send(map[string]any{"type": "proceed", "reconcileId": reconcileID})
}

// resync asks every controller to reconcile every object of its For kind again.
func (p *fakeParent) resync() {
	p.send(map[string]any{"type": "resync"})
}

func (p *fakeParent) close() {
	_ = p.ln.Close()
	p.mu.Lock()
	conn := p.conn
	p.mu.Unlock()
	if conn != nil {
		_ = conn.Close()
	}
}

func (p *fakeParent) helloField(name string) any {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hello[name]
}

func (m *message) String() string { return fmt.Sprintf("%s %s", m.Type, m.Raw) }
