// What a controller's call to process.exit becomes inside the controller host: an ordinary error,
// thrown where it was called, so the reconcile that called it fails visibly and the host lives on.

export class ProcessExitError extends Error {
  readonly exitCode: number | string | null | undefined;

  constructor(code: number | string | null | undefined) {
    super(`process.exit(${code ?? ''}) called: the controller host does not exit for a controller (return or throw from reconcile instead)`);
    this.name = 'ProcessExitError';
    this.exitCode = code;
  }
}
