// How the sim's state dir and the CLI name the way past a damaged state dir: the flag that accepts
// the loss of what it no longer holds, in the line that stops the start.

export const ACCEPT_LOSS_FLAG = '--accept-state-loss';

/** `; to start without it: controller-lab sim --state-dir DIR --accept-state-loss`, the end of that line. */
export function acceptLossHint(dir: string): string {
  return `; to start without it: controller-lab sim --state-dir ${dir} ${ACCEPT_LOSS_FLAG}`;
}
