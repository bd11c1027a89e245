import type { Cause } from '../../../shared/apiErrors.ts';

// What the API server's thread and the rule worker share: a flag the worker sets when an
// answer (or its readiness) is posted, and the rule it is running, to name it on a timeout.

export const STATE = { flag: 0, progressLength: 1 } as const;
export const PROGRESS_OFFSET = 8;
export const SHARED_BYTES = PROGRESS_OFFSET + 16 * 1024;

/** A request's rules to run: the schema by id, sent along only the first time this worker sees it. */
export interface RuleJob {
  schemaId: number;
  schema?: unknown;
  /** Drop the schemas kept so far (the API server keeps the count bounded). */
  forgetSchemas?: boolean;
  obj: unknown;
  old: unknown;
  /** The path of a value checked on its own (a schema's default); absent for a custom resource. */
  at?: string;
}

export type RuleAnswer = { causes: Cause[] } | { error: string };

export interface RunningRule {
  field: string;
  schemaType: string;
  rule: string;
}
