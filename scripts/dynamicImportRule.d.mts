import type { ESLint } from 'eslint';

/** The rule's id as the layer rules configure it: `import('…')` held to no-restricted-imports' options (see dynamicImportRule.mjs). */
export const RULE_ID: string;

/** The ESLint plugin that holds it, registered as `layers`. */
export const layersPlugin: ESLint.Plugin;
