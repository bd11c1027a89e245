import { parseAllDocuments } from 'yaml';

// What a kubebuilder main needs in its environment to run outside a cluster. With webhooks, its
// main registers them unless ENABLE_WEBHOOKS=false, and their server then needs serving
// certificates that cert-manager provides in a cluster: run locally (`make run`, `controller-lab
// run`, the debugger) the manager stops at once (`open …/serving-certs/tls.crt: no such file`).
// kubebuilder's own advice for a local run is ENABLE_WEBHOOKS=false.
// The manager's Deployment (config/manager/manager.yaml) may set variables its code reads, as the
// deploy-image plugin's BUSYBOX_IMAGE: without them every reconcile fails, so a local run gets them.

export const MANAGER_MANIFEST = 'config/manager/manager.yaml';

export function localRunEnv(mainText: string, managerManifest?: string): Record<string, string> {
  return { ...managerEnv(managerManifest ?? ''), ...(/os\.Getenv\("ENABLE_WEBHOOKS"\)/.test(mainText) ? { ENABLE_WEBHOOKS: 'false' } : {}) };
}

interface Container {
  name?: unknown;
  env?: { name?: unknown; value?: unknown }[];
}

/** The variables with a literal value (not valueFrom) the manager container of a Deployment in `manifest` sets. */
export function managerEnv(manifest: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const doc of parseAllDocuments(manifest)) {
    if (doc.errors.length) continue;
    const value = doc.toJS() as { kind?: unknown; spec?: { template?: { spec?: { containers?: Container[] } } } } | null;
    if (value?.kind !== 'Deployment') continue;
    const containers = value.spec?.template?.spec?.containers ?? [];
    // kubebuilder names it `manager`; a Deployment of one container is the manager whatever its name.
    const manager = containers.find((c) => c.name === 'manager') ?? (containers.length === 1 ? containers[0] : undefined);
    for (const e of Array.isArray(manager?.env) ? manager.env : []) {
      if (typeof e?.name === 'string' && e.value !== undefined && e.value !== null && typeof e.value !== 'object') env[e.name] = String(e.value);
    }
  }
  return env;
}

/** `ENABLE_WEBHOOKS=false ` before a command (nothing without variables), values quoted for a shell where needed. */
export function envPrefix(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([k, v]) => `${k}=${/^[\w./:@%+,=-]*$/.test(v) ? v : `'${v.replaceAll("'", "'\\''")}'`} `)
    .join('');
}

/** Why the environment is what it is, for a comment beside the command. */
export function localRunNote(env: Record<string, string>): string | undefined {
  const notes: string[] = [];
  const fromManifest = Object.keys(env).filter((k) => k !== 'ENABLE_WEBHOOKS');
  if (fromManifest.length) notes.push(`${fromManifest.join(', ')}: as ${MANAGER_MANIFEST} sets ${fromManifest.length > 1 ? 'them' : 'it'} for the manager`);
  if (env.ENABLE_WEBHOOKS === 'false') notes.push('ENABLE_WEBHOOKS=false: the webhook server needs serving certificates, which cert-manager makes in a cluster');
  return notes.length ? notes.join('; ') : undefined;
}
