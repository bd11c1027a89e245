/** The debugger's type in launch configurations (`"type": "controller-lab"`). */
export const DEBUG_TYPE = 'controller-lab';

/** A Go file is debugged as its package (`program`); a TypeScript/JavaScript file as `controller`. */
export function launchTarget(file: string): { controller: string } | { program: string } {
  return file.endsWith('.go') ? { program: file } : { controller: file };
}
