package simtest

import (
	"fmt"
	"os"
	"strings"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client/config"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

var log = logf.Log.WithName("simtest")

// Environment is a simulated cluster for a test suite. Its fields are envtest.Environment's, with
// the same types and meaning, so that a suite written for envtest only changes the type; the
// fields about etcd and kube-apiserver binaries are accepted and ignored (there are none to run).
type Environment struct {
	// Scheme is used to install the CRDs given as objects; default: client-go's scheme.Scheme.
	Scheme *runtime.Scheme
	// Config is set by Start (or, with UseExistingCluster, may be given).
	Config *rest.Config
	// KubeConfig is the kubeconfig of the started cluster, set by Start.
	KubeConfig []byte
	// CRDInstallOptions are the options for installing CRDs (merged with CRDs and CRDDirectoryPaths).
	CRDInstallOptions envtest.CRDInstallOptions
	// WebhookInstallOptions: the webhook configurations installed, pointing at
	// LocalServingHost:LocalServingPort with a CA made in LocalServingCertDir, which the test's
	// webhook server reads back after Start. The simulated cluster calls them on the writes they match.
	WebhookInstallOptions envtest.WebhookInstallOptions
	// ErrorIfCRDPathMissing fails Start when a CRD path does not exist.
	ErrorIfCRDPathMissing bool
	// CRDs are installed before Start returns; Start sets it to every CRD installed.
	CRDs []*apiextensionsv1.CustomResourceDefinition
	// CRDDirectoryPaths are directories or files of CRD manifests installed before Start returns.
	CRDDirectoryPaths []string

	// DownloadBinaryAssets, DownloadBinaryAssetsVersion, DownloadBinaryAssetsIndexURL and
	// BinaryAssetsDirectory choose envtest's binaries. The simulated cluster needs none: ignored.
	DownloadBinaryAssets         bool
	DownloadBinaryAssetsVersion  string
	DownloadBinaryAssetsIndexURL string
	BinaryAssetsDirectory        string

	// UseExistingCluster (or USE_EXISTING_CLUSTER=true) uses the cluster of the kubeconfig, as envtest does.
	UseExistingCluster *bool
	// ControlPlaneStartTimeout bounds how long the simulated cluster may take to serve (default 30 s).
	ControlPlaneStartTimeout time.Duration
	// ControlPlaneStopTimeout bounds how long Stop waits before it kills the process (default 10 s).
	ControlPlaneStopTimeout time.Duration
	// AttachControlPlaneOutput (or KUBEBUILDER_ATTACH_CONTROL_PLANE_OUTPUT=true) copies the
	// simulated cluster's output to this process's stdout and stderr.
	AttachControlPlaneOutput bool

	// ControllerManager runs kube-controller-manager's part beside the API server: the garbage
	// collector (owned objects go with their owner), the namespace controller (a deleted namespace
	// is emptied and goes), and each namespace's kube-root-ca.crt ConfigMap and default
	// ServiceAccount. Off by default, as in envtest.
	ControllerManager bool
	// Workloads runs the Deployment/ReplicaSet/StatefulSet/DaemonSet/Job controllers, a scheduler
	// and fake Nodes, so workloads roll out (implies ControllerManager).
	Workloads bool
	// KubeconfigPath is the kubeconfig file the process wrote (for kubectl in a test's logs).
	KubeconfigPath string

	process *simProcess
}

// Start runs the simulated cluster, waits until it serves, installs the CRDs and webhook
// configurations, and answers the admin's rest.Config.
func (e *Environment) Start() (*rest.Config, error) {
	e.logIgnoredBinaryOptions()
	if e.useExistingCluster() {
		if e.Config == nil {
			cfg, err := config.GetConfig()
			if err != nil {
				return nil, fmt.Errorf("unable to get configuration for existing cluster: %w", err)
			}
			e.Config = cfg
		}
	} else {
		if os.Getenv("KUBEBUILDER_ATTACH_CONTROL_PLANE_OUTPUT") == "true" {
			e.AttachControlPlaneOutput = true
		}
		p, err := startSimProcess(e.simArgs(), e.ControlPlaneStartTimeout, e.AttachControlPlaneOutput)
		if err != nil {
			return nil, err
		}
		e.process = p
		e.KubeconfigPath = p.kubeconfigPath
		if e.KubeConfig, err = os.ReadFile(p.kubeconfigPath); err != nil {
			return nil, e.failed(fmt.Errorf("reading the sim's kubeconfig: %w", err))
		}
		if e.Config, err = p.restConfig(); err != nil {
			return nil, e.failed(err)
		}
	}
	if e.Scheme == nil {
		e.Scheme = scheme.Scheme
	}
	if err := e.WebhookInstallOptions.PrepWithoutInstalling(); err != nil {
		return nil, e.failed(err)
	}
	if err := e.installCRDs(); err != nil {
		return nil, e.failed(err)
	}
	if err := e.WebhookInstallOptions.Install(e.Config); err != nil {
		return nil, e.failed(fmt.Errorf("unable to install webhooks onto the simulated cluster: %w", err))
	}
	return e.Config, nil
}

// Stop uninstalls what CleanUpAfterUse asks for, ends the process and removes its state.
func (e *Environment) Stop() error {
	if e.CRDInstallOptions.CleanUpAfterUse && e.Config != nil {
		if err := envtest.UninstallCRDs(e.Config, e.CRDInstallOptions); err != nil {
			return err
		}
	}
	if err := e.WebhookInstallOptions.Cleanup(); err != nil {
		return err
	}
	if e.process == nil {
		return nil
	}
	p := e.process
	e.process = nil
	return p.stop(e.ControlPlaneStopTimeout)
}

func (e *Environment) simArgs() []string {
	args := []string{"--port", "0"}
	if e.Workloads {
		args = append(args, "--workloads")
	} else if !e.ControllerManager {
		args = append(args, "--api-server-only")
	}
	return args
}

// installCRDs installs CRDs and CRDDirectoryPaths as envtest does: through CRDInstallOptions.
func (e *Environment) installCRDs() error {
	opts := &e.CRDInstallOptions
	if opts.Scheme == nil {
		opts.Scheme = e.Scheme
	}
	opts.CRDs = mergeCRDs(opts.CRDs, e.CRDs)
	opts.Paths = mergePaths(opts.Paths, e.CRDDirectoryPaths)
	opts.ErrorIfPathMissing = e.ErrorIfCRDPathMissing
	opts.WebhookOptions = e.WebhookInstallOptions
	crds, err := envtest.InstallCRDs(e.Config, *opts)
	if err != nil {
		return fmt.Errorf("unable to install CRDs onto the simulated cluster: %w", err)
	}
	e.CRDs = crds
	for _, name := range unconvertedCRDs(crds) {
		log.Info("the simulated cluster calls no conversion webhook: it serves every version of this CRD from the stored object, unconverted (test ConvertTo and ConvertFrom by calling them)", "crd", name)
	}
	return nil
}

// unconvertedCRDs names the CRDs whose conversion is a webhook: envtest points it at the suite's
// webhook server and kube-apiserver converts through it, the sim does not.
func unconvertedCRDs(crds []*apiextensionsv1.CustomResourceDefinition) []string {
	var names []string
	for _, crd := range crds {
		if c := crd.Spec.Conversion; c != nil && c.Strategy == apiextensionsv1.WebhookConverter {
			names = append(names, crd.Name)
		}
	}
	return names
}

// failed stops what Start began and answers err.
func (e *Environment) failed(err error) error {
	if e.process != nil {
		_ = e.process.stop(e.ControlPlaneStopTimeout)
		e.process = nil
	}
	return err
}

func (e *Environment) useExistingCluster() bool {
	if e.UseExistingCluster != nil {
		return *e.UseExistingCluster
	}
	return strings.ToLower(os.Getenv("USE_EXISTING_CLUSTER")) == "true"
}

func (e *Environment) logIgnoredBinaryOptions() {
	if e.BinaryAssetsDirectory != "" || e.DownloadBinaryAssets {
		log.Info("envtest's binary options are ignored: the simulated cluster needs no etcd or kube-apiserver binaries",
			"BinaryAssetsDirectory", e.BinaryAssetsDirectory, "DownloadBinaryAssets", e.DownloadBinaryAssets)
	}
}

func mergePaths(a, b []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range append(append([]string{}, a...), b...) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

func mergeCRDs(a, b []*apiextensionsv1.CustomResourceDefinition) []*apiextensionsv1.CustomResourceDefinition {
	seen := map[string]bool{}
	var out []*apiextensionsv1.CustomResourceDefinition
	for _, crd := range append(append([]*apiextensionsv1.CustomResourceDefinition{}, a...), b...) {
		if !seen[crd.Name] {
			seen[crd.Name] = true
			out = append(out, crd)
		}
	}
	return out
}
