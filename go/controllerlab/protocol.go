package controllerlab

import (
	"bytes"
	"encoding/json"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The controller-host protocol, child → parent, as src/controllerProtocol/ defines it (protocol.ts,
// records.ts, reconcileOutcome.ts) for the TypeScript host: one JSON object per line, each with a `type`. The Go side speaks the
// same vocabulary so the parent (CLI runner, debug adapter, extension) needs no Go-specific logic;
// field names and optionality below follow the TypeScript types one to one. Fields the TypeScript
// types do not have (a queue snapshot's controller, a write's subresource) are additions a parent
// that does not know them ignores.

// ProtocolVersion is sent in the hello message so a parent can refuse a child it does not understand.
const ProtocolVersion = 1

// KindRef names a kind as the TypeScript side does ({ apiVersion, kind }).
type KindRef struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
}

func kindRefOf(gvk schema.GroupVersionKind) KindRef {
	return KindRef{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind}
}

// ControllerShape is what `ready` says about one controller.
type ControllerShape struct {
	Name    string    `json:"name"`
	ForKind KindRef   `json:"forKind"`
	Owns    []KindRef `json:"owns"`
	Watches []KindRef `json:"watches"`
	Workers int       `json:"workers"`
	// Reconciler is the user's Reconcile function (for a line debugger's Step Into).
	Reconciler *ReconcilerFunc `json:"reconciler,omitempty"`
}

// CacheDelta is one informer event forwarded so the parent can rebuild the cache as of any reconcile.
type CacheDelta struct {
	Seq             int64       `json:"seq"`
	Type            string      `json:"type"`
	APIVersion      string      `json:"apiVersion"`
	Kind            string      `json:"kind"`
	Key             string      `json:"key"`
	ResourceVersion string      `json:"resourceVersion"`
	Object          *KubeObject `json:"object,omitempty"`
}

// TriggerDelta is one informer event that enqueued a key since its last reconcile. Via is "for",
// "owns" or "watches" (how the event maps to the request), "requeue" (no event: the key came back
// after a requeue or an error), or "resync": the parent asked for a resync (parent message
// `resync`), with type "RESYNC" and the object's resourceVersion in the cache at that moment.
type TriggerDelta struct {
	Type            string `json:"type"`
	Kind            string `json:"kind"`
	APIVersion      string `json:"apiVersion"`
	Key             string `json:"key"`
	ResourceVersion string `json:"resourceVersion"`
	Via             string `json:"via"`
	At              int64  `json:"at"`
}

// WriteError is how a failed write is shown: the API status code and reason when the server gave one.
type WriteError struct {
	Code    int32  `json:"code,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message"`
}

// WriteRecord is one write made through the manager's client during a reconcile.
type WriteRecord struct {
	Verb       string `json:"verb"`
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	// The resourceVersion the server answered with.
	ResourceVersion string      `json:"resourceVersion,omitempty"`
	Error           *WriteError `json:"error,omitempty"`
	At              int64       `json:"at"`
	DurationMs      float64     `json:"durationMs"`
	// "status" for Status().Patch and other subresource writes other than updateStatus.
	Subresource string `json:"subresource,omitempty"`
	// The object's resourceVersion before the write, as far as this process knew it: the one the
	// request carried (exact for an update, which the server refuses at any other), else the newest
	// its informer had delivered or its own writes had been answered with. Absent when none is known.
	PreviousResourceVersion string `json:"previousResourceVersion,omitempty"`
	// Changed says whether a successful create, update or patch of the object or its status changed
	// it: false when the server answered previousResourceVersion itself (it stores nothing for a
	// write that changes nothing: certain), true when it answered a newer one (certain for a create
	// and for an update that carried a resourceVersion; otherwise as certain as the cache was
	// current, which it is once the controller is quiet). Absent when not known:
	// failed writes (see error), deletes (controller-runtime does not decode their answer), other
	// subresources, and writes with no previousResourceVersion.
	Changed *bool `json:"changed,omitempty"`
	// Caller is where the controller's code called the client: the first frame outside this
	// package, controller-runtime and client-go (a data breakpoint names the call that changed a field).
	Caller *CallSite `json:"caller,omitempty"`
	// UID is the deleted object's uid, for a delete of an object that carried one: the answer has
	// no resourceVersion, so the delete's cache event is found by the object, and a new object of
	// the same name has another uid.
	UID string `json:"uid,omitempty"`
}

// CallSite is a line of the controller's code.
type CallSite struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Function string `json:"function,omitempty"`
}

