import type { ControllerSession } from './controllerSession.ts';

// What to add when RBAC refused a controller: read from kube-apiserver's 403 message (`User "…"
// cannot list resource "pods" in API group "" …`), the rule its Role lacks and the kubebuilder
// marker that would generate it — each once per run, however often the request is retried.

const REFUSAL = /User \\?"([^"\\]+)\\?" cannot (\S+) resource \\?"([^"\\]+)\\?" in API group \\?"([^"\\]*)\\?"/g;

/** The rule a 403's message says its user lacks, and the kubebuilder marker that grants it; undefined when it names none. */
export function missingRule(message: string): { user: string; rule: string; marker: string } | undefined {
  for (const [, user, verb, resource, group] of message.matchAll(REFUSAL)) {
    if (user === undefined || verb === undefined || resource === undefined || group === undefined) continue;
    const rule = `{apiGroups: [${JSON.stringify(group)}], resources: [${JSON.stringify(resource)}], verbs: [${JSON.stringify(verb)}]}`;
    // An informer lists then watches (and a cached client gets): a marker for one of them wants all three.
    const verbs = verb === 'list' || verb === 'watch' ? 'get;list;watch' : verb;
    return { user, rule, marker: `// +kubebuilder:rbac:groups=${group || '""'},resources=${resource},verbs=${verbs}` };
  }
  return undefined;
}

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
