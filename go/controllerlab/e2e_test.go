package controllerlab_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/go/controllerlab"
)

// End to end: a real controller-runtime manager against the simulated cluster, wrapped with the
// one line a user adds, reporting to a fake Controller Lab over a Unix socket.

// mirrorReconciler copies a labelled ConfigMap's data into "<name>-mirror", owned by the source.
// data.mode makes it misbehave on purpose: error, terminal, panic, later (requeue after an hour).
type mirrorReconciler struct {
	client client.Client
}

func (r *mirrorReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var src corev1.ConfigMap
	if err := r.client.Get(ctx, req.NamespacedName, &src); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if src.Labels["mirror"] != "source" {
		return reconcile.Result{}, nil
	}
	switch src.Data["mode"] {
	case "error":
		return reconcile.Result{}, errors.New("mode error: try again")
	case "terminal":
		return reconcile.Result{}, reconcile.TerminalError(errors.New("mode terminal: will not work"))
	case "panic":
		panic("kaboom")
	}
	mirror := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: src.Namespace, Name: src.Name + "-mirror"}}
	if _, err := controllerutil.CreateOrUpdate(ctx, r.client, mirror, func() error {
		mirror.Data = map[string]string{"a": src.Data["a"]}
		return controllerutil.SetControllerReference(&src, mirror, r.client.Scheme())
	}); err != nil {
		return reconcile.Result{}, err
	}
	logf.FromContext(ctx).Info("mirrored", "mirror", mirror.Name, "keys", len(mirror.Data))
	if src.Data["mode"] == "later" {
		return reconcile.Result{RequeueAfter: time.Hour}, nil
	}
	return reconcile.Result{}, nil
}

// startMirror builds the manager as a user's main.go does, with controllerlab.Wrap added.
func startMirror(t *testing.T, cfg *rest.Config, namespace, name string) (manager.Manager, context.CancelFunc, chan error) {
	t.Helper()
	return startWrapped(t, cfg, namespace, func(mgr manager.Manager) error {
		return ctrl.NewControllerManagedBy(mgr).
			Named(name).
			For(&corev1.ConfigMap{}).
			Owns(&corev1.ConfigMap{}).
			Complete(&mirrorReconciler{client: mgr.GetClient()})
	})
}

// startWrapped starts a manager caching one namespace, wrapped, with the controllers build adds.
func startWrapped(t *testing.T, cfg *rest.Config, namespace string, build func(mgr manager.Manager) error) (manager.Manager, context.CancelFunc, chan error) {
	t.Helper()
	logf.SetLogger(logr.Discard())
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:  clientgoscheme.Scheme,
		Metrics: metricsserver.Options{BindAddress: "0"},
		Cache:   cache.Options{DefaultNamespaces: map[string]cache.Config{namespace: {}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	mgr = controllerlab.Wrap(mgr)
	if err := build(mgr); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			t.Error("the manager did not stop within 15 s")
		}
	})
	return mgr, cancel, done
}

func newNamespace(t *testing.T, c client.Client, prefix string) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", prefix, time.Now().UnixNano()%1_000_000)}}
	if err := c.Create(context.Background(), ns); err != nil {
		t.Fatal(err)
	}
	return ns.Name
}

func directClient(t *testing.T, cfg *rest.Config) client.Client {
	t.Helper()
	c, err := client.New(cfg, client.Options{Scheme: clientgoscheme.Scheme})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func hasTrigger(r *record, typ, key, rv, via string) bool {
	for _, tr := range r.Trigger {
		if tr.Type == typ && tr.Key == key && tr.ResourceVersion == rv && tr.Via == via {
			return true
		}
	}
	return false
}

func startOf(key string, match func(r *record) bool) func(m *message) bool {
	return func(m *message) bool {
		return m.Type == "reconcileStart" && m.Record != nil && m.Record.Key == key && match(m.Record)
	}
}

func endOf(id string) func(m *message) bool {
	return func(m *message) bool { return m.Type == "reconcileEnd" && m.End != nil && m.End.ReconcileID == id }
}

// setData changes the source ConfigMap's data and returns its new resourceVersion.
func setData(t *testing.T, c client.Client, namespace, name string, data map[string]string) string {
	t.Helper()
	var cm corev1.ConfigMap
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: namespace, Name: name}, &cm); err != nil {
		t.Fatal(err)
	}
	cm.Data = data
	if err := c.Update(context.Background(), &cm); err != nil {
		t.Fatal(err)
	}
	return cm.ResourceVersion
}

