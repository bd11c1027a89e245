import type { WhyAnswer } from '../../runtime/index.ts';

// An outside change of a watched field that triggered no reconcile: why not, in a few words for
// the Data Breakpoint scope and the stop's description (`filtered by predicate managed (For)`),
// read from the "why (not)?" answer of that change, which the Debug Console gives in full.

const FILTERED = /^yes \((\w+)\), by predicate (.*): it returned false/;
const UNMAPPED = /^no request \((\w+)\)/;

/** Each controller that did not reconcile the change, and its last step's reason; undefined: none known. */
export function untriggeredReason(answer: WhyAnswer): string | undefined {
  const missed = (answer.changes[0]?.controllers ?? []).filter((c) => c.verdict === 'not reconciled');
  const reasons = missed.flatMap((c) => {
    const last = c.steps.at(-1);
    if (!last) return [];
    const filtered = last.step === 'Filtered' ? FILTERED.exec(last.answer) : null;
    const unmapped = last.step === 'Mapped to' ? UNMAPPED.exec(last.answer) : null;
    const reason = filtered ? `filtered by predicate ${filtered[2]} (${filtered[1]})` : unmapped ? `mapped to no request (${unmapped[1]})` : `${last.step.toLowerCase()}? ${last.answer}`;
    return [missed.length > 1 ? `${c.controller}: ${reason}` : reason];
  });
  return reasons.length > 0 ? reasons.join('; ') : undefined;
}
