// Text from user code (log lines, error messages) crosses IPC, lands in records kept for stepping
// back and is printed: a 20 MB string must not stall the host or flood the terminal.

/** Longest log message or error text kept, in characters. */
export const MAX_TEXT = 16 * 1024;

export function truncateText(text: string, max = MAX_TEXT): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** Log fields as plain JSON (functions, cycles and BigInts cannot cross IPC), cut down when huge. */
export function plainFields(fields: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (fields === undefined || fields === null || typeof fields !== 'object') return undefined;
  let json: string | undefined;
  try {
    json = JSON.stringify(fields);
  } catch (err) {
    return { unserializable: (err as Error).message };
  }
  if (json === undefined) return undefined;
  if (json.length > MAX_TEXT) return { truncated: truncateText(json) };
  return JSON.parse(json) as Record<string, unknown>;
}
