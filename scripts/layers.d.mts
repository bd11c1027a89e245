import type { Linter } from 'eslint';

/** The simulated cluster's floors, from the ground up: the rooms (folders and files of src/sim) on each (see layers.mjs). */
export const SIM_FLOORS: readonly (readonly string[])[];

/** The layer rules as ESLint config blocks (see layers.mjs). */
export function layerRules(): Linter.Config[];
