package controllerlab

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"testing"
	"time"
)

func TestHeldWriteWaitsForWriteSeen(t *testing.T) {
	child, parent := net.Pipe()
	defer parent.Close()
	s := newSession(child, false, false)
	s.holdWrites = true
	s.run()
	defer s.close()

	done := make(chan struct{})
	go func() {
		s.holdWrite(context.Background(), &inFlight{seq: 7, reconcileID: "r1"}, 2, WriteRecord{Verb: "update", Kind: "ConfigMap", Name: "app", ResourceVersion: "42"})
		close(done)
	}()
	var m writeMessage
	line, err := bufio.NewReader(parent).ReadBytes('\n')
	if err != nil || json.Unmarshal(line, &m) != nil {
		t.Fatalf("no write message: %v %q", err, line)
	}
	if m.Type != "write" || m.ReconcileID != "r1" || m.Seq != 7 || m.Index != 2 || m.Write.ResourceVersion != "42" || m.Goroutine == 0 {
		t.Fatalf("write message: %+v", m)
	}
	select {
	case <-done:
		t.Fatal("the write went on before the parent saw it")
	case <-time.After(50 * time.Millisecond):
	}
	if _, err := parent.Write([]byte(`{"type":"writeSeen","reconcileId":"r1","index":2}` + "\n")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("writeSeen did not release the write")
	}
}

func TestWritesAreNotHeldUnlessAsked(t *testing.T) {
	s := newSession(nil, false, false)
	s.holdWrite(context.Background(), &inFlight{seq: 1, reconcileID: "r"}, 0, WriteRecord{})
	if len(s.pending) != 0 {
		t.Fatalf("sent %v", s.pending)
	}
}
