package controllerlab

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// The JSON the parent reads must be exactly the TypeScript vocabulary (src/controllerProtocol/:
// protocol.ts, records.ts, reconcileOutcome.ts): these tests pin field names, optional fields and units (milliseconds).

func encode(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReconcileStartEncodesAsTheTypeScriptRecord(t *testing.T) {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web", ResourceVersion: "42"}, Data: map[string]string{"a": "1"}}
	rec := &ReconcileRecord{
		Seq: 3, ReconcileID: "id-3", Controller: "mirror", Worker: 1,
		ForKind: KindRef{APIVersion: "v1", Kind: "ConfigMap"}, Key: "shop/web",
		Request: ReconcileRequest{Namespace: "shop", Name: "web"},
		Trigger: []TriggerDelta{{Type: "MODIFIED", Kind: "ConfigMap", APIVersion: "v1", Key: "shop/web", ResourceVersion: "42", Via: "for", At: 1000}},
		Object:  newKubeObject(cm, schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}), ObjectResourceVersion: "42",
		CacheResourceVersion: "43", CacheSeq: 7, StartedAt: 1001, Writes: []WriteRecord{}, Logs: []LogLine{},
	}
	got := encode(t, reconcileStartMessage{Type: "reconcileStart", Record: rec, Gated: true})
	want := `{"type":"reconcileStart","record":{"seq":3,"reconcileId":"id-3","controller":"mirror","worker":1,"forKind":{"apiVersion":"v1","kind":"ConfigMap"},` +
		`"key":"shop/web","request":{"namespace":"shop","name":"web"},` +
		`"trigger":[{"type":"MODIFIED","kind":"ConfigMap","apiVersion":"v1","key":"shop/web","resourceVersion":"42","via":"for","at":1000}],` +
		`"object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web","namespace":"shop","resourceVersion":"42"},"data":{"a":"1"}},` +
		`"objectResourceVersion":"42","cacheResourceVersion":"43","cacheSeq":7,"startedAt":1001,"writes":[],"logs":[]},"gated":true}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if cm.APIVersion != "" || cm.Kind != "" {
		t.Errorf("encoding changed the cached object: %s/%s", cm.APIVersion, cm.Kind)
	}
}

func TestAnObjectThatCarriesItsKindIsEncodedAsIs(t *testing.T) {
	cm := &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: metav1.ObjectMeta{Name: "x"}}
	got := encode(t, newKubeObject(cm, schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}))
	if got != `{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"x"}}` {
		t.Errorf("got %s", got)
	}
}

func TestReconcileEndEncodesOutcomeAndDecisionInMilliseconds(t *testing.T) {
	cases := []struct {
		name    string
		res     reconcile.Result
		err     error
		stack   string
		outcome string
		action  string
	}{
		{"success", reconcile.Result{}, nil, "", `{"kind":"success","result":{}}`, `{"action":"forget"}`},
		{"requeueAfter", reconcile.Result{RequeueAfter: 1500 * time.Millisecond}, nil, "", `{"kind":"success","result":{"requeueAfter":1500}}`, `{"action":"addAfter","delayMs":1500}`},
		{"requeue", reconcile.Result{Requeue: true}, nil, "", `{"kind":"success","result":{"requeue":true}}`, `{"action":"addRateLimited","reason":"requeue"}`},
		{"error wins over requeueAfter", reconcile.Result{RequeueAfter: time.Second}, errors.New("boom"), "", `{"kind":"error","error":{"name":"Error","message":"boom","terminal":false}}`, `{"action":"addRateLimited","reason":"error"}`},
		{"terminal", reconcile.Result{}, reconcile.TerminalError(errors.New("bad")), "", `{"kind":"error","error":{"name":"TerminalError","message":"terminal error: bad","terminal":true}}`, `{"action":"forgetTerminal"}`},
		{"api error", reconcile.Result{}, fmt.Errorf("update: %w", apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, "web", errors.New("stale"))), "", `{"kind":"error","error":{"name":"Conflict","message":"update: Operation cannot be fulfilled on configmaps \"web\": stale","terminal":false}}`, `{"action":"addRateLimited","reason":"error"}`},
		{"panic", reconcile.Result{}, errors.New("panic: x [recovered]"), "goroutine 1", `{"kind":"error","error":{"name":"Panic","message":"panic: x [recovered]","stack":"goroutine 1","terminal":false}}`, `{"action":"addRateLimited","reason":"error"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := encode(t, outcomeOf(tc.res, tc.err, tc.stack)); got != tc.outcome {
				t.Errorf("outcome %s, want %s", got, tc.outcome)
			}
			if got := encode(t, decide(tc.res, tc.err)); got != tc.action {
				t.Errorf("decision %s, want %s", got, tc.action)
			}
		})
	}
	end := ReconcileEnd{ReconcileID: "r", Seq: 1, DurationMs: 2.5, Writes: []WriteRecord{{Verb: "updateStatus", APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web", ResourceVersion: "9", At: 5, DurationMs: 1.25}, {Verb: "create", APIVersion: "v1", Kind: "ConfigMap", Name: "x", Error: &WriteError{Code: 409, Reason: "AlreadyExists", Message: "exists"}, At: 6, DurationMs: 1}}, Outcome: outcomeOf(reconcile.Result{}, nil, ""), Decision: decide(reconcile.Result{}, nil)}
	got := encode(t, reconcileEndMessage{Type: "reconcileEnd", End: end})
	want := `{"type":"reconcileEnd","end":{"reconcileId":"r","seq":1,"durationMs":2.5,"writes":[` +
		`{"verb":"updateStatus","apiVersion":"apps/v1","kind":"Deployment","namespace":"shop","name":"web","resourceVersion":"9","at":5,"durationMs":1.25},` +
		`{"verb":"create","apiVersion":"v1","kind":"ConfigMap","name":"x","error":{"code":409,"reason":"AlreadyExists","message":"exists"},"at":6,"durationMs":1}],` +
		`"outcome":{"kind":"success","result":{}},"decision":{"action":"forget"}}}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestStaleReadsAndUnchangedWritesEncodeAsAdditions(t *testing.T) {
	unchanged := false
	end := ReconcileEnd{ReconcileID: "r", Seq: 8, Writes: []WriteRecord{{Verb: "update", APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "web", ResourceVersion: "12", PreviousResourceVersion: "12", Changed: &unchanged, At: 5}},
		Outcome: outcomeOf(reconcile.Result{}, nil, ""), Decision: decide(reconcile.Result{}, nil),
		StaleReads: []StaleRead{
			{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "web", ReadResourceVersion: "11", WroteResourceVersion: "12", WroteBy: 7, Verb: "update"},
			{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "new", NotFound: true, WroteResourceVersion: "13", WroteBy: 8, Verb: "create"},
		}}
	got := encode(t, reconcileEndMessage{Type: "reconcileEnd", End: end})
	want := `{"type":"reconcileEnd","end":{"reconcileId":"r","seq":8,"durationMs":0,"writes":[` +
		`{"verb":"update","apiVersion":"v1","kind":"ConfigMap","namespace":"shop","name":"web","resourceVersion":"12","at":5,"durationMs":0,"previousResourceVersion":"12","changed":false}],` +
		`"outcome":{"kind":"success","result":{}},"decision":{"action":"forget"},"staleReads":[` +
		`{"apiVersion":"v1","kind":"ConfigMap","namespace":"shop","name":"web","readResourceVersion":"11","wroteResourceVersion":"12","wroteBy":7,"verb":"update"},` +
		`{"apiVersion":"v1","kind":"ConfigMap","namespace":"shop","name":"new","notFound":true,"wroteResourceVersion":"13","wroteBy":8,"verb":"create"}]}}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestQueueDeltaProbeReadyAndIdleEncoding(t *testing.T) {
	backoff := 40.0
	items := 3
	cases := map[string]struct {
		v    any
		want string
	}{
		"queue": {queueMessage{Type: "queue", Controller: "mirror", Snapshot: QueueSnapshot{At: 9, Depth: 1, Waiting: 1, Keys: []QueueKeySnapshot{
			{Key: "a/x", State: "queued", Retries: 0},
			{Key: "a/y", State: "waiting", Retries: 2, ReadyAt: 49, BackoffMs: &backoff, Reason: "backoff"},
		}}}, `{"type":"queue","controller":"mirror","snapshot":{"at":9,"depth":1,"processing":0,"waiting":1,"keys":[{"key":"a/x","state":"queued","retries":0},{"key":"a/y","state":"waiting","retries":2,"readyAt":49,"backoffMs":40,"reason":"backoff"}]}}`},
		"empty queue":  {queueMessage{Type: "queue", Snapshot: QueueSnapshot{Keys: []QueueKeySnapshot{}}}, `{"type":"queue","snapshot":{"at":0,"depth":0,"processing":0,"waiting":0,"keys":[]}}`},
		"delta":        {deltaMessage{Type: "delta", Delta: CacheDelta{Seq: 4, Type: "DELETED", APIVersion: "v1", Kind: "ConfigMap", Key: "a/x", ResourceVersion: "12"}}, `{"type":"delta","delta":{"seq":4,"type":"DELETED","apiVersion":"v1","kind":"ConfigMap","key":"a/x","resourceVersion":"12"}}`},
		"synced probe": {probeMessage{Type: "probe", Probe: Probe{At: 1, Informer: "deployments.apps", Kind: "synced", ResourceVersion: "10", Items: &items}}, `{"type":"probe","probe":{"at":1,"informer":"deployments.apps","kind":"synced","resourceVersion":"10","items":3}}`},
		"event probe":  {probeMessage{Type: "probe", Probe: Probe{At: 1, Informer: "configmaps", Kind: "event", Type: "ADDED", Key: "a/x", ResourceVersion: "11"}}, `{"type":"probe","probe":{"at":1,"informer":"configmaps","kind":"event","type":"ADDED","key":"a/x","resourceVersion":"11"}}`},
		"ready":        {readyMessage{Type: "ready", Controller: ControllerShape{Name: "m", ForKind: KindRef{"v1", "ConfigMap"}, Owns: []KindRef{}, Watches: []KindRef{{"apps/v1", "Deployment"}}, Workers: 2}}, `{"type":"ready","controller":{"name":"m","forKind":{"apiVersion":"v1","kind":"ConfigMap"},"owns":[],"watches":[{"apiVersion":"apps/v1","kind":"Deployment"}],"workers":2}}`},
		"idle":         {idleMessage{Type: "idle", Idle: true}, `{"type":"idle","idle":true}`},
		"log":          {logMessage{Type: "log", ReconcileID: "r", Line: LogLine{Level: "info", Message: "hi", Fields: map[string]any{"n": 1}, At: 2}}, `{"type":"log","reconcileId":"r","line":{"level":"info","message":"hi","fields":{"n":1},"at":2}}`},
	}
	for name, tc := range cases {
		if got := encode(t, tc.v); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, tc.want)
		}
	}
}

func TestResourceVersionsCompareAsTheServerIssuesThem(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"9", "10", -1}, {"10", "9", 1}, {"42", "42", 0}, {"5", "", 1}, {"", "", 0}, {"007", "7", 0}, {"123456789012345678901234567890", "99", 1}, {"b", "a", 1}} {
		if got := compareResourceVersions(tc.a, tc.b); got != tc.want {
			t.Errorf("compare(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestSocketAddressesAreLoopbackOrUnixOnly(t *testing.T) {
	for addr, want := range map[string]string{
		"/tmp/lab.sock":        "unix /tmp/lab.sock",
		"unix:///tmp/lab.sock": "unix /tmp/lab.sock",
		"127.0.0.1:4000":       "tcp 127.0.0.1:4000",
		"tcp://127.0.0.1:4000": "tcp 127.0.0.1:4000",
		"[::1]:4000":           "tcp [::1]:4000",
		"localhost:4000":       "tcp localhost:4000",
		"10.0.0.1:4000":        "error",
		"example.com:4000":     "error",
		"not an address":       "error",
	} {
		network, address, err := parseSocketAddress(addr)
		got := network + " " + address
		if err != nil {
			got = "error"
		}
		if got != want {
			t.Errorf("%q: got %q (%v), want %q", addr, got, err, want)
		}
	}
}
