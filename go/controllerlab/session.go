package controllerlab

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The connection to the parent: dialled once, the secret sent first, then messages in order on one
// writer goroutine (encoding happens there, off the reconcile path) and commands read on another.
// When the parent goes away, every held reconcile is released and the manager is told to stop, so
// a closed debug session never leaves a controller behind.

// Environment variables the parent (Controller Lab's CLI or extension) sets.
const (
	// EnvSocket is where the parent listens: a Unix socket path (optionally "unix:" prefixed) or a
	// loopback "host:port" (optionally "tcp:" prefixed). Absent: Wrap does nothing.
	EnvSocket = "CONTROLLER_LAB_SOCKET"
	// EnvSecret is the per-run secret sent first, so nothing else on the machine can pose as the child.
	EnvSecret = "CONTROLLER_LAB_SECRET"
	// EnvGated: "1" holds every reconcile before it runs until the parent sends `proceed`.
	EnvGated = "CONTROLLER_LAB_GATED"
	// EnvMirrorCache: "1" sends every cached object with its delta (the parent's cache history).
	EnvMirrorCache = "CONTROLLER_LAB_MIRROR_CACHE"
	// EnvReconcileSeq and EnvDeltaSeq are the last seqs of the process this one replaces (the
	// parent killed it and started this one within the same session): numbering goes on from them,
	// so the session's records stay unique.
	EnvReconcileSeq = "CONTROLLER_LAB_RECONCILE_SEQ"
	EnvDeltaSeq     = "CONTROLLER_LAB_DELTA_SEQ"
	// EnvHoldWrites: "1" holds the goroutine of each successful write a reconcile makes until the
	// parent sends `writeSeen` (see writehold.go). Set when the program runs under a line debugger.
	EnvHoldWrites = "CONTROLLER_LAB_HOLD_WRITES"
)

const dialTimeout = 5 * time.Second

type session struct {
	conn   net.Conn
	gated  bool
	mirror bool
	// Successful writes in a reconcile wait for the parent's `writeSeen` (EnvHoldWrites).
	holdWrites bool

	mu      sync.Mutex
	pending []any
	// The batch fates join until the writer takes it. Fates keep their order among themselves; a
	// fate may reach the parent before a message sent just ahead of it, which no reader minds.
	openFates *fateBatch
	// Controllers whose queue changed since their last snapshot; the writer sends one each.
	dirtyQueues map[*labController]struct{}
	wake        chan struct{}

	gateMu sync.Mutex
	gates  map[string]chan struct{}

	closeOnce sync.Once
	closed    chan struct{}
	// Called once when the parent asks to stop or goes away.
	onClose func()
	// Called when the parent asks for a resync.
	onResync func()
	// Builds the queue snapshots and the idle state on the writer goroutine.
	snapshots func(dirty map[*labController]struct{}) []any
	// A handler took in an event since the last handled report, and what builds the next one.
	handledDirty bool
	handled      func() any
}

// flushMarker is queued by flush; the writer closes it once everything before it is written.
type flushMarker chan struct{}

func parseSocketAddress(addr string) (network, address string, err error) {
	switch {
	case strings.HasPrefix(addr, "unix:"):
		return "unix", strings.TrimPrefix(strings.TrimPrefix(addr, "unix:"), "//"), nil
	case strings.HasPrefix(addr, "tcp:"):
		addr = strings.TrimPrefix(strings.TrimPrefix(addr, "tcp:"), "//")
	case strings.HasPrefix(addr, "/") || strings.HasPrefix(addr, "."):
		return "unix", addr, nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", "", fmt.Errorf("%s=%q is neither a Unix socket path nor host:port", EnvSocket, addr)
	}
	ip := net.ParseIP(host)
	if host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return "", "", fmt.Errorf("%s=%q: only loopback addresses are accepted", EnvSocket, addr)
	}
	return "tcp", addr, nil
}

