// A scenario file that cannot run: every problem found, each pointing at a line and a field.

export interface ScenarioProblem {
  /** The file the problem is in, when not the scenario itself (a file it includes). */
  file?: string;
  /** 1-based; 0 when unknown. */
  line: number;
  column: number;
  /** The field, e.g. `steps[2].patch.target.kind`. */
  path: string;
  message: string;
}

export class ScenarioError extends Error {
  readonly problems: ScenarioProblem[];
  readonly fileName: string;

  constructor(fileName: string, problems: ScenarioProblem[]) {
    super(problems.map((p) => `${p.file ?? fileName}:${p.line}:${p.column}: ${p.path ? `${p.path}: ` : ''}${p.message}`).join('\n'));
    this.name = 'ScenarioError';
    this.problems = problems;
    this.fileName = fileName;
  }
}
