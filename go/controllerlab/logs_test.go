package controllerlab

import (
	"errors"
	"testing"

	"github.com/go-logr/logr/funcr"
)

// A reconcile's log line reaches Controller Lab once and is not printed by the program's own
// logger as well; the program's logger still decides which verbose lines exist.
func TestReconcileLogLinesGoToControllerLabOnly(t *testing.T) {
	var printed []string
	program := funcr.New(func(prefix, args string) { printed = append(printed, prefix+" "+args) }, funcr.Options{Verbosity: 1})
	var sent []LogLine
	logger := newLabLogger(program, func(l LogLine) { sent = append(sent, l) }).WithValues("controller", "memcached")

	logger.Info("creating deployment", "name", "web")
	logger.V(1).Info("cache read")
	logger.V(2).Info("too verbose for the program's logger")
	logger.Error(errors.New("conflict"), "update failed")

	if len(printed) != 0 {
		t.Fatalf("the program's logger printed %q: each line would show twice", printed)
	}
	got := []string{}
	for _, l := range sent {
		got = append(got, l.Level+": "+l.Message)
	}
	want := []string{"info: creating deployment", "info: cache read", "error: update failed: conflict"}
	if len(got) != len(want) {
		t.Fatalf("sent %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("sent %q, want %q", got, want)
		}
	}
	if sent[0].Fields["controller"] != "memcached" || sent[0].Fields["name"] != "web" {
		t.Fatalf("fields %v lost the logger's values or the line's own", sent[0].Fields)
	}
}
