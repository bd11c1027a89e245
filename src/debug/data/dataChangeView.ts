import { callSiteText, untriggeredText, type AttributedChange } from './dataWatch.ts';

// The Data Breakpoint scope: per watched field that changed, its value before and after, and who
// changed it — this reconcile's write (verb, object, the resourceVersion the server answered) or
// someone outside the controller.

export function dataChangeView(changes: readonly AttributedChange[]): Record<string, unknown> {
  const base = (c: AttributedChange) => `${c.kind} ${c.key} ${c.field}`;
  // A field that changed twice here (created by a scenario, then written) gets a row per change.
  const twice = (c: AttributedChange) => changes.filter((o) => base(o) === base(c)).length > 1;
  return Object.fromEntries(
    changes.map((c) => [
      twice(c) ? `${base(c)} · rv ${c.resourceVersion}` : base(c),
      {
        before: c.before,
        after: c.after,
        resourceVersion: c.resourceVersion,
        event: c.type,
        changedBy: c.write
          ? `this reconcile: ${c.write.record.verb} ${c.write.record.kind} ${c.write.record.namespace ? `${c.write.record.namespace}/` : ''}${c.write.record.name}${c.write.record.caller ? ` at ${callSiteText(c.write.record.caller)}` : ''} (write ${c.write.index + 1})`
          : `outside the controller (a scenario, kubectl or another client); ${c.untriggered ? `it triggered no reconcile${untriggeredText(c)}: this is the latest one` : 'it triggered this reconcile'}`,
        ...(c.write ? { write: c.write.record } : {}),
        breakpoint: c.watch,
      },
    ]),
  );
}
