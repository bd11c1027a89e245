import { removeImport } from './goImports.ts';
import { GoSource } from './goScanner.ts';

// kubebuilder's suites look for envtest's binaries under bin/k8s before starting the environment
// (getFirstFoundEnvTestBinaryDir, "to allow running tests from IDEs"). On simtest there are no
// binaries to find: the lookup only logs `Failed to read directory ../../bin/k8s` as an ERROR with a
// stack in every run. Only kubebuilder's own block and helper go (a lookup the user wrote stays), and
// the `os` import with them when nothing else uses it.

const HELPER = 'getFirstFoundEnvTestBinaryDir';

/** The scaffolded call: its comment line, the if, and the blank line after it. */
const CALL_BLOCK = new RegExp(
  String.raw`^[ \t]*// Retrieve the first found binary directory to allow running tests from IDEs\n` +
    String.raw`[ \t]*if ${HELPER}\(\) != "" \{\n` +
    String.raw`[ \t]*testEnv\.BinaryAssetsDirectory = ${HELPER}\(\)\n` +
    String.raw`[ \t]*\}\n(?:[ \t]*\n)?`,
  'm',
);

/** The helper's declaration with the doc comment right above it. */
function helperDeclaration(text: string): { start: number; end: number } | undefined {
  const src = new GoSource(text);
  const decl = src.find(new RegExp(String.raw`^func ${HELPER}\(\) string \{`, 'm'));
  if (!decl) return undefined;
  const close = src.closing(decl.index + decl[0].length - 1);
  if (close < 0) return undefined;
  let start = decl.index;
  // Its doc comment: the `//` lines right above it.
  for (;;) {
    const prev = text.lastIndexOf('\n', start - 2);
    const line = text.slice(prev + 1, start - 1);
    if (!/^\/\//.test(line)) break;
    start = prev + 1;
  }
  // The blank line that separated it from what came before.
  if (text.slice(start - 2, start) === '\n\n') start -= 1;
  return { start, end: src.lineEnd(close) };
}

/** Removes kubebuilder's envtest binary lookup; undefined when the file has none as scaffolded. */
export function dropEnvtestBinaryLookup(text: string): string | undefined {
  const call = CALL_BLOCK.exec(text);
  if (!call || !new GoSource(text).isCode(call.index + call[0].indexOf('if '))) return undefined;
  let out = text.slice(0, call.index) + text.slice(call.index + call[0].length);
  const decl = helperDeclaration(out);
  // Called from somewhere else too: leave it all as it was.
  if (!decl || new GoSource(out.slice(0, decl.start) + out.slice(decl.end)).find(new RegExp(String.raw`\b${HELPER}\b`))) return undefined;
  out = out.slice(0, decl.start) + out.slice(decl.end);
  if (!new GoSource(out).find(/\bos\s*\./)) out = removeImport(out, 'os');
  return out;
}
