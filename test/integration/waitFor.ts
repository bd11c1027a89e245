/**
 * Polls `probe` until it returns something other than undefined/false, or fails after `timeoutMs`.
 * A probe that throws counts as "not yet"; its last error is named if time runs out.
 */
export async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = probe();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out waiting for ${what}${cause}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}
