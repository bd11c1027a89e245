package simtest

import (
	"os"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// BenchmarkStartEnvtest is BenchmarkStart's peer: how long envtest's etcd and kube-apiserver
// take to serve, with binaries from KUBEBUILDER_ASSETS (envtest downloads them; this machine
// cannot, so the benchmark runs only where they exist).
func BenchmarkStartEnvtest(b *testing.B) {
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		b.Skip("KUBEBUILDER_ASSETS is not set: no etcd and kube-apiserver binaries to start")
	}
	for i := 0; i < b.N; i++ {
		env := &envtest.Environment{}
		if _, err := env.Start(); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := env.Stop(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
