import { access } from 'node:fs/promises';

// The state dir's credentials (token, CA) are made one after the other on a first start: one of
// them missing while another, made with it, is there was deleted, not never made. Replacing it
// would shut out every kubeconfig written before, so each says so the same way.

/** `FILE: missing while WITNESS is there`, when one of `witnesses` is there; else undefined. */
export async function missingWhile(missing: string, witnesses: readonly string[]): Promise<string | undefined> {
  for (const witness of witnesses) {
    try {
      await access(witness);
      return `${missing}: missing while ${witness} is there`;
    } catch {
      // absent: try the next
    }
  }
  return undefined;
}
