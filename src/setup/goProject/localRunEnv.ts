// What a kubebuilder main needs in its environment to run outside a cluster. With webhooks, its
// main registers them unless ENABLE_WEBHOOKS=false, and their server then needs serving
// certificates that cert-manager provides in a cluster: run locally (`make run`, `controller-lab
// run`, the debugger) the manager stops at once (`open …/serving-certs/tls.crt: no such file`).
// kubebuilder's own advice for a local run is ENABLE_WEBHOOKS=false.

export function localRunEnv(mainText: string): Record<string, string> {
  return /os\.Getenv\("ENABLE_WEBHOOKS"\)/.test(mainText) ? { ENABLE_WEBHOOKS: 'false' } : {};
}

/** `ENABLE_WEBHOOKS=false ` before a command (nothing without variables). */
export function envPrefix(env: Record<string, string>): string {
  return Object.entries(env).map(([k, v]) => `${k}=${v} `).join('');
}

/** Why the environment is what it is, for a comment beside the command. */
export function localRunNote(env: Record<string, string>): string | undefined {
  return env.ENABLE_WEBHOOKS === 'false' ? 'ENABLE_WEBHOOKS=false: the webhook server needs serving certificates, which cert-manager makes in a cluster' : undefined;
}
