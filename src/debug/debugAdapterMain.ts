// Standalone debug adapter entry (stdin/stdout DAP). Filled in by the reconcile debugger.
process.stderr.write('controller-lab debug adapter: not implemented yet\n');
process.exit(1);
