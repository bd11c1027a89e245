// Where a controller's build failed, read off the compiler's message: the `file:line:col: text`
// lines `go build` and the TypeScript bundler print (absolute paths by then), so that the editor can
// list them as problems and go to the first one instead of offering launch.json.

export interface BuildErrorLocation {
  /** Absolute path of the source file. */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based; 1 when the compiler gave none. */
  column: number;
  message: string;
}

const LOCATED = /^(\/[^:\n]+\.(?:go|[cm]?[jt]sx?)):(\d+)(?::(\d+))?:\s*(?:error:\s*)?(.+)$/;

/** Each located error of `text`, in order; none for a message that names no source line. */
export function buildErrorLocations(text: string): BuildErrorLocation[] {
  const found: BuildErrorLocation[] = [];
  for (const raw of text.split('\n')) {
    const m = LOCATED.exec(raw.trim());
    if (!m) continue;
    found.push({ file: m[1] as string, line: Number(m[2]), column: m[3] ? Number(m[3]) : 1, message: (m[4] as string).trim() });
  }
  return found;
}
