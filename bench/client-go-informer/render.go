package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/util/framer"
	"k8s.io/client-go/kubernetes/scheme"
)

// renderProtobuf turns a JSON list and a JSON-lines watch body into what kube-apiserver sends a
// client that asks for application/vnd.kubernetes.protobuf: the list as an enveloped message, the
// watch as length-delimited WatchEvent frames whose objects are enveloped messages.
func renderProtobuf(args []string) error {
	fs := flag.NewFlagSet("render", flag.ExitOnError)
	resource := fs.String("resource", "configmaps", "configmaps or pods")
	listPath := fs.String("list", "", "the list, JSON")
	watchPath := fs.String("watch", "", "the watch body, one JSON event per line")
	out := fs.String("out", "", "directory for list.pb and watch.pb")
	_ = fs.Parse(args)

	newObject, newList, err := typesOf(*resource)
	if err != nil {
		return err
	}
	enveloped := protobuf.NewSerializer(scheme.Scheme, scheme.Scheme)
	raw := protobuf.NewRawSerializer(scheme.Scheme, scheme.Scheme)

	listJSON, err := os.ReadFile(*listPath)
	if err != nil {
		return err
	}
	list := newList()
	if err := json.Unmarshal(listJSON, list); err != nil {
		return fmt.Errorf("list: %w", err)
	}
	var listOut bytes.Buffer
	if err := enveloped.Encode(list, &listOut); err != nil {
		return fmt.Errorf("list: %w", err)
	}
	if err := os.WriteFile(filepath.Join(*out, "list.pb"), listOut.Bytes(), 0o600); err != nil {
		return err
	}

	in, err := os.Open(*watchPath)
	if err != nil {
		return err
	}
	defer in.Close()
	var watchOut bytes.Buffer
	frames := framer.NewLengthDelimitedFrameWriter(&watchOut)
	scanner := bufio.NewScanner(in)
	scanner.Buffer(make([]byte, 1<<20), 16<<20)
	for scanner.Scan() {
		var line struct {
			Type   string          `json:"type"`
			Object json.RawMessage `json:"object"`
		}
		if err := json.Unmarshal(scanner.Bytes(), &line); err != nil {
			return fmt.Errorf("watch: %w", err)
		}
		obj := newObject()
		if err := json.Unmarshal(line.Object, obj); err != nil {
			return fmt.Errorf("watch object: %w", err)
		}
		var objBytes bytes.Buffer
		if err := enveloped.Encode(obj, &objBytes); err != nil {
			return err
		}
		event := &metav1.WatchEvent{Type: line.Type, Object: runtime.RawExtension{Raw: objBytes.Bytes()}}
		var frame bytes.Buffer
		if err := raw.Encode(event, &frame); err != nil {
			return err
		}
		if _, err := frames.Write(frame.Bytes()); err != nil {
			return err
		}
	}
	if err := scanner.Err(); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(*out, "watch.pb"), watchOut.Bytes(), 0o600)
}

func typesOf(resource string) (func() runtime.Object, func() runtime.Object, error) {
	switch resource {
	case "configmaps":
		return func() runtime.Object { return &corev1.ConfigMap{} }, func() runtime.Object { return &corev1.ConfigMapList{} }, nil
	case "pods":
		return func() runtime.Object { return &corev1.Pod{} }, func() runtime.Object { return &corev1.PodList{} }, nil
	}
	return nil, nil, fmt.Errorf("unknown resource %q (configmaps or pods)", resource)
}
