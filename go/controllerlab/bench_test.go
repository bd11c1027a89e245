package controllerlab

import (
	"bufio"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

// What Controller Lab costs a reconcile. Detached (not started by Controller Lab): Wrap returns the
// manager itself, so a reconcile runs exactly the code it runs without Controller Lab. Attached and
// not gated: the whole path of a real controller-runtime controller (event → queue → worker →
// reconcile → done), one reconcile at a time, with everything it reports encoded and written to a
// parent that reads the socket. cpu-ns/op: the process's CPU time per reconcile.
//
//	go test -run '^$' -bench . -benchmem ./controllerlab

// bareManager is just enough of a manager for controller.New: the options and Add.
type bareManager struct {
	manager.Manager
	added []manager.Runnable
}

func (m *bareManager) GetControllerOptions() config.Controller {
	return config.Controller{SkipNameValidation: ptr.To(true)}
}

func (m *bareManager) Add(r manager.Runnable) error {
	m.added = append(m.added, r)
	return nil
}

func noopReconciler() reconcile.Reconciler {
	return reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) { return reconcile.Result{}, nil })
}

func TestDetachedWrapReturnsTheManagerItselfAndStartsNothing(t *testing.T) {
	t.Setenv(EnvSocket, "")
	before := runtime.NumGoroutine()
	mgr := &bareManager{}
	if got := Wrap(mgr); got != manager.Manager(mgr) {
		t.Fatalf("detached Wrap returned %T, want the manager it was given", got)
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("detached Wrap started %d goroutine(s)", after-before)
	}
}

func TestAnUnreachableControllerLabLeavesTheManagerAsItWas(t *testing.T) {
	for _, addr := range []string{filepath.Join(t.TempDir(), "nobody-listens.sock"), "10.1.2.3:4000"} {
		t.Setenv(EnvSocket, addr)
		mgr := &bareManager{}
		if got := Wrap(mgr); got != manager.Manager(mgr) {
			t.Errorf("%s: Wrap returned %T, want the manager it was given", addr, got)
		}
	}
}

func BenchmarkReconcileDetached(b *testing.B) {
	b.Setenv(EnvSocket, "")
	c, err := controller.New("bench-detached", Wrap(&bareManager{}), controller.Options{Reconciler: noopReconciler()})
	if err != nil {
		b.Fatal(err)
	}
	benchmarkReconcileCall(b, c)
}

func BenchmarkReconcileWithoutControllerLab(b *testing.B) {
	c, err := controller.New("bench-without", &bareManager{}, controller.Options{Reconciler: noopReconciler()})
	if err != nil {
		b.Fatal(err)
	}
	benchmarkReconcileCall(b, c)
}

