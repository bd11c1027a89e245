// A scenario file that cannot run: every problem found, each pointing at a line and a field.

export interface ScenarioProblem {
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
    super(problems.map((p) => `${fileName}:${p.line}:${p.column}: ${p.path ? `${p.path}: ` : ''}${p.message}`).join('\n'));
    this.name = 'ScenarioError';
    this.problems = problems;
    this.fileName = fileName;
  }
}
