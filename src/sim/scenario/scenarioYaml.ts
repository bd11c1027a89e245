import type { Document } from 'yaml';
import type { ScenarioProblem } from './scenarioError.ts';

// The YAML parser's own failures, as problems of the file in a person's words. Two inputs exhaust
// it rather than break its grammar: nesting hundreds of levels deep (it recurses once a level and
// reports running out of stack as it found it) and aliases that expand to millions of nodes (a
// "billion laughs"; it throws from toJS with no position).

interface YamlError {
  message: string;
  linePos?: [{ line: number; col: number }, ...unknown[]];
}

/** A parse error at its line, in the parser's first line of words without its own position. */
export function yamlProblem(file: string | undefined, e: YamlError): ScenarioProblem {
  const pos = e.linePos?.[0];
  const said = (e.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
  const message = /Maximum call stack size exceeded/.test(said) ? 'nested too deeply to read (hundreds of levels; a Kubernetes object has tens)' : said;
  return { ...(file === undefined ? {} : { file }), line: pos?.line ?? 0, column: pos?.col ?? 0, path: '', message: `YAML: ${message}` };
}

/** The document's value, or the problem that its aliases expand past what the parser allows. */
export function documentValue(doc: Document.Parsed, file?: string): { value: unknown; problem?: undefined } | { problem: ScenarioProblem } {
  try {
    return { value: doc.toJS() };
  } catch (err) {
    if (!(err instanceof ReferenceError && /alias count/.test(err.message))) throw err;
    const message = 'YAML: its aliases expand to too many nodes (an alias of an alias of …): write the objects out';
    return { problem: { ...(file === undefined ? {} : { file }), line: 1, column: 1, path: '', message } };
  }
}