// StaleRead is a read made during a reconcile, through the manager's client or cache, that
// returned an object older than one this process had already written: the cache had not caught up
// with the process's own write. The read object is Kind/Namespace/Name at ReadResourceVersion (or
// NotFound: the cache did not hold it at all); the write was Verb by reconcile WroteBy (0: a write
// made outside any reconcile), answered with WroteResourceVersion (absent for a delete: any copy
// still in the cache without a deletionTimestamp is stale).
type StaleRead struct {
	APIVersion           string `json:"apiVersion"`
	Kind                 string `json:"kind"`
	Namespace            string `json:"namespace,omitempty"`
	Name                 string `json:"name"`
	ReadResourceVersion  string `json:"readResourceVersion,omitempty"`
	NotFound             bool   `json:"notFound,omitempty"`
	WroteResourceVersion string `json:"wroteResourceVersion,omitempty"`
	WroteBy              int64  `json:"wroteBy,omitempty"`
	Verb                 string `json:"verb"`
}

// LogLine is one line a reconcile logged through the logger in its context.
type LogLine struct {
	Level   string         `json:"level"`
	Message string         `json:"message"`
	Fields  map[string]any `json:"fields,omitempty"`
	At      int64          `json:"at"`
}

// QueueKeySnapshot is one key of the workqueue.
type QueueKeySnapshot struct {
	Key       string   `json:"key"`
	State     string   `json:"state"`
	Retries   int      `json:"retries"`
	ReadyAt   int64    `json:"readyAt,omitempty"`
	BackoffMs *float64 `json:"backoffMs,omitempty"`
	Reason    string   `json:"reason,omitempty"`
	Dirty     bool     `json:"dirty,omitempty"`
}

// QueueSnapshot is the workqueue of one controller, key by key.
type QueueSnapshot struct {
	At         int64              `json:"at"`
	Depth      int                `json:"depth"`
	Processing int                `json:"processing"`
	Waiting    int                `json:"waiting"`
	Keys       []QueueKeySnapshot `json:"keys"`
}

// ReconcileRequest is controller-runtime's request as the TypeScript side spells it.
type ReconcileRequest struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
}

// ReconcileRecord is sent when a reconcile starts (before the gate).
type ReconcileRecord struct {
	Seq                   int64            `json:"seq"`
	ReconcileID           string           `json:"reconcileId"`
	Controller            string           `json:"controller"`
	Worker                int              `json:"worker"`
	ForKind               KindRef          `json:"forKind"`
	Key                   string           `json:"key"`
	Request               ReconcileRequest `json:"request"`
	Trigger               []TriggerDelta   `json:"trigger"`
	Object                *KubeObject      `json:"object,omitempty"`
	ObjectResourceVersion string           `json:"objectResourceVersion,omitempty"`
	CacheResourceVersion  string           `json:"cacheResourceVersion"`
	CacheSeq              int64            `json:"cacheSeq"`
	StartedAt             int64            `json:"startedAt"`
	Writes                []WriteRecord    `json:"writes"`
	Logs                  []LogLine        `json:"logs"`
	// Goroutine runs the reconcile; sent for held reconciles, so a line debugger can stop in
	// this reconcile's Reconcile call and not another worker's.
	Goroutine uint64 `json:"goroutine,omitempty"`
}

// ReconcileResult is controller-runtime's Result in milliseconds.
type ReconcileResult struct {
	Requeue      bool    `json:"requeue,omitempty"`
	RequeueAfter float64 `json:"requeueAfter,omitempty"`
}

// ReconcileErrorInfo describes a reconcile that returned an error or panicked.
type ReconcileErrorInfo struct {
	Name     string `json:"name"`
	Message  string `json:"message"`
	Stack    string `json:"stack,omitempty"`
	Terminal bool   `json:"terminal"`
	TimedOut bool   `json:"timedOut,omitempty"`
}

// ReconcileOutcome is how the reconcile call ended: {kind:'success', result} or {kind:'error', error}.
type ReconcileOutcome struct {
	Kind   string              `json:"kind"`
	Result *ReconcileResult    `json:"result,omitempty"`
	Error  *ReconcileErrorInfo `json:"error,omitempty"`
}

// RequeueDecision is what controller-runtime does with the key after the reconcile.
type RequeueDecision struct {
	Action  string  `json:"action"`
	Reason  string  `json:"reason,omitempty"`
	DelayMs float64 `json:"delayMs,omitempty"`
}

// ReconcileEnd is sent when a reconcile returns.
type ReconcileEnd struct {
	ReconcileID string           `json:"reconcileId"`
	Seq         int64            `json:"seq"`
	DurationMs  float64          `json:"durationMs"`
	Writes      []WriteRecord    `json:"writes"`
	Outcome     ReconcileOutcome `json:"outcome"`
	Decision    RequeueDecision  `json:"decision"`
	// The reads of this reconcile that returned state older than this process's own writes, each
	// object at one resourceVersion once (at most maxStaleReads). Absent: none.
	StaleReads []StaleRead `json:"staleReads,omitempty"`
}

