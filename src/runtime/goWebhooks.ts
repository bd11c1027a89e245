import { join } from 'node:path';

// A Go program's webhooks on a simulated cluster Controller Lab started: controllerlab.Wrap serves
// the manager's webhook server on a free loopback port with a certificate of its own and installs
// the project's webhook configurations (kubebuilder's config/webhook, what `make manifests` writes)
// pointing at it. Never for a cluster someone else runs: there cert-manager and the manifests do it.

/** Where the program finds its webhook configurations (read by go/controllerlab/webhooks.go). */
export const WEBHOOK_CONFIGS_ENV = 'CONTROLLER_LAB_WEBHOOK_CONFIGS';

/** The variable that serves the webhooks of the Go module at `moduleDir` locally, unless the user set it. */
export function localWebhooksEnv(moduleDir: string, userEnv: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv {
  if (userEnv?.[WEBHOOK_CONFIGS_ENV] !== undefined || process.env[WEBHOOK_CONFIGS_ENV] !== undefined) return {};
  return { [WEBHOOK_CONFIGS_ENV]: join(moduleDir, 'config', 'webhook') };
}