func serverRV(t *testing.T, c client.Client, namespace, name string) string {
	t.Helper()
	var cm corev1.ConfigMap
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: namespace, Name: name}, &cm); err != nil {
		t.Fatal(err)
	}
	return cm.ResourceVersion
}

func TestReportsReconcilesTriggersWritesAndQueue(t *testing.T) {
	cfg := simConfig(t)
	c := directClient(t, cfg)
	ns := newNamespace(t, c, "mirror")
	parent := newFakeParent(t, map[string]string{controllerlab.EnvMirrorCache: "1"})
	startMirror(t, cfg, ns, "configmap-mirror")

	ready := parent.waitFor("ready", func(m *message) bool { return m.Type == "ready" })
	if got := string(ready.Controller); !strings.Contains(got, `"name":"configmap-mirror"`) ||
		!strings.Contains(got, `"forKind":{"apiVersion":"v1","kind":"ConfigMap"}`) ||
		!strings.Contains(got, `"owns":[{"apiVersion":"v1","kind":"ConfigMap"}]`) || !strings.Contains(got, `"workers":1`) {
		t.Errorf("ready says %s", got)
	}
	// Where a line debugger's Step Into lands: this file's mirrorReconciler.Reconcile.
	if got := string(ready.Controller); !strings.Contains(got, `"function":"github.com/controller-lab/controller-lab/go/controllerlab_test.(*mirrorReconciler).Reconcile"`) ||
		!strings.Contains(got, `e2e_test.go","line":`) {
		t.Errorf("ready does not name the reconciler: %s", got)
	}
	if parent.helloField("language") != "go" || parent.helloField("protocol") != float64(controllerlab.ProtocolVersion) {
		t.Errorf("hello: language %v, protocol %v", parent.helloField("language"), parent.helloField("protocol"))
	}
	parent.waitFor("synced", func(m *message) bool { return m.Type == "synced" })
	parent.waitFor("a synced probe for configmaps", func(m *message) bool {
		return m.Type == "probe" && m.Probe["kind"] == "synced" && m.Probe["informer"] == "configmaps" && m.Probe["resourceVersion"] != ""
	})

	// A new source ConfigMap: its ADDED event triggers a reconcile that creates the mirror.
	src := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "web", Labels: map[string]string{"mirror": "source"}},
		Data:       map[string]string{"a": "1"},
	}
	if err := c.Create(context.Background(), src); err != nil {
		t.Fatal(err)
	}
	key := ns + "/web"
	first := parent.waitFor("the reconcile of the new ConfigMap", startOf(key, func(r *record) bool { return hasTrigger(r, "ADDED", key, src.ResourceVersion, "for") })).Record
	if first.Controller != "configmap-mirror" || first.ForKind["kind"] != "ConfigMap" || first.Request["namespace"] != ns || first.Request["name"] != "web" || first.Worker != 1 || first.Seq < 1 {
		t.Errorf("record: %+v", first)
	}
	if first.ObjectResourceVersion != src.ResourceVersion || first.Object["kind"] != "ConfigMap" || first.Object["apiVersion"] != "v1" {
		t.Errorf("the cached object at start: rv %s (want %s), kind %v, apiVersion %v", first.ObjectResourceVersion, src.ResourceVersion, first.Object["kind"], first.Object["apiVersion"])
	}
	if len(first.ReconcileID) != 36 {
		t.Errorf("reconcileId %q is not controller-runtime's UUID", first.ReconcileID)
	}
	if compareRV(first.CacheResourceVersion, src.ResourceVersion) < 0 || first.CacheSeq < 1 {
		t.Errorf("cache position: rv %s, seq %d", first.CacheResourceVersion, first.CacheSeq)
	}
	end := parent.waitFor("its end", endOf(first.ReconcileID)).End
	mirrorRV := serverRV(t, c, ns, "web-mirror")
	if len(end.Writes) != 1 || end.Writes[0].Verb != "create" || end.Writes[0].Kind != "ConfigMap" || end.Writes[0].APIVersion != "v1" ||
		end.Writes[0].Namespace != ns || end.Writes[0].Name != "web-mirror" || end.Writes[0].ResourceVersion != mirrorRV {
		t.Errorf("writes %+v, want one create of web-mirror answered with rv %s", end.Writes, mirrorRV)
	}
	if end.Outcome.Kind != "success" || end.Decision.Action != "forget" || end.DurationMs <= 0 || end.Seq != first.Seq {
		t.Errorf("end: %+v", end)
	}
	// What the reconcile logged through log.FromContext(ctx), as that reconcile's log lines.
	logged := parent.waitFor("its log line", func(m *message) bool {
		return m.Type == "log" && strings.Contains(string(m.Raw), `"reconcileId":"`+first.ReconcileID+`"`)
	})
	if logged.Line["level"] != "info" || logged.Line["message"] != "mirrored" || logged.Line["fields"].(map[string]any)["mirror"] != "web-mirror" || logged.Line["fields"].(map[string]any)["keys"] != float64(1) {
		t.Errorf("log line %s", logged.Raw)
	}

	// The mirror's own ADDED event comes back through Owns to its owner, and is forwarded as a
	// delta with the object (mirroring is on).
	parent.waitFor("the reconcile the mirror's creation triggered", startOf(key, func(r *record) bool { return hasTrigger(r, "ADDED", ns+"/web-mirror", mirrorRV, "owns") }))
	d := parent.waitFor("the mirror's delta", func(m *message) bool {
		return m.Type == "delta" && m.Delta.Key == ns+"/web-mirror" && m.Delta.ResourceVersion == mirrorRV
	}).Delta
	if d.Type != "ADDED" || d.Kind != "ConfigMap" || d.Object["data"].(map[string]any)["a"] != "1" || d.Object["kind"] != "ConfigMap" {
		t.Errorf("delta %+v", d)
	}

	// An update: MODIFIED with the new resourceVersion; the mirror is updated and its new RV reported.
	rv2 := setData(t, c, ns, "web", map[string]string{"a": "2"})
	second := parent.waitFor("the reconcile of the update", startOf(key, func(r *record) bool { return hasTrigger(r, "MODIFIED", key, rv2, "for") })).Record
	end = parent.waitFor("its end", endOf(second.ReconcileID)).End
	if len(end.Writes) != 1 || end.Writes[0].Verb != "update" || end.Writes[0].ResourceVersion != serverRV(t, c, ns, "web-mirror") {
		t.Errorf("writes %+v", end.Writes)
	}

	// RequeueAfter: the decision, and the key waiting in the queue for the reason "after".
	rv3 := setData(t, c, ns, "web", map[string]string{"a": "2", "mode": "later"})
	later := parent.waitFor("the reconcile that asks for later", startOf(key, func(r *record) bool { return hasTrigger(r, "MODIFIED", key, rv3, "for") })).Record
	end = parent.waitFor("its end", endOf(later.ReconcileID)).End
	if end.Decision.Action != "addAfter" || end.Decision.DelayMs != float64(time.Hour/time.Millisecond) || end.Outcome.Result["requeueAfter"] != float64(time.Hour/time.Millisecond) {
		t.Errorf("requeueAfter end: %+v", end)
	}
	parent.waitFor("the key waiting an hour", func(m *message) bool {
		k := queueKeyIn(m, key)
		return k != nil && k.State == "waiting" && k.Reason == "after" && k.ReadyAt > time.Now().Add(50*time.Minute).UnixMilli() && k.BackoffMs != nil && *k.BackoffMs == float64(time.Hour/time.Millisecond)
	})

	// An error: retried with backoff; the retries show in the queue and come back as REQUEUE triggers.
	rv4 := setData(t, c, ns, "web", map[string]string{"a": "2", "mode": "error"})
	failing := parent.waitFor("the failing reconcile", startOf(key, func(r *record) bool { return hasTrigger(r, "MODIFIED", key, rv4, "for") })).Record
	end = parent.waitFor("its end", endOf(failing.ReconcileID)).End
	if end.Outcome.Kind != "error" || end.Outcome.Error.Message != "mode error: try again" || end.Outcome.Error.Terminal || end.Decision.Action != "addRateLimited" || end.Decision.Reason != "error" {
		t.Errorf("error end: %+v", end)
	}
	parent.waitFor("a retry", startOf(key, func(r *record) bool {
		return r.Seq > failing.Seq && len(r.Trigger) == 1 && r.Trigger[0].Type == "REQUEUE" && r.Trigger[0].Via == "requeue"
	}))
	parent.waitFor("the key backing off after retries", func(m *message) bool {
		k := queueKeyIn(m, key)
		return k != nil && k.State == "waiting" && k.Reason == "backoff" && k.Retries >= 1 && k.BackoffMs != nil && *k.BackoffMs > 0
	})

	// A terminal error: reported, not retried.
	rv5 := setData(t, c, ns, "web", map[string]string{"a": "2", "mode": "terminal"})
	terminal := parent.waitFor("the terminal reconcile", startOf(key, func(r *record) bool { return hasTrigger(r, "MODIFIED", key, rv5, "for") })).Record
	end = parent.waitFor("its end", endOf(terminal.ReconcileID)).End
	if !end.Outcome.Error.Terminal || end.Outcome.Error.Name != "TerminalError" || end.Decision.Action != "forgetTerminal" {
		t.Errorf("terminal end: %+v", end)
	}

	// A panic, as controller-runtime reports it (recovered, then retried).
	rv6 := setData(t, c, ns, "web", map[string]string{"a": "2", "mode": "panic"})
	panicking := parent.waitFor("the panicking reconcile", startOf(key, func(r *record) bool { return hasTrigger(r, "MODIFIED", key, rv6, "for") })).Record
	end = parent.waitFor("its end", endOf(panicking.ReconcileID)).End
	if end.Outcome.Error.Message != "panic: kaboom [recovered]" || end.Outcome.Error.Name != "Panic" || !strings.Contains(end.Outcome.Error.Stack, "mirrorReconciler") || end.Decision.Action != "addRateLimited" {
		t.Errorf("panic end: %+v", end)
	}
	setData(t, c, ns, "web", map[string]string{"a": "3"})
	parent.waitFor("idle once the panics stop", func(m *message) bool { return m.Type == "idle" && m.Idle != nil && *m.Idle })
}