// Probe is an informer observation (src/informer/probes.ts). The Go side sees what the manager's
// informers deliver, not their list/watch calls, so it sends `synced` and `event` probes.
type Probe struct {
	At              int64  `json:"at"`
	Informer        string `json:"informer"`
	Kind            string `json:"kind"`
	Type            string `json:"type,omitempty"`
	Key             string `json:"key,omitempty"`
	ResourceVersion string `json:"resourceVersion,omitempty"`
	Items           *int   `json:"items,omitempty"`
	// An `error` probe's message, HTTP code and reason (NotServed: the kind has no CRD installed).
	Message string `json:"message,omitempty"`
	Code    int    `json:"code,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

// Messages, child → parent.

type helloMessage struct {
	Type     string `json:"type"`
	Secret   string `json:"secret"`
	Protocol int    `json:"protocol"`
	Language string `json:"language"`
	PID      int    `json:"pid"`
	// The controller-runtime version the controller was built with.
	ControllerRuntime string `json:"controllerRuntime,omitempty"`
}

type readyMessage struct {
	Type       string          `json:"type"`
	Controller ControllerShape `json:"controller"`
}

type syncedMessage struct {
	Type string `json:"type"`
}

type deltaMessage struct {
	Type  string     `json:"type"`
	Delta CacheDelta `json:"delta"`
}

type reconcileStartMessage struct {
	Type   string           `json:"type"`
	Record *ReconcileRecord `json:"record"`
	Gated  bool             `json:"gated"`
}

type reconcileEndMessage struct {
	Type string       `json:"type"`
	End  ReconcileEnd `json:"end"`
}

type logMessage struct {
	Type        string  `json:"type"`
	ReconcileID string  `json:"reconcileId,omitempty"`
	Line        LogLine `json:"line"`
}

type queueMessage struct {
	Type       string        `json:"type"`
	Controller string        `json:"controller,omitempty"`
	Snapshot   QueueSnapshot `json:"snapshot"`
}

type probeMessage struct {
	Type  string `json:"type"`
	Probe Probe  `json:"probe"`
}

type idleMessage struct {
	Type string `json:"type"`
	Idle bool   `json:"idle"`
}

type fatalMessage struct {
	Type    string `json:"type"`
	Phase   string `json:"phase"`
	Message string `json:"message"`
	Stack   string `json:"stack,omitempty"`
}

// parentMessage is what the parent sends: `proceed` opens the gate for one reconcile, `shutdown`
// stops the manager, `resync` makes every controller reconcile every object of its For kind in
// the cache once more, as after a restart: each is handed to the controller's own For event
// handler as an object of the initial list (so its predicates apply), and the requests it enqueues
// carry a trigger of type "RESYNC" via "resync". Nothing answers a resync but those reconciles.
// Unknown types are ignored, as the TypeScript host does.
//
// `writeSeen` releases a write held after it was acknowledged (EnvHoldWrites): the reconcile's
// write number Index.
type parentMessage struct {
	Type        string `json:"type"`
	ReconcileID string `json:"reconcileId"`
	StepIn      bool   `json:"stepIn"`
	Index       int    `json:"index"`
}

// KubeObject is a cached object as the API server would show it: with apiVersion and kind, which
// typed objects in controller-runtime's cache usually lack. It marshals lazily (on the writer
// goroutine) and never modifies the object, which the informer's cache shares.
type KubeObject struct {
	obj client.Object
	gvk schema.GroupVersionKind
}

func newKubeObject(obj client.Object, gvk schema.GroupVersionKind) *KubeObject {
	if obj == nil {
		return nil
	}
	return &KubeObject{obj: obj, gvk: gvk}
}

// MarshalJSON adds apiVersion and kind in front when the object does not carry them.
func (o *KubeObject) MarshalJSON() ([]byte, error) {
	body, err := json.Marshal(o.obj)
	if err != nil {
		return nil, err
	}
	if !o.obj.GetObjectKind().GroupVersionKind().Empty() || o.gvk.Empty() || len(body) < 2 || body[0] != '{' {
		return body, nil
	}
	head, err := json.Marshal(struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}{o.gvk.GroupVersion().String(), o.gvk.Kind})
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Grow(len(head) + len(body))
	b.Write(head[:len(head)-1])
	if len(body) > 2 {
		b.WriteByte(',')
	}
	b.Write(body[1:])
	return b.Bytes(), nil
}
