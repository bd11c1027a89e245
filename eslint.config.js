import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  // types/controller-lab.d.ts is generated from src/runtime/api.ts by the build (a unit test keeps them equal).
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
  {
    // The core runs in plain Node and the CLI: it must never reach for the VS Code API.
    files: ['src/shared/**', 'src/informer/**', 'src/workqueue/**', 'src/sim/**', 'src/runtime/**', 'src/kube/**', 'src/cli/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'core code must not import vscode' }] }] },
  },
  {
    files: ['webview/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
