// The planted-bug controllers in Go (test/check/go, controller-runtime), checked as a user checks them.
import { plantedBugTests } from './plantedBugs.ts';

plantedBugTests('Go', (name, variant) => `./test/check/go/${name}/${variant}`, ['historian', 'stamper', 'binder', 'keypair', 'reaper', 'restarter']);
