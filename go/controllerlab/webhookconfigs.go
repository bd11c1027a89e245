package controllerlab

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The webhook configurations of a project (kubebuilder's config/webhook/manifests.yaml, what
// controller-gen writes), pointed at a webhook server on this machine: each clientConfig that names
// a Service becomes a URL to the server, with the server's certificate as its caBundle — what
// envtest's WebhookInstallOptions does for a test suite.

// readWebhookConfigs reads the Mutating- and ValidatingWebhookConfigurations of path, a YAML or
// JSON file or a directory of them (other kinds are skipped). A path that does not exist has none.
func readWebhookConfigs(path string) ([]client.Object, error) {
	info, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	files := []string{path}
	if info.IsDir() {
		entries, err := os.ReadDir(path)
		if err != nil {
			return nil, err
		}
		files = files[:0]
		for _, e := range entries {
			switch filepath.Ext(e.Name()) {
			case ".yaml", ".yml", ".json":
				if !e.IsDir() {
					files = append(files, filepath.Join(path, e.Name()))
				}
			}
		}
	}
	var configs []client.Object
	for _, file := range files {
		found, err := readWebhookConfigFile(file)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		configs = append(configs, found...)
	}
	return configs, nil
}

func readWebhookConfigFile(file string) ([]client.Object, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	decoder := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	var configs []client.Object
	for {
		var doc json.RawMessage
		if err := decoder.Decode(&doc); errors.Is(err, io.EOF) {
			return configs, nil
		} else if err != nil {
			return nil, err
		}
		var head struct{ APIVersion, Kind string }
		if len(doc) == 0 || string(doc) == "null" || json.Unmarshal(doc, &head) != nil {
			continue
		}
		var config client.Object
		switch head.Kind {
		case "MutatingWebhookConfiguration":
			config = &admissionv1.MutatingWebhookConfiguration{}
		case "ValidatingWebhookConfiguration":
			config = &admissionv1.ValidatingWebhookConfiguration{}
		default:
			continue
		}
		if head.APIVersion != admissionv1.SchemeGroupVersion.String() {
			return nil, fmt.Errorf("%s: only %s is read, not %s", head.Kind, admissionv1.SchemeGroupVersion, head.APIVersion)
		}
		if err := json.Unmarshal(doc, config); err != nil {
			return nil, err
		}
		configs = append(configs, config)
	}
}

// pointWebhooksAt makes every webhook of configs call https://hostPort/<its Service's path>, trusting caBundle.
func pointWebhooksAt(configs []client.Object, hostPort string, caBundle []byte) {
	for _, config := range configs {
		switch c := config.(type) {
		case *admissionv1.MutatingWebhookConfiguration:
			for i := range c.Webhooks {
				pointClientConfig(&c.Webhooks[i].ClientConfig, hostPort, caBundle)
			}
		case *admissionv1.ValidatingWebhookConfiguration:
			for i := range c.Webhooks {
				pointClientConfig(&c.Webhooks[i].ClientConfig, hostPort, caBundle)
			}
		}
	}
}

func pointClientConfig(cc *admissionv1.WebhookClientConfig, hostPort string, caBundle []byte) {
	cc.CABundle = caBundle
	if cc.Service != nil {
		path := ""
		if cc.Service.Path != nil {
			path = *cc.Service.Path
		}
		url := "https://" + hostPort + "/" + strings.TrimPrefix(path, "/")
		cc.URL = &url
		cc.Service = nil
	}
}

// webhookConfigNames is "mutating-webhook-configuration, validating-webhook-configuration".
func webhookConfigNames(configs []client.Object) string {
	names := make([]string, len(configs))
	for i, c := range configs {
		names[i] = c.GetName()
	}
	return strings.Join(names, ", ")
}
