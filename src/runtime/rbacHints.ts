import type { ControllerSession } from './controllerSession.ts';
import { missingRule, REFUSAL } from './rbacRefusal.ts';

// What to add when RBAC refused a controller: the rule its Role lacks and the kubebuilder marker
// that would generate it (rbacRefusal.ts reads them from the 403), each once per run, however
// often the request is retried.

export class RbacHints {
  private readonly told = new Set<string>();

  /** A hint line for each refusal in `text` not hinted at before. */
  hintsFor(text: string): string[] {
    if (!text.includes('forbidden')) return [];
    const hints: string[] = [];
    for (const [refusal, user, verb, resource, group] of text.matchAll(REFUSAL)) {
      const key = `${user}|${verb}|${group}|${resource}`;
      if (this.told.has(key)) continue;
      this.told.add(key);
      const missing = missingRule(refusal);
      if (missing) hints.push(`hint: ${missing.user} lacks ${missing.rule}; kubebuilder: ${missing.marker}`);
    }
    return hints;
  }
}

/** Prints a hint for every RBAC refusal the session's controller meets: its informers, its writes, its own log (a Go manager's reflector). */
export function reportRbacHints(session: ControllerSession, print: (line: string) => void): void {
  const hints = new RbacHints();
  const tell = (text: string | undefined) => {
    if (text) for (const hint of hints.hintsFor(text)) print(hint);
  };
  session.on('probe', ({ probe }) => {
    if (probe.kind === 'error' && probe.code === 403) tell(probe.message);
  });
  session.on('reconcileEnd', ({ record }) => {
    for (const write of record.writes) if (write.error?.code === 403) tell(write.error.message);
    if (record.outcome?.kind === 'error') tell(record.outcome.error.message);
  });
  session.on('output', ({ text }) => tell(text));
}
