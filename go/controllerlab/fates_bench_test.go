package controllerlab

import (
	"bytes"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

// What recording an event's fate costs at one source: what the delivery of an informer event does
// for it and nothing else, with everything it sends encoded and written to a parent that reads the
// socket. Enqueued: the key's state read before the add, the fate sent. Filtered: the wrapped
// predicate naming itself on the event its source is delivering, the fate sent at the end of the
// delivery. cpu-ns/op counts every goroutine (the writer's encoding too).
//
//	go test -run '^$' -bench EventFate -benchmem ./controllerlab

func BenchmarkEventFateEnqueued(b *testing.B) {
	benchmarkEventFate(b, false)
}

func BenchmarkEventFateFiltered(b *testing.B) {
	benchmarkEventFate(b, true)
}

func benchmarkEventFate(b *testing.B, filtered bool) {
	addr, lines := countingParent(b)
	s, err := dialSession(addr, "secret")
	if err != nil {
		b.Fatal(err)
	}
	s.run()
	b.Cleanup(s.close)
	l := newLab(s, nil, nil)
	c := newLabController(l, "bench-fates", 1)
	gvk := schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	h := &labHandler{informer: &labInformer{lab: l, informerState: &informerState{gvk: gvk, name: "configmaps"}}, controller: c, via: "for"}
	says := newReportingPredicate(predicate.NewPredicateFuncs(func(client.Object) bool { return false }), h)
	const keys = 256
	objects := make([]client.Object, keys)
	for i := range objects {
		objects[i] = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-" + strconv.Itoa(i), ResourceVersion: strconv.Itoa(100 + i)}}
	}
	note := &eventNote{controller: c, via: "for", kind: createEvent}
	h.current = note
	b.ReportAllocs()
	cpuBefore, cpuKnown := processCPU()
	i := 0
	for b.Loop() {
		obj := objects[i%keys]
		key := objectKey(obj)
		note.requests, note.filteredBy, note.obj = 0, "", obj
		note.trigger = TriggerDelta{Type: "ADDED", Kind: "ConfigMap", APIVersion: "v1", Key: key, ResourceVersion: obj.GetResourceVersion(), Via: "for"}
		if filtered {
			says.Create(event.CreateEvent{Object: obj})
		} else {
			note.added(key, c.queue.fateOfAdd(key, 0))
		}
		note.ended(h)
		i++
	}
	s.flush(dialTimeout)
	if cpuAfter, ok := processCPU(); ok && cpuKnown && b.N > 0 {
		b.ReportMetric(float64(cpuAfter-cpuBefore)/float64(b.N), "cpu-ns/op")
	}
	// How many fates each line carried: what the parent parses per fate (bench/eventFates.bench.ts).
	// The last lines written may still be on their way to the reader.
	time.Sleep(50 * time.Millisecond)
	if n := lines(); n > 0 {
		b.ReportMetric(float64(b.N)/float64(n), "fates/line")
	}
}

// countingParent accepts one connection and counts the lines after the hello.
func countingParent(b *testing.B) (string, func() int64) {
	path, ln := benchSocket(b)
	var lines atomic.Int64
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer func() { _ = conn.Close() }()
		buf := make([]byte, 64<<10)
		for {
			n, err := conn.Read(buf)
			lines.Add(int64(bytes.Count(buf[:n], []byte{'\n'})))
			if err != nil {
				return
			}
		}
	}()
	// The hello is no fate line.
	return path, func() int64 { return lines.Load() - 1 }
}
