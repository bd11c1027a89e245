// What no controller's correctness is judged by: Events (a record of what happened, not state) and
// Leases (leader election and node heartbeats, renewed on a timer). They are not compared, not
// perturbed, and their writes are neither a write loop nor a sign that the controller is busy.

const NOT_STATE = new Set(['/events', 'events.k8s.io/events', 'coordination.k8s.io/leases']);

/** `group` is '' for the core group; `resource` is the plural (`leases`). */
export function isNotState(group: string, resource: string): boolean {
  return NOT_STATE.has(`${group}/${resource}`);
}