func benchmarkReconcileCall(b *testing.B, c controller.Controller) {
	ctx := context.Background()
	req := reconcile.Request{NamespacedName: namespacedName("shop", "web")}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Reconcile(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// storeInformer is an informer whose store holds the objects a reconcile reads at start.
type storeInformer struct {
	cache.Informer
	store toolscache.Store
}

func (i storeInformer) GetStore() toolscache.Store { return i.store }
func (i storeInformer) HasSynced() bool            { return true }

// drainingParent accepts one connection, checks nothing, and reads everything.
func drainingParent(b *testing.B) string {
	path, ln := benchSocket(b)
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer func() { _ = conn.Close() }()
		_, _ = io.Copy(io.Discard, bufio.NewReader(conn))
	}()
	return path
}

func BenchmarkReconcilePipelineDetached(b *testing.B) {
	benchmarkPipeline(b, false)
}

func BenchmarkReconcilePipelineAttached(b *testing.B) {
	benchmarkPipeline(b, true)
}

func benchmarkPipeline(b *testing.B, attached bool) {
	done := make(chan struct{})
	r := reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
		done <- struct{}{}
		return reconcile.Result{}, nil
	})
	c, err := controller.NewUnmanaged("bench-pipeline-"+strconv.FormatBool(attached), controller.Options{Reconciler: r, SkipNameValidation: ptr.To(true)})
	if err != nil {
		b.Fatal(err)
	}
	const keys = 256
	objects := make([]*corev1.ConfigMap, keys)
	store := toolscache.NewStore(toolscache.MetaNamespaceKeyFunc)
	for i := range objects {
		objects[i] = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-" + strconv.Itoa(i), ResourceVersion: strconv.Itoa(100 + i), Labels: map[string]string{"app": "web"}}, Data: map[string]string{"a": "1", "b": "2"}}
		_ = store.Add(objects[i])
	}
	var s *session
	if attached {
		s, err = dialSession(drainingParent(b), "secret")
		if err != nil {
			b.Fatal(err)
		}
		s.run()
		l := newLab(s, nil, nil)
		l.instrument(c)
		lc := l.controllers[0]
		lc.forInformer = &labInformer{Informer: storeInformer{store: store}, lab: l, informerState: &informerState{gvk: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, name: "configmaps", lastSeen: map[string]seenEvent{}}}
		b.Cleanup(s.close)
	}
	events := make(chan event.GenericEvent)
	if err := c.Watch(source.Channel(events, &handler.EnqueueRequestForObject{})); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = c.Start(ctx) }()
	b.ReportAllocs()
	cpuBefore, cpuKnown := processCPU()
	i := 0
	for b.Loop() {
		events <- event.GenericEvent{Object: client.Object(objects[i%keys])}
		<-done
		i++
	}
	if s != nil {
		// Everything reported is written before the clock stops.
		s.flush(dialTimeout)
	}
	// CPU per reconcile, every goroutine counted (the parent's reading too): on a shared machine
	// wall time also counts the waits for a core between the goroutines handing work over.
	if cpuAfter, ok := processCPU(); ok && cpuKnown && b.N > 0 {
		b.ReportMetric(float64(cpuAfter-cpuBefore)/float64(b.N), "cpu-ns/op")
	}
}

// What checking a reconcile's reads costs: a Get through the manager's client inside a reconcile,
// from a stub cache that copies the object out as controller-runtime's does, without Controller
// Lab, attached with no write in flight, and attached with a write of another object in flight.
//
//	go test -run '^$' -bench CachedGet -benchmem ./controllerlab

// copyingCache answers every Get with a copy of one ConfigMap.
type copyingCache struct {
	client.Client
	cm *corev1.ConfigMap
}

func (s copyingCache) Get(_ context.Context, _ client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
	s.cm.DeepCopyInto(obj.(*corev1.ConfigMap))
	return nil
}

func (s copyingCache) GroupVersionKindFor(obj kruntime.Object) (schema.GroupVersionKind, error) {
	return apiutil.GVKForObject(obj, clientgoscheme.Scheme)
}

func BenchmarkCachedGetWithoutControllerLab(b *testing.B) {
	benchmarkCachedGet(b, newCopyingCache(), context.Background())
}

func BenchmarkCachedGetAttached(b *testing.B) {
	c, _ := attachedCachedGet()
	ctx, _ := reconcileContext(1)
	benchmarkCachedGet(b, c, ctx)
}

func BenchmarkCachedGetAttachedWriteInFlight(b *testing.B) {
	c, l := attachedCachedGet()
	l.written.wrote(configMaps, configMap("other", "99"), "update", 1)
	ctx, _ := reconcileContext(2)
	benchmarkCachedGet(b, c, ctx)
}

func newCopyingCache() copyingCache {
	return copyingCache{cm: &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web", ResourceVersion: "42", Labels: map[string]string{"app": "web"}}, Data: map[string]string{"a": "1", "b": "2"}}}
}

func attachedCachedGet() (*labClient, *lab) {
	l := newLab(newSession(nil, false, false), clientgoscheme.Scheme, nil)
	l.written.watch(configMaps)
	return newLabClient(newCopyingCache(), l), l
}

func benchmarkCachedGet(b *testing.B, c client.Client, ctx context.Context) {
	key := client.ObjectKey{Namespace: "shop", Name: "web"}
	var cm corev1.ConfigMap
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Get(ctx, key, &cm); err != nil {
			b.Fatal(err)
		}
	}
}

// benchSocket listens on a Unix socket in a directory of its own, both gone when the benchmark ends.
func benchSocket(b *testing.B) (string, net.Listener) {
	dir, err := os.MkdirTemp("", "cl-bench-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = os.RemoveAll(dir) })
	path := filepath.Join(dir, "lab.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = ln.Close() })
	return path, ln
}
