package controllerlab

import (
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestHandlerViewFollowsWhatItWasGiven(t *testing.T) {
	var v handlerView
	v.given("default/a", "3", false)
	v.given("default/b", "4", false)
	v.given("default/a", "9", false)
	v.given("default/b", "10", true)
	if got, want := v.view(), (HandledView{Objects: 1, RVSum: 9}); got != want {
		t.Fatalf("view %+v, want %+v", got, want)
	}
}

func TestHandledMessageHasEveryHandlerOfEveryResource(t *testing.T) {
	l := newLab(newSession(nil, false, false), nil, nil)
	secrets := &informerState{gvk: schema.GroupVersionKind{Version: "v1", Kind: "Secret"}, name: "secrets"}
	first, second := &handlerView{}, &handlerView{}
	first.given("default/a", "5", false)
	secrets.views = []*handlerView{first, second}
	l.informers[secrets.gvk] = secrets
	got := l.handledMessage().(handledMessage)
	want := handledMessage{Type: "handled", Resources: []HandledResource{{Resource: "secrets", Views: []HandledView{{Objects: 1, RVSum: 5}, {}}}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("handled %+v, want %+v", got, want)
	}
}