func queueKeyIn(m *message, key string) *queueKey {
	if m.Type != "queue" || m.Snapshot == nil {
		return nil
	}
	return m.Snapshot.key(key)
}

func TestHoldsEachReconcileUntilTheParentProceeds(t *testing.T) {
	cfg := simConfig(t)
	c := directClient(t, cfg)
	ns := newNamespace(t, c, "gated")
	parent := newFakeParent(t, map[string]string{controllerlab.EnvGated: "1"})
	_, _, done := startMirror(t, cfg, ns, "configmap-mirror-gated")
	parent.waitFor("synced", func(m *message) bool { return m.Type == "synced" })

	src := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "held", Labels: map[string]string{"mirror": "source"}}, Data: map[string]string{"a": "1"}}
	if err := c.Create(context.Background(), src); err != nil {
		t.Fatal(err)
	}
	key := ns + "/held"
	// Every new namespace holds the cluster's kube-root-ca.crt ConfigMap: its reconcile is held
	// first, and is let go here.
	released := map[string]bool{}
	var start *message
	for start == nil {
		m := parent.waitFor("the held reconcile", func(m *message) bool {
			return m.Type == "reconcileStart" && !released[m.Record.ReconcileID]
		})
		if m.Record.Key == key {
			start = m
			break
		}
		released[m.Record.ReconcileID] = true
		if m.Gated {
			parent.proceed(m.Record.ReconcileID)
		}
	}
	if !start.Gated {
		t.Fatalf("reconcileStart says gated=false")
	}
	if start.Record.Goroutine == 0 {
		t.Errorf("a held reconcile names no goroutine")
	}
	parent.waitFor("the key processing while held", func(m *message) bool {
		k := queueKeyIn(m, key)
		return k != nil && k.State == "processing"
	})
	// Held: the reconciler has not run, so no mirror, however long we look.
	for i := 0; i < 5; i++ {
		var mirror corev1.ConfigMap
		if err := c.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: "held-mirror"}, &mirror); !apierrors.IsNotFound(err) {
			t.Fatalf("the mirror exists while the reconcile is held (err %v)", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	parent.proceed(start.Record.ReconcileID)
	end := parent.waitFor("its end", endOf(start.Record.ReconcileID)).End
	if len(end.Writes) != 1 || end.Writes[0].Name != "held-mirror" || end.Writes[0].ResourceVersion != serverRV(t, c, ns, "held-mirror") {
		t.Errorf("writes after proceed: %+v", end.Writes)
	}

	// The next reconcile (of the new mirror, or of its owner through Owns) is held too; the parent
	// going away releases it and stops the manager, which returns as after a signal.
	parent.waitFor("the next held reconcile", func(m *message) bool {
		return m.Type == "reconcileStart" && m.Record.ReconcileID != start.Record.ReconcileID && !released[m.Record.ReconcileID] && m.Gated
	})
	parent.close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("mgr.Start returned %v after the parent went away", err)
		}
		done <- err
	case <-time.After(15 * time.Second):
		t.Fatal("the manager kept running after Controller Lab went away")
	}
}

func compareRV(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}
