package controllerlab

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
)

// A program's webhooks on the simulated cluster, as cert-manager and the project's manifests give
// them in a cluster. When the parent names the project's webhook configurations (EnvWebhookConfigs,
// set only for a simulated cluster it started), the manager's webhook server is served on a free
// loopback port with a certificate made for the run, and once it answers, the configurations are
// installed pointing at it: the simulated cluster then calls the program's webhooks on every write
// they match, as kube-apiserver would. A program that registers no webhook (ENABLE_WEBHOOKS=false)
// never asks for its webhook server, and nothing is served or installed.

// EnvWebhookConfigs is the file or directory of the program's webhook configurations (kubebuilder's
// config/webhook). Absent: the webhook server is left as the program configured it.
const EnvWebhookConfigs = "CONTROLLER_LAB_WEBHOOK_CONFIGS"

const webhookHost = "127.0.0.1"

// GetWebhookServer is the program's webhook server, made to serve on this machine the first time
// it is asked for when the parent named the webhook configurations.
func (m *labManager) GetWebhookServer() webhook.Server {
	m.webhookOnce.Do(func() {
		server := m.Manager.GetWebhookServer()
		if path := os.Getenv(EnvWebhookConfigs); path != "" {
			if err := serveWebhooksLocally(m.Manager, server, path, m.lab.holdSynced()); err != nil {
				// The manager fails at Start with the reason, as it would for a port in use.
				_ = m.Manager.Add(failedRunnable{err})
			}
		}
	})
	return m.Manager.GetWebhookServer()
}

// serveWebhooksLocally points server at a free loopback port with a certificate of its own, and
// adds to mgr what installs the configurations of path once the server answers, and calls installed
// when they are (or will never be). An error is what
// the manager's Start is to fail with: the server is given a certificate either way, so that its
// own complaint (no tls.crt) does not come first and hide the reason.
func serveWebhooksLocally(mgr manager.Manager, server webhook.Server, path string, installed func()) error {
	ds, ok := server.(*webhook.DefaultServer)
	if !ok {
		installed()
		return fmt.Errorf("controller-lab: the webhook server is a %T, not controller-runtime's webhook.DefaultServer: Controller Lab cannot serve it on this machine", server)
	}
	cert, certErr := newServingCert(webhookHost)
	// Last, so it wins over a certificate watcher the program set up for a cluster's certificates.
	ds.Options.TLSOpts = append(ds.Options.TLSOpts, func(c *tls.Config) {
		c.Certificates = nil
		c.GetCertificate = func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
			if certErr != nil {
				return nil, certErr
			}
			return &cert.tls, nil
		}
	})
	if certErr != nil {
		installed()
		return fmt.Errorf("controller-lab: %w", certErr)
	}
	port, err := freeLoopbackPort()
	if err != nil {
		installed()
		return fmt.Errorf("controller-lab: no free loopback port for the webhook server: %w", err)
	}
	ds.Options.Host = webhookHost
	ds.Options.Port = port
	// Installed as the cluster's admin, as a cluster's operator installs them: not as the user the
	// program may run as (`--as` its ServiceAccount), whose RBAC rightly has no such verbs.
	admin := rest.CopyConfig(mgr.GetConfig())
	admin.Impersonate = rest.ImpersonationConfig{}
	err = mgr.Add(&webhookInstaller{server: ds, path: path, hostPort: net.JoinHostPort(webhookHost, strconv.Itoa(port)), caBundle: cert.caBundle, config: admin, installed: installed})
	if err != nil {
		installed()
	}
	return err
}

// freeLoopbackPort is a port the kernel has just given out and taken back: the webhook server
// binds it a moment later. Each program gets its own, so copies running side by side never meet.
func freeLoopbackPort() (int, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(webhookHost, "0"))
	if err != nil {
		return 0, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	return port, l.Close()
}

// webhookInstaller installs the webhook configurations once the webhook server answers (before, a
// write they match would fail to reach it), and says where the webhooks are served.
type webhookInstaller struct {
	server   *webhook.DefaultServer
	path     string
	hostPort string
	caBundle []byte
	config   *rest.Config
	// installed lets the parent's scenario start (see lab.holdSynced): called once Start is done.
	installed func()
}

// NeedLeaderElection is false: a replica that is not the leader serves webhooks too.
func (w *webhookInstaller) NeedLeaderElection() bool { return false }

func (w *webhookInstaller) Start(ctx context.Context) error {
	defer w.installed()
	// A server that fails to listen ends the manager, and so this wait, with its own error.
	for w.server.StartedChecker()(&http.Request{}) != nil {
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(20 * time.Millisecond):
		}
	}
	configs, err := readWebhookConfigs(w.path)
	if err != nil {
		return fmt.Errorf("controller-lab: reading the webhook configurations: %w", err)
	}
	if len(configs) == 0 {
		fmt.Fprintf(os.Stderr, "controller-lab: webhook server on https://%s, but %s has no webhook configurations (make manifests writes them): the simulated cluster calls none of its webhooks\n", w.hostPort, w.path)
		return nil
	}
	pointWebhooksAt(configs, w.hostPort, w.caBundle)
	c, err := client.New(w.config, client.Options{Scheme: clientgoscheme.Scheme})
	if err != nil {
		return fmt.Errorf("controller-lab: installing the webhook configurations: %w", err)
	}
	for _, config := range configs {
		if err := createOrReplace(ctx, c, config); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("controller-lab: installing the webhook configuration %s of %s: %w", config.GetName(), w.path, err)
		}
	}
	fmt.Fprintf(os.Stderr, "controller-lab: webhook server on https://%s; installed %s from %s\n", w.hostPort, webhookConfigNames(configs), w.path)
	return nil
}

// createOrReplace creates config, or replaces the one of that name a previous run of the program installed.
func createOrReplace(ctx context.Context, c client.Client, config client.Object) error {
	existing := config.DeepCopyObject().(client.Object)
	err := c.Get(ctx, client.ObjectKeyFromObject(config), existing)
	if apierrors.IsNotFound(err) {
		return c.Create(ctx, config)
	}
	if err != nil {
		return err
	}
	config.SetResourceVersion(existing.GetResourceVersion())
	return c.Update(ctx, config)
}

// failedRunnable ends the manager's Start with err.
type failedRunnable struct{ err error }

func (f failedRunnable) NeedLeaderElection() bool { return false }

func (f failedRunnable) Start(context.Context) error { return f.err }