// envSeq is a seq the parent passed (0 when absent or not a number).
func envSeq(name string) int64 {
	n, err := strconv.ParseInt(os.Getenv(name), 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

func envFlag(name string) bool {
	v := strings.ToLower(os.Getenv(name))
	return v == "1" || v == "true" || v == "yes"
}

// dialSession connects to the parent and sends the hello with the secret.
func dialSession(addr, secret string) (*session, error) {
	network, address, err := parseSocketAddress(addr)
	if err != nil {
		return nil, err
	}
	conn, err := net.DialTimeout(network, address, dialTimeout)
	if err != nil {
		return nil, fmt.Errorf("cannot reach Controller Lab at %s: %w", addr, err)
	}
	s := newSession(conn, envFlag(EnvGated), envFlag(EnvMirrorCache))
	s.holdWrites = envFlag(EnvHoldWrites)
	hello := helloMessage{Type: "hello", Secret: secret, Protocol: ProtocolVersion, Language: "go", PID: os.Getpid(), ControllerRuntime: controllerRuntimeVersion()}
	line, _ := json.Marshal(hello)
	if _, err := conn.Write(append(line, '\n')); err != nil {
		_ = conn.Close()
		return nil, fmt.Errorf("cannot talk to Controller Lab at %s: %w", addr, err)
	}
	return s, nil
}

func newSession(conn net.Conn, gated, mirror bool) *session {
	return &session{
		conn:        conn,
		gated:       gated,
		mirror:      mirror,
		dirtyQueues: map[*labController]struct{}{},
		wake:        make(chan struct{}, 1),
		gates:       map[string]chan struct{}{},
		closed:      make(chan struct{}),
		onClose:     func() {},
		onResync:    func() {},
		snapshots:   func(map[*labController]struct{}) []any { return nil },
		handled:     func() any { return nil },
	}
}

// run starts the writer and the reader. Both end when the connection closes.
func (s *session) run() {
	go s.writeLoop()
	go s.readLoop()
}

func controllerRuntimeVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, dep := range info.Deps {
		if dep.Path == "sigs.k8s.io/controller-runtime" {
			return dep.Version
		}
	}
	return ""
}

// send queues a message; it never blocks on the connection.
func (s *session) send(message any) {
	s.mu.Lock()
	s.pending = append(s.pending, message)
	s.mu.Unlock()
	s.signal()
}

// sendFate adds a fate to the open batch (see fatebatch.go), queued where its first fate came.
func (s *session) sendFate(f *EventFate) {
	s.mu.Lock()
	b := s.openFates
	if b == nil {
		b = &fateBatch{}
		s.openFates = b
		s.pending = append(s.pending, b)
	}
	b.add(f)
	s.mu.Unlock()
	s.signal()
}

// takeFates closes a batch for writing: later fates start another.
func (s *session) takeFates(b *fateBatch) fatesMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.openFates == b {
		s.openFates = nil
	}
	return b.message()
}

// handledChanged asks for a handled report after the next queue snapshots.
func (s *session) handledChanged() {
	s.mu.Lock()
	s.handledDirty = true
	s.mu.Unlock()
	s.signal()
}

// queueChanged asks for a snapshot of this controller's queue with the next write.
func (s *session) queueChanged(c *labController) {
	s.mu.Lock()
	s.dirtyQueues[c] = struct{}{}
	s.mu.Unlock()
	s.signal()
}

func (s *session) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// flush waits until everything queued so far is written (or the connection is gone, or timeout).
func (s *session) flush(timeout time.Duration) {
	m := make(flushMarker)
	s.send(m)
	select {
	case <-m:
	case <-s.closed:
	case <-time.After(timeout):
	}
}

