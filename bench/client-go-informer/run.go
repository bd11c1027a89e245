package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
)

// measurement has the fields of the Node benchmark's Measurement, so both print the same columns.
type measurement struct {
	SyncMs       float64 `json:"syncMs"`
	WatchMs      float64 `json:"watchMs"`
	EventsPerSec float64 `json:"eventsPerSec"`
	CPUMs        float64 `json:"cpuMs"`
	WatchCPUUs   float64 `json:"watchCpuUs"`
	PeakRSSBytes float64 `json:"peakRssBytes"`
	// Go heap still live after the run and a GC, less what was live before the informer started.
	CacheHeapBytes float64 `json:"cacheHeapBytes"`
	// Go heap in use (runtime.MemStats.HeapInuse: live objects and the spans around them) at the end, after a GC.
	HeapInuseBytes float64 `json:"heapInuseBytes"`
	Cached         int     `json:"cached"`
}

func runInformer(args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	server := fs.String("server", "", "API server URL")
	resource := fs.String("resource", "configmaps", "configmaps or pods")
	namespace := fs.String("namespace", "bench", "namespace to watch")
	objects := fs.Int("objects", 0, "objects in the initial list")
	events := fs.Int("events", 0, "watch events to wait for")
	useProtobuf := fs.Bool("protobuf", false, "ask for application/vnd.kubernetes.protobuf")
	timeout := fs.Duration("timeout", 170*time.Second, "give up after this long")
	_ = fs.Parse(args)

	config := &rest.Config{Host: *server, BearerToken: "bench", QPS: -1}
	if *useProtobuf {
		config.ContentType = "application/vnd.kubernetes.protobuf"
		config.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	} else {
		// client-go's typed clients ask for protobuf first by default (Accept: protobuf, then
		// JSON): without this, the "JSON" peer read protobuf whenever the server had it.
		config.ContentType = "application/json"
		config.AcceptContentTypes = "application/json"
	}
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		return err
	}
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(*namespace))
	var informer cache.SharedIndexInformer
	switch *resource {
	case "configmaps":
		informer = factory.Core().V1().ConfigMaps().Informer()
	case "pods":
		informer = factory.Core().V1().Pods().Informer()
	default:
		return fmt.Errorf("unknown resource %q", *resource)
	}

	var initial, seen atomic.Int64
	syncedAt := make(chan time.Time, 1)
	done := make(chan time.Time, 1)
	watchEvent := func() {
		if seen.Add(1) == int64(*events) {
			done <- time.Now()
		}
	}
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(_ any, isInInitialList bool) {
			if !isInInitialList {
				watchEvent()
				return
			}
			if initial.Add(1) == int64(*objects) {
				syncedAt <- time.Now()
			}
		},
		UpdateFunc: func(_, _ any) { watchEvent() },
		DeleteFunc: func(_ any) { watchEvent() },
	}); err != nil {
		return err
	}

	runtime.GC()
	heap0 := liveHeap()
	cpu0 := cpuTime()
	t0 := time.Now()
	stop := make(chan struct{})
	go informer.Run(stop)

	var tSync time.Time
	var cpuSync time.Duration
	select {
	case tSync = <-syncedAt:
		cpuSync = cpuTime()
	case <-time.After(*timeout):
		return fmt.Errorf("not synced after %s (%d of %d objects)", *timeout, initial.Load(), *objects)
	}
	var tEnd time.Time
	if *events == 0 {
		tEnd = time.Now()
	} else {
		select {
		case tEnd = <-done:
		case <-time.After(*timeout):
			return fmt.Errorf("saw %d of %d watch events after %s", seen.Load(), *events, *timeout)
		}
	}
	cpuEnd := cpuTime()
	close(stop)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)

	m := measurement{
		SyncMs:         float64(tSync.Sub(t0).Microseconds()) / 1000,
		WatchMs:        float64(tEnd.Sub(tSync).Microseconds()) / 1000,
		CPUMs:          float64((cpuEnd - cpu0).Microseconds()) / 1000,
		PeakRSSBytes:   float64(peakRSS()),
		CacheHeapBytes: float64(liveHeap()) - float64(heap0),
		HeapInuseBytes: float64(ms.HeapInuse),
		Cached:         len(informer.GetStore().ListKeys()),
	}
	if *events > 0 {
		m.EventsPerSec = float64(*events) / tEnd.Sub(tSync).Seconds()
		m.WatchCPUUs = float64((cpuEnd - cpuSync).Microseconds()) / float64(*events)
	}
	return json.NewEncoder(os.Stdout).Encode(m)
}

func liveHeap() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakRSS is the process's resident high-water mark since exec (VmHWM). Not ru_maxrss: Linux keeps
// that across exec, so it would report the size of the benchmark process that spawned this one.
func peakRSS() int64 {
	if status, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(status), "\n") {
			if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				if kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64); err == nil {
					return kb * 1024
				}
			}
		}
	}
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Maxrss * 1024
}
