import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BearerAuth } from '../../../../src/sim/server/bearerAuth.ts';

test('the Authorization header is read as kube-apiserver reads it: any case of "Bearer", surrounding spaces trimmed', () => {
  const auth = new BearerAuth('s3cret-token');
  for (const header of ['Bearer s3cret-token', 'bearer s3cret-token', 'BEARER s3cret-token', '  Bearer s3cret-token  ']) {
    assert.equal(auth.authenticate(header)?.username, 'controller-lab', header);
  }
  for (const header of [undefined, '', 'Bearer', 'Bearer ', 'Basic s3cret-token', 'Bearer s3cret-tokenx', 'Bearer S3CRET-TOKEN', 'Bearers3cret-token']) {
    assert.equal(auth.authenticate(header), undefined, String(header));
  }
});
