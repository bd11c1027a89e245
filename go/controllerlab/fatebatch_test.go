package controllerlab

import (
	"encoding/json"
	"reflect"
	"testing"
)

// A batch of fates comes back as it was, whatever its strings hold, through the JSON line the
// writer sends.
func TestFateBatchRoundTrip(t *testing.T) {
	backoff, zero := 1234.5, 0.0
	base := EventFate{Controller: "web", Type: "MODIFIED", APIVersion: "apps/v1", Kind: "Deployment", Key: "default/web", ResourceVersion: "12", Via: "for", Fate: "enqueued", Request: "default/web", At: 1_700_000_000_000}
	with := func(change func(f *EventFate)) EventFate {
		f := base
		change(&f)
		return f
	}
	fates := []EventFate{
		base,
		with(func(f *EventFate) { f.Fate, f.KeyState, f.At = "merged", "queued", f.At+3 }),
		with(func(f *EventFate) { f.Fate, f.KeyState = "merged", "processing" }),
		with(func(f *EventFate) { f.Fate, f.KeyState, f.BackoffMs = "waiting", "waiting", &backoff }),
		with(func(f *EventFate) { f.KeyState, f.BackoffMs = "waiting", &zero }),
		with(func(f *EventFate) {
			f.Type, f.Fate, f.Request, f.Predicate = "RESYNC", "filtered", "", "predicate.GenerationChangedPredicate"
		}),
		with(func(f *EventFate) {
			f.Via, f.Kind, f.Key, f.Fate, f.Request = "owns", "Pod", "default/web-1", "unmapped", ""
		}),
		with(func(f *EventFate) {
			f.Via, f.Key, f.Request, f.At = "watches", "default/settings", "default/web", f.At-5
		}),
	}
	for _, odd := range []string{"", "\t", "\n", "\\", `\t`, `\n`, "a\tb\nc\\d", "+", "C", "e", "ns/😀-ñ-中文", "\u2028", "\r\n", "\x00nul", "\"quoted\""} {
		fates = append(fates,
			with(func(f *EventFate) { f.Key, f.Request, f.ResourceVersion = odd, odd, odd }),
			with(func(f *EventFate) {
				f.Controller, f.APIVersion, f.Kind, f.Key, f.Request = odd, odd, odd, odd, odd+"/other"
			}),
			with(func(f *EventFate) { f.Key, f.Fate, f.Request, f.Predicate = odd, "filtered", "", odd+"!" }),
		)
	}
	var b fateBatch
	for i := range fates {
		b.add(&fates[i])
	}
	line, err := json.Marshal(b.message())
	if err != nil {
		t.Fatal(err)
	}
	var sent fatesMessage
	if err := json.Unmarshal(line, &sent); err != nil {
		t.Fatal(err)
	}
	if sent.Type != "fates" || sent.Count != len(fates) {
		t.Fatalf("sent %s with %d fates, want fates with %d", sent.Type, sent.Count, len(fates))
	}
	got := decodeFateBatch(sent.Data)
	if !reflect.DeepEqual(got, fates) {
		for i := range fates {
			if i >= len(got) || !reflect.DeepEqual(got[i], fates[i]) {
				t.Fatalf("fate %d: got %+v, want %+v", i, got[min(i, len(got)-1)], fates[i])
			}
		}
		t.Fatalf("got %d fates, want %d", len(got), len(fates))
	}
}

// The batch both languages write for the same fates (test/unit/controllerProtocol/fateBatch.test.ts
// holds the same string).
const sharedBatch = "C\tapp-config\tMODIFIED\tapps/v1\tDeployment\tfor\ne\tdefault/web\t12\t\t\t\t1700000000000\nm\tdefault/web\t13\t\tq\t\t2\nC\tapp-config\tMODIFIED\tv1\tConfigMap\twatches\nw\tdefault/ñ\\tb\t14\t+default/web\tw\t12.5\t0\nC\tapp-config\tRESYNC\tv1\tConfigMap\towns\nf\tdefault/x\t15\t+a\\\\b\\nc\t\t\t38\nu\tdefault/y\t16\t\t\t\t1\n"

func TestFateBatchIsTheOneTheTypeScriptHostWrites(t *testing.T) {
	const at = 1_700_000_000_000
	backoff := 12.5
	fates := []EventFate{
		{Controller: "app-config", Type: "MODIFIED", APIVersion: "apps/v1", Kind: "Deployment", Via: "for", Key: "default/web", ResourceVersion: "12", Fate: "enqueued", Request: "default/web", At: at},
		{Controller: "app-config", Type: "MODIFIED", APIVersion: "apps/v1", Kind: "Deployment", Via: "for", Key: "default/web", ResourceVersion: "13", Fate: "merged", Request: "default/web", KeyState: "queued", At: at + 2},
		{Controller: "app-config", Type: "MODIFIED", APIVersion: "v1", Kind: "ConfigMap", Via: "watches", Key: "default/ñ\tb", ResourceVersion: "14", Fate: "waiting", Request: "default/web", KeyState: "waiting", BackoffMs: &backoff, At: at + 2},
		{Controller: "app-config", Type: "RESYNC", APIVersion: "v1", Kind: "ConfigMap", Via: "owns", Key: "default/x", ResourceVersion: "15", Fate: "filtered", Predicate: "a\\b\nc", At: at + 40},
		{Controller: "app-config", Type: "RESYNC", APIVersion: "v1", Kind: "ConfigMap", Via: "owns", Key: "default/y", ResourceVersion: "16", Fate: "unmapped", At: at + 41},
	}
	var b fateBatch
	for i := range fates {
		b.add(&fates[i])
	}
	if got := string(b.buf); got != sharedBatch {
		t.Fatalf("wrote\n%q\nwant\n%q", got, sharedBatch)
	}
}
