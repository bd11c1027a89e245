// The planted-bug controllers in TypeScript (test/check/ts), checked as a user checks them.
import { plantedBugTests } from './plantedBugs.ts';

plantedBugTests('TypeScript', (name, variant) => `test/check/ts/${name}/${variant}.ts`, ['linker', 'replicator', 'registrar', 'templater', 'mirror', 'guard']);
