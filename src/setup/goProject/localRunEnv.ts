import { parseAllDocuments } from 'yaml';

// What a kubebuilder main needs in its environment to run outside a cluster. Its webhooks need
// nothing: on a simulated cluster Controller Lab starts (`run --sim`, `check`, the debugger),
// controllerlab.Wrap serves them with a certificate of its own and installs the project's webhook
// configurations (src/runtime/goWebhooks.ts), so ENABLE_WEBHOOKS=false is not needed.
// The manager's Deployment (config/manager/manager.yaml) may set variables its code reads, as the
// deploy-image plugin's BUSYBOX_IMAGE: without them every reconcile fails, so a local run gets them.

export const MANAGER_MANIFEST = 'config/manager/manager.yaml';

export function localRunEnv(managerManifest?: string): Record<string, string> {
  return managerEnv(managerManifest ?? '');
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

/** `BUSYBOX_IMAGE=busybox:1.36.1 ` before a command (nothing without variables), values quoted for a shell where needed. */
export function envPrefix(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([k, v]) => `${k}=${/^[\w./:@%+,=-]*$/.test(v) ? v : `'${v.replaceAll("'", "'\\''")}'`} `)
    .join('');
}

/** Why the environment is what it is, for a comment beside the command. */
export function localRunNote(env: Record<string, string>): string | undefined {
  const fromManifest = Object.keys(env);
  return fromManifest.length ? `${fromManifest.join(', ')}: as ${MANAGER_MANIFEST} sets ${fromManifest.length > 1 ? 'them' : 'it'} for the manager` : undefined;
}
