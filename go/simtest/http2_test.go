package simtest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// client-go negotiates HTTP/2 with kube-apiserver and multiplexes its requests and watches over
// one connection (250 streams at most on each): so it does with the simulated cluster.

// connCounts are a config's TCP connections: open now, and dialed in all (each a TLS handshake).
type connCounts struct{ open, dialed atomic.Int64 }

// openConns makes cfg dial through a counter of its TCP connections. (Go's transport may dial a
// few more than it keeps when many requests start together: those close at once.)
func openConns(cfg *rest.Config) *connCounts {
	var counts connCounts
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	cfg.Dial = func(ctx context.Context, network, address string) (net.Conn, error) {
		c, err := dialer.DialContext(ctx, network, address)
		if err != nil {
			return nil, err
		}
		counts.dialed.Add(1)
		counts.open.Add(1)
		return &countedConn{Conn: c, open: &counts.open}, nil
	}
	return &counts
}

type countedConn struct {
	net.Conn
	open   *atomic.Int64
	closed sync.Once
}

func (c *countedConn) Close() error {
	c.closed.Do(func() { c.open.Add(-1) })
	return c.Conn.Close()
}

func TestClientGoSpeaksHTTP2(t *testing.T) {
	cfg := rest.CopyConfig(Start(t, &Environment{}))
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := hc.Get(cfg.Host + "/version")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.ProtoMajor != 2 {
		t.Fatalf("GET /version: %s over %s, want 200 over HTTP/2.0", resp.Status, resp.Proto)
	}
}

// 300 watches and the writes they see take two connections (250 streams each), not 300.
func TestWatchesShareConnections(t *testing.T) {
	const watches = 300
	cfg := rest.CopyConfig(Start(t, &Environment{}))
	cfg.QPS, cfg.Burst = -1, 0 // no client-side rate limit: the server's limits are under test
	conns := openConns(cfg)
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	opened := make([]watch.Interface, watches)
	var wg sync.WaitGroup
	errs := make(chan error, watches)
	for i := range opened {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w, err := cs.CoreV1().ConfigMaps("default").Watch(ctx, metav1.ListOptions{})
			if err != nil {
				errs <- err
				return
			}
			opened[i] = w
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("watch: %v", err)
	}
	defer func() {
		for _, w := range opened {
			w.Stop()
		}
	}()

	if _, err := cs.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "seen-by-all"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for i, w := range opened {
		select {
		case ev := <-w.ResultChan():
			if cm, ok := ev.Object.(*corev1.ConfigMap); ev.Type != watch.Added || !ok || cm.Name != "seen-by-all" {
				t.Fatalf("watch %d: got %s %T, want ADDED seen-by-all", i, ev.Type, ev.Object)
			}
		case <-ctx.Done():
			t.Fatalf("watch %d saw no event", i)
		}
	}
	// The connections dialed in the rush and found not needed close at once.
	most := int64((watches + 249) / 250)
	for deadline := time.Now().Add(10 * time.Second); conns.open.Load() > most && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	if got := conns.open.Load(); got > most {
		t.Fatalf("%d watches and a create hold %d connections, want at most %d (HTTP/2, 250 streams each)", watches, got, most)
	}
}

// Not run by `go test`: `go test -run '^$' -bench WriteLatency -benchtime 1x ./simtest` measures how fast creates
// are answered while 2,000 watches are open (and the sim's memory is read from outside).
// Its HTTP1 half is client-go told to offer HTTP/1.1 alone (a watch on each connection).
func BenchmarkWriteLatencyBeside2000Watches(b *testing.B) {
	b.Run("HTTP2", func(b *testing.B) { writeLatencyBeside2000Watches(b, nil) })
	b.Run("HTTP1", func(b *testing.B) { writeLatencyBeside2000Watches(b, []string{"http/1.1"}) })
}

func writeLatencyBeside2000Watches(b *testing.B, nextProtos []string) {
	cfg := rest.CopyConfig(Start(b, &Environment{}))
	cfg.NextProtos = nextProtos
	cfg.QPS, cfg.Burst = -1, 0
	cfg.Timeout = 0
	conns := openConns(cfg)
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	timedCreate := func(name string) (time.Duration, error) {
		start := time.Now()
		_, err := cs.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
		return time.Since(start), err
	}
	create := func(name string) time.Duration {
		d, err := timedCreate(name)
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
	median := func(prefix string) time.Duration {
		ds := make([]time.Duration, 21)
		for i := range ds {
			ds[i] = create(fmt.Sprintf("%s-%d-%d", prefix, b.N, i))
		}
		for i := range ds { // insertion sort: 21 values
			for j := i; j > 0 && ds[j] < ds[j-1]; j-- {
				ds[j], ds[j-1] = ds[j-1], ds[j]
			}
		}
		return ds[len(ds)/2]
	}
	before := median("idle")
	// Creates one after another while the watches open: what a controller's writes wait meanwhile.
	rushDone := make(chan struct{})
	rushWrites := make(chan []time.Duration, 1)
	go func() {
		var ds []time.Duration
		for i := 0; ; i++ {
			select {
			case <-rushDone:
				rushWrites <- ds
				return
			default:
			}
			d, err := timedCreate(fmt.Sprintf("rush-%d-%d", b.N, i))
			if err != nil {
				b.Error(err)
			}
			ds = append(ds, d)
			time.Sleep(10 * time.Millisecond)
		}
	}()
	start := time.Now()
	ws := make([]watch.Interface, 2000)
	var wg sync.WaitGroup
	for i := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w, err := cs.CoreV1().ConfigMaps("default").Watch(ctx, metav1.ListOptions{})
			if err != nil {
				b.Error(err)
				return
			}
			ws[i] = w
			for range w.ResultChan() {
			}
		}()
	}
	// Opened once every watch has its first event (one create seen by all).
	for i := range ws {
		for ws[i] == nil && !b.Failed() {
			time.Sleep(time.Millisecond)
		}
	}
	opening := time.Since(start)
	close(rushDone)
	rush := <-rushWrites
	var slowest, total time.Duration
	for _, d := range rush {
		total += d
		slowest = max(slowest, d)
	}
	during := median("watched")
	b.Logf("2000 watches opened in %s over %d connections (%d dialed); create median %s before, %s beside them", opening, conns.open.Load(), conns.dialed.Load(), before, during)
	b.Logf("%d creates while they opened: mean %s, slowest %s", len(rush), total/time.Duration(max(len(rush), 1)), slowest)
	for _, w := range ws {
		w.Stop()
	}
	wg.Wait()
}
