import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { layerRules } from './scripts/layers.mjs';

export default tseslint.config(
  // types/controller-lab.d.ts is generated from src/controllerProtocol/api.ts by the build (a unit test keeps them equal).
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test-output/**', '.bench-output/**', 'examples/**/node_modules/**', 'types/controller-lab.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': 'off',
    },
  },
  // Which part may import which (README, "How it is built"); see scripts/layers.mjs.
  ...layerRules(),
  {
    files: ['webview/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
