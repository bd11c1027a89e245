// An RBAC refusal as kube-apiserver's 403 words it (`User "…" cannot list resource "pods" in API
// group "" …`): the rule the user lacks and the kubebuilder marker that would grant it.

export const REFUSAL = /User \\?"([^"\\]+)\\?" cannot (\S+) resource \\?"([^"\\]+)\\?" in API group \\?"([^"\\]*)\\?"/g;

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
