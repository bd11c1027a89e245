// How "Add Controller Types to Workspace" edits tsconfig.json: the ambient `controller-lab` module
// declaration must be part of the program. tsconfig.json is JSON with comments (what `tsc --init`
// writes): it is read as tsc reads it, a pattern that already takes the file in leaves it alone, and
// an edit keeps the comments. Only a file tsc could not read either is left to the user.
import { applyEdits, modify, parse, type ParseError } from 'jsonc-parser';

export interface TsconfigEdit {
  /** The new file content, or undefined when nothing is written. */
  text?: string;
  /** One sentence for the notification. */
  hint: string;
}

export const NEW_TSCONFIG = { compilerOptions: { target: 'es2022', module: 'nodenext', strict: true, noEmit: true }, include: ['**/*.ts'] };

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2 } };

export function includeTypesIn(existing: string | undefined, typesPath: string): TsconfigEdit {
  if (existing === undefined) {
    const config = { ...NEW_TSCONFIG, include: [...NEW_TSCONFIG.include, typesPath] };
    return { text: JSON.stringify(config, null, 2) + '\n', hint: 'Created tsconfig.json including it.' };
  }
  const errors: ParseError[] = [];
  const config = parse(existing, errors, { allowTrailingComma: true }) as { include?: unknown; files?: unknown } | undefined;
  if (errors.length > 0 || typeof config !== 'object' || config === null) return { hint: `Add "${typesPath}" to "include" in tsconfig.json.` };
  const include = strings(config.include);
  const files = strings(config.files);
  if (files?.includes(typesPath) || include?.some((pattern) => takesIn(pattern, typesPath))) return { hint: 'tsconfig.json already includes it.' };
  if (!include && !files) return { hint: 'tsconfig.json includes every .ts file, so it is picked up.' };
  const key = include ? 'include' : 'files';
  const edits = modify(existing, [key, -1], typesPath, { ...FORMAT, isArrayInsertion: true });
  return { text: applyEdits(existing, edits), hint: 'Added it to tsconfig.json.' };
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}

/**
 * Whether an `include` pattern takes in the file, as tsc matches them: `*` within a name, `**\/`
 * any directories, and a pattern without a wildcard or extension is a directory taken whole.
 */
function takesIn(pattern: string, file: string): boolean {
  const p = pattern.replace(/^\.\//, '').replace(/\/$/, '');
  if (!/[*?]/.test(p) && !/\.[^/]+$/.test(p)) return p === '.' || p === '' || file.startsWith(`${p}/`);
  const source = p
    .split(/(\*\*\/|\*\*|\*|\?)/)
    .map((part) => (part === '**/' ? '(?:.*/)?' : part === '**' ? '.*' : part === '*' ? '[^/]*' : part === '?' ? '[^/]' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`).test(file);
}
