package controllerlab

import (
	"sort"
	"strconv"
	"sync"
)

// What each event handler has been given, reported to Controller Lab as a `handled` message (see
// src/controllerProtocol/handledViews.ts): a check calls a run quiet only once every handler has
// taken in what the cluster's watches sent. A watch that sent everything says nothing of a process
// that has not read it yet, or whose informer is still handing it (or a relist) to its handlers.

// HandledView is one handler's view: the objects it was given (not deleted since), as their count
// and the sum of their resourceVersions.
type HandledView struct {
	Objects int   `json:"objects"`
	RVSum   int64 `json:"rvSum"`
}

// HandledResource is every handler's view of one resource (`plural` or `plural.group`).
type HandledResource struct {
	Resource string        `json:"resource"`
	Views    []HandledView `json:"views"`
}

type handledMessage struct {
	Type      string            `json:"type"`
	Resources []HandledResource `json:"resources"`
}

// handlerView is kept up as its handler returns from each event.
type handlerView struct {
	mu       sync.Mutex
	versions map[string]int64
	rvSum    int64
}

func (v *handlerView) given(key, resourceVersion string, deleted bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.versions == nil {
		v.versions = map[string]int64{}
	}
	v.rvSum -= v.versions[key]
	delete(v.versions, key)
	if deleted {
		return
	}
	rv, _ := strconv.ParseInt(resourceVersion, 10, 64)
	v.versions[key] = rv
	v.rvSum += rv
}

func (v *handlerView) view() HandledView {
	v.mu.Lock()
	defer v.mu.Unlock()
	return HandledView{Objects: len(v.versions), RVSum: v.rvSum}
}

// handledMessage runs on the writer goroutine, after the queue snapshots: what a handler enqueued
// before it returned reaches the parent before the view that counts its event.
func (l *lab) handledMessage() any {
	l.mu.Lock()
	byResource := map[string][]HandledView{}
	for _, st := range l.informers {
		for _, v := range st.views {
			byResource[st.name] = append(byResource[st.name], v.view())
		}
	}
	l.mu.Unlock()
	m := handledMessage{Type: "handled", Resources: []HandledResource{}}
	for resource, views := range byResource {
		m.Resources = append(m.Resources, HandledResource{Resource: resource, Views: views})
	}
	sort.Slice(m.Resources, func(i, j int) bool { return m.Resources[i].Resource < m.Resources[j].Resource })
	return m
}
