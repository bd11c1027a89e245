// Child process that hosts a user controller. Filled in by the controller runtime.
process.stderr.write('controller-lab controller host: not implemented yet\n');
process.exit(1);
