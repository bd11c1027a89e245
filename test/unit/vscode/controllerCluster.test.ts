import { test } from 'node:test';
import assert from 'node:assert/strict';
import { controllerClusterNote } from '../../../src/vscode/controllers/controllerCluster.ts';

// A Go controller debugged with Debug Controller runs on a simulated cluster of its own: its
// Deployment was not in the tree, and nothing said why.

test('a controller on a cluster of its own says so on its row, and how to see its objects', () => {
  const note = controllerClusterNote('https://127.0.0.1:41779', ['https://127.0.0.1:46461']);
  assert.equal(note?.description, 'own cluster 127.0.0.1:41779');
  assert.match(note?.tooltip ?? '', /not one the view shows/);
  assert.match(note?.tooltip ?? '', /"cluster": "view"/);
});

test('a controller on the view\'s cluster adds nothing to its row', () => {
  const note = controllerClusterNote('https://127.0.0.1:46461/', ['https://127.0.0.1:46461']);
  assert.equal(note?.description, undefined);
  assert.match(note?.tooltip ?? '', /the view's/);
});

test('no server known: no note', () => {
  assert.equal(controllerClusterNote(undefined, []), undefined);
});
