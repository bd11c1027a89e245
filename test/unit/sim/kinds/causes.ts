// The causes of a 422 as [reason, field, message], for comparing with what kube-apiserver answers.
import assert from 'node:assert/strict';
import type { Answer } from '../server/httpClient.ts';

export function causes(r: Answer): [string, string, string][] {
  assert.equal(r.status, 422, r.body);
  assert.equal(r.json().reason, 'Invalid');
  return r.json().details.causes.map((c: { reason: string; field: string; message: string }) => [c.reason, c.field, c.message]);
}
