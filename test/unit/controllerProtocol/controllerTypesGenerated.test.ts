// types/controller-lab.d.ts is generated from src/controllerProtocol/api.ts (by the build): the file
// in the repository and in the .vsix must be what the sources give today, internals left out.
import { it } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
// @ts-expect-error: a plain .mjs build script without types
import { CONTROLLER_TYPES_PATH, generateControllerTypes } from '../../../scripts/controllerTypes.mjs';

it('types/controller-lab.d.ts is what src/controllerProtocol/api.ts gives, without the internal declarations', () => {
  const generated = (generateControllerTypes as () => string)();
  assert.equal(readFileSync(CONTROLLER_TYPES_PATH as string, 'utf8'), generated, 'run `node scripts/controllerTypes.mjs`');
  assert.match(generated, /^declare module 'controller-lab' \{$/m);
  for (const name of ['defineController', 'TerminalError', 'ReconcileContext', 'KubeObject', 'ControllerSpec']) assert.match(generated, new RegExp(`export (function|class|interface) ${name}\\b`));
  for (const internal of ['USER_API_GLOBAL', 'userApi', 'isControllerDefinition', 'isTerminalError', 'CONTROLLER_BRAND']) assert.doesNotMatch(generated, new RegExp(internal));
});
