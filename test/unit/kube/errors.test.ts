import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConnectionError, CredentialError, EventTooLargeError, KubeconfigError, StallError, UnknownResourceError, describeFailure } from '../../../src/kube/errors.ts';
import { ApiError } from '../../../src/shared/apiError.ts';

const errno = (code: string, message: string): NodeJS.ErrnoException => Object.assign(new Error(message), { code });

test('each failure kind gets a one-line message naming its cause', () => {
  const server = 'https://10.0.0.1:6443';
  const cases: [unknown, string, string][] = [
    [new KubeconfigError('kubeconfig /x does not exist'), 'kubeconfig', 'kubeconfig /x does not exist'],
    [new CredentialError('exec credential plugin "aws" for user "u" failed: expired'), 'credentials', 'exec credential plugin "aws" for user "u" failed: expired'],
    [new UnknownResourceError('gizmos'), 'unknownResource', `the server doesn't have a resource type "gizmos"`],
    [new ConnectionError(server, errno('ECONNREFUSED', 'connect ECONNREFUSED')), 'unreachable', `cannot reach ${server}: connection refused`],
    [new ConnectionError(server, errno('ENOTFOUND', 'getaddrinfo ENOTFOUND')), 'unreachable', `cannot reach ${server}: host not found`],
    [new ConnectionError(server, errno('ETIMEDOUT', 'no connection after 15000 ms')), 'timeout', `cannot reach ${server}: timed out connecting`],
    [new ConnectionError(server, errno('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate')), 'tls', `TLS handshake with ${server} failed: self-signed certificate`],
    [new ConnectionError(server, errno('UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate; if the root CA is installed locally, try running Node.js with --use-system-ca')), 'tls',
      `TLS handshake with ${server} failed: unable to verify the first certificate: the server's certificate is not signed by the cluster's certificate-authority in the kubeconfig (is the kubeconfig from another run of the server?)`],
    [new ApiError(401, 'Unauthorized', 'Unauthorized'), 'unauthorized', 'unauthorized (401): the server rejected the credentials: Unauthorized'],
    [new ApiError(403, 'pods is forbidden: User "x" cannot list\nresource', 'Forbidden'), 'forbidden', 'forbidden (403): pods is forbidden: User "x" cannot list'],
    [new ApiError(500, 'etcdserver: timeout', 'InternalError'), 'api', 'the server answered 500 InternalError: etcdserver: timeout'],
    [new StallError(server, 'in answer to GET /api/v1/pods', 60_000), 'timeout', `${server} sent nothing for 60 s in answer to GET /api/v1/pods: aborted`],
    [new EventTooLargeError(16 << 20), 'other', 'the server sent a watch event longer than the 16 MiB limit: the watch was closed'],
    [new Error('boom\n  at somewhere'), 'other', 'boom'],
  ];
  for (const [err, kind, message] of cases) {
    assert.deepEqual(describeFailure(err), { kind, message });
  }
});