func (s *session) writeLoop() {
	w := bufio.NewWriterSize(s.conn, 64<<10)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	broken := false
	write := func(m any) {
		if b, ok := m.(*fateBatch); ok {
			m = s.takeFates(b)
		}
		if marker, ok := m.(flushMarker); ok {
			if !broken {
				broken = w.Flush() != nil
			}
			close(marker)
			return
		}
		if broken {
			return
		}
		if err := enc.Encode(m); err != nil {
			var ve *json.UnsupportedValueError
			var te *json.UnsupportedTypeError
			var me *json.MarshalerError
			if errors.As(err, &ve) || errors.As(err, &te) || errors.As(err, &me) {
				// One unencodable object must not end the stream.
				_ = enc.Encode(logMessage{Type: "log", Line: LogLine{Level: "error", Message: fmt.Sprintf("controller-lab: cannot encode a %T message: %v", m, err), At: nowMs()}})
				return
			}
			broken = true
		}
	}
	for {
		select {
		case <-s.wake:
		case <-s.closed:
			s.drainMarkers()
			return
		}
		for {
			s.mu.Lock()
			batch := s.pending
			s.pending = nil
			var dirty map[*labController]struct{}
			if len(s.dirtyQueues) > 0 {
				dirty = s.dirtyQueues
				s.dirtyQueues = map[*labController]struct{}{}
			}
			handled := s.handledDirty
			s.handledDirty = false
			s.mu.Unlock()
			if len(batch) == 0 && len(dirty) == 0 && !handled {
				break
			}
			for _, m := range batch {
				write(m)
			}
			if len(dirty) > 0 {
				for _, m := range s.snapshots(dirty) {
					write(m)
				}
			}
			if handled {
				if m := s.handled(); m != nil {
					write(m)
				}
			}
		}
		if !broken {
			broken = w.Flush() != nil
		}
		if broken {
			s.close()
		}
	}
}

// drainMarkers releases anyone waiting in flush after the connection closed.
func (s *session) drainMarkers() {
	s.mu.Lock()
	batch := s.pending
	s.pending = nil
	s.mu.Unlock()
	for _, m := range batch {
		if marker, ok := m.(flushMarker); ok {
			close(marker)
		}
	}
}

func (s *session) readLoop() {
	defer s.close()
	scanner := bufio.NewScanner(s.conn)
	scanner.Buffer(make([]byte, 0, 4096), 1<<20)
	for scanner.Scan() {
		var m parentMessage
		if json.Unmarshal(scanner.Bytes(), &m) != nil {
			continue
		}
		switch m.Type {
		case "proceed":
			s.open(m.ReconcileID)
		case "writeSeen":
			s.open(writeHoldID(m.ReconcileID, m.Index))
		case "resync":
			s.onResync()
		case "shutdown":
			return
		}
	}
}

// close ends the session once: releases every held reconcile and tells the manager to stop.
func (s *session) close() {
	s.closeOnce.Do(func() {
		close(s.closed)
		_ = s.conn.Close()
		s.gateMu.Lock()
		for id, ch := range s.gates {
			close(ch)
			delete(s.gates, id)
		}
		s.gateMu.Unlock()
		s.onClose()
	})
}

// hold registers a gate for a reconcile before its start message goes out.
func (s *session) hold(reconcileID string) chan struct{} {
	ch := make(chan struct{})
	s.gateMu.Lock()
	defer s.gateMu.Unlock()
	select {
	case <-s.closed:
		close(ch)
	default:
		s.gates[reconcileID] = ch
	}
	return ch
}

func (s *session) open(reconcileID string) {
	s.gateMu.Lock()
	defer s.gateMu.Unlock()
	if ch, ok := s.gates[reconcileID]; ok {
		close(ch)
		delete(s.gates, reconcileID)
	}
}

// wait blocks until the parent lets the reconcile run, the parent goes away, or ctx ends.
func (s *session) wait(ctx context.Context, reconcileID string, gate chan struct{}) {
	select {
	case <-gate:
	case <-ctx.Done():
		s.gateMu.Lock()
		delete(s.gates, reconcileID)
		s.gateMu.Unlock()
	}
}

func nowMs() int64 {
	return time.Now().UnixMilli()
}

func msOf(d time.Duration) float64 {
	return float64(d) / float64(time.Millisecond)
}
