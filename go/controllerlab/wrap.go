// Package controllerlab lets Controller Lab show and step through the reconciles of a
// controller-runtime manager: add one line after the manager is created,
//
//	mgr = controllerlab.Wrap(mgr)
//
// and build controllers on the wrapped manager as usual. Started by Controller Lab (the
// CONTROLLER_LAB_SOCKET environment variable is set), the manager reports each reconcile (request,
// cached object, the watch events that enqueued it, the writes made through mgr.GetClient() with
// the resourceVersions the server answered, the reads that returned state older than the process's
// own writes, the result), the workqueue key by key and the informers, can hold each reconcile
// until the debugger lets it run, and reconciles every object again when asked to resync. Started any other way, Wrap returns
// the manager it was given: nothing is wrapped, no goroutine or socket exists, reconciles cost
// exactly what they cost without it.
package controllerlab

import (
	"context"
	"fmt"
	"os"
	"sync"

	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// Wrap returns mgr itself when the process was not started by Controller Lab. Otherwise it connects
// to Controller Lab and returns a manager whose client, cache and controllers report to it. If the
// connection fails, it says so on stderr and returns mgr unchanged: the controller still runs.
func Wrap(mgr manager.Manager) manager.Manager {
	addr := os.Getenv(EnvSocket)
	if addr == "" {
		return mgr
	}
	wrapped, err := Attach(mgr, addr, os.Getenv(EnvSecret))
	if err != nil {
		fmt.Fprintf(os.Stderr, "controller-lab: %v (running without Controller Lab)\n", err)
		return mgr
	}
	return wrapped
}

// Attach connects to the parent at addr (see EnvSocket) regardless of the environment. Most
// programs call Wrap; Attach is for tests and tools that choose the address themselves.
func Attach(mgr manager.Manager, addr, secret string) (manager.Manager, error) {
	s, err := dialSession(addr, secret)
	if err != nil {
		return nil, err
	}
	l := newLab(s, mgr.GetScheme(), mgr.GetRESTMapper())
	l.reader = mgr.GetCache()
	l.watchRefusals(mgr.GetHTTPClient())
	m := &labManager{Manager: mgr, lab: l}
	m.cache = newLabCache(mgr.GetCache(), l)
	m.client = newLabClient(mgr.GetClient(), l)
	m.stop = make(chan struct{})
	s.onClose = func() { close(m.stop) }
	s.run()
	return m, nil
}

// labManager is the manager a wrapped program sees: the controllers it builds are instrumented
// when added, their sources get the reporting cache, the reconciler gets the recording client.
type labManager struct {
	manager.Manager
	lab    *lab
	cache  *labCache
	client *labClient
	// Closed when the parent asks to stop or goes away.
	stop chan struct{}
	// webhookOnce serves the webhook server locally the first time it is asked for (webhooks.go).
	webhookOnce sync.Once
}

func (m *labManager) GetClient() client.Client { return m.client }

func (m *labManager) GetCache() cache.Cache { return m.cache }

// Add instruments controllers (see instrument.go) and hands everything to the real manager.
func (m *labManager) Add(r manager.Runnable) error {
	m.lab.instrument(r)
	return m.Manager.Add(r)
}

// Start runs the manager until ctx ends or Controller Lab asks it to stop (or goes away): then
// mgr.Start returns nil, as after a signal, and main exits normally.
func (m *labManager) Start(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-m.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	err := m.Manager.Start(ctx)
	m.lab.session.flush(dialTimeout)
	return err
}
