import { formatWhy, type WhyAnswer, type WhyTarget } from '../../runtime/index.ts';

// "Why (not)?" asked from VS Code (an object in the tree, an event on the timeline): every running
// controller session answers from what it recorded, run from the extension or a debug session.

export interface WhyAsker {
  why(target: WhyTarget): WhyAnswer;
}

export function whyReport(sessions: readonly WhyAsker[], target: WhyTarget): string {
  const what = `${target.kind} ${target.key}${target.resourceVersion ? ` at rv ${target.resourceVersion}` : ''}`;
  if (sessions.length === 0) {
    return `Why (not)? ${what}\n  No controller is running, so nothing recorded what became of its events: run or debug a controller, then ask again.`;
  }
  return sessions.map((s) => formatWhy(s.why(target))).join('\n\n');
}

/** The kind of a timeline event: its own, or guessed from its resource (`deployments.apps` → `deployment`, matched case-insensitively). */
export function kindOfTimelineResource(resource: string): string {
  const plural = resource.split('.')[0] ?? resource;
  if (plural.endsWith('ies')) return `${plural.slice(0, -3)}y`;
  if (/(ses|xes|ches|shes)$/.test(plural)) return plural.slice(0, -2);
  return plural.endsWith('s') ? plural.slice(0, -1) : plural;
}
