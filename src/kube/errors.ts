import { ApiError } from '../shared/apiError.ts';

// Errors a person can act on. The CLI prints `describeFailure(err).message` as its one line; the
// VS Code views pick an icon and an action from `kind`.

/** The kubeconfig is missing, unreadable, or names something it does not define. */
export class KubeconfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubeconfigError';
  }
}

/** A resource name that discovery does not know (`kubectl`'s "the server doesn't have a resource type"). */
export class UnknownResourceError extends Error {
  readonly resource: string;
  constructor(resource: string, hint = '') {
    super(`the server doesn't have a resource type "${resource}"${hint}`);
    this.name = 'UnknownResourceError';
    this.resource = resource;
  }
}

/** The request never got an HTTP answer: refused, no such host, TLS failure, timeout. */
export class ConnectionError extends Error {
  readonly server: string;
  readonly code: string;
  constructor(server: string, cause: NodeJS.ErrnoException) {
    super(connectionMessage(server, cause), { cause });
    this.name = 'ConnectionError';
    this.server = server;
    this.code = cause.code ?? 'UNKNOWN';
  }
}

/**
 * The server accepted the request, then went silent: no answer, or a body that stopped arriving, for
 * longer than the transport's stall timeout. The request was aborted; retrying is the cure, so this
 * is never fatal (unlike a ConnectionError before the first sync).
 */
export class StallError extends Error {
  readonly server: string;
  readonly timeoutMs: number;
  constructor(server: string, what: string, timeoutMs: number) {
    super(`${server} sent nothing for ${seconds(timeoutMs)} ${what}: aborted`);
    this.name = 'StallError';
    this.server = server;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The connection closed before the answer ended: kube-apiserver shutting down (a restart, an
 * upgrade) cuts its open watches and lists so, as does a proxy or load balancer. Node says only
 * "aborted"; retrying is the cure (a watch resumes from its last event, a list starts over).
 */
export class ConnectionCutError extends Error {
  readonly server: string;
  constructor(server: string, what: string, cause: Error) {
    super(`the connection to ${server} closed in the middle of ${what}: the server restarted, or a proxy cut it`, { cause });
    this.name = 'ConnectionCutError';
    this.server = server;
  }
}

/** Node's error for a response whose connection closed before its end, named; any other error as it is. */
export function namingCut(err: unknown, server: string, what: string): unknown {
  const bare = err instanceof Error && err.message === 'aborted' && (err as NodeJS.ErrnoException).code === 'ECONNRESET';
  return bare ? new ConnectionCutError(server, what, err) : err;
}

/** A watch event line longer than the client accepts (client-go's decoder refuses frames over 16 MiB). */
export class EventTooLargeError extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`the server sent a watch event longer than the ${size(limit)} limit: the watch was closed`);
    this.name = 'EventTooLargeError';
    this.limit = limit;
  }
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function size(n: number): string {
  if (n >= 1 << 20 && n % (1 << 20) === 0) return `${n / (1 << 20)} MiB`;
  if (n >= 1 << 10 && n % (1 << 10) === 0) return `${n / (1 << 10)} KiB`;
  return `${n}-character`;
}

/** A credential plugin (exec, auth-provider) or credential file failed. */
export class CredentialError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'CredentialError';
  }
}

export type FailureKind =
  | 'kubeconfig'
  | 'credentials'
  | 'unreachable'
  | 'timeout'
  | 'tls'
  | 'unauthorized'
  | 'forbidden'
  | 'unknownResource'
  | 'api'
  | 'other';

export interface Failure {
  kind: FailureKind;
  /** One line, naming the cause; no stack. */
  message: string;
}

/** The server's chain does not lead to a CA the client trusts. */
const UNTRUSTED_CODES = new Set(['SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY']);

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'EPROTO',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

// OpenSSL's verdicts come with many codes (some just 'UNSPECIFIED'); the message says it is TLS.
function isTlsFailure(cause: NodeJS.ErrnoException): boolean {
  const code = cause.code ?? '';
  return TLS_CODES.has(code) || code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || code.startsWith('CERT_') || /certificate|\bssl\b|\btls\b|handshake|signature/i.test(cause.message);
}

function connectionMessage(server: string, cause: NodeJS.ErrnoException): string {
  const code = cause.code ?? '';
  if (code === 'ECONNREFUSED') return `cannot reach ${server}: connection refused`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot reach ${server}: host not found`;
  if (code === 'ETIMEDOUT' || code === 'ECONNTIMEOUT') return `cannot reach ${server}: timed out connecting`;
  if (code === 'ECONNRESET') return `connection to ${server} was reset`;
  if (isTlsFailure(cause)) {
    // Node's advice to use the system's CAs does not apply: a kubeconfig names the CA it trusts.
    const why = cause.message.replace(/; if the root CA is installed locally, try running Node\.js with --use-system-ca$/, '');
    const hint = UNTRUSTED_CODES.has(code) ? ": the server's certificate is not signed by the cluster's certificate-authority in the kubeconfig (is the kubeconfig from another run of the server?)" : '';
    return `TLS handshake with ${server} failed: ${why}${hint}`;
  }
  return `cannot reach ${server}: ${cause.message}`;
}

/** Sorts any error into a kind with a one-line message. */
export function describeFailure(err: unknown): Failure {
  if (err instanceof KubeconfigError) return { kind: 'kubeconfig', message: err.message };
  if (err instanceof CredentialError) return { kind: 'credentials', message: err.message };
  if (err instanceof UnknownResourceError) return { kind: 'unknownResource', message: err.message };
  if (err instanceof ConnectionError) {
    const tls = isTlsFailure(err.cause as NodeJS.ErrnoException);
    const kind = tls ? 'tls' : err.code === 'ETIMEDOUT' || err.code === 'ECONNTIMEOUT' ? 'timeout' : 'unreachable';
    return { kind, message: err.message };
  }
  if (err instanceof StallError) return { kind: 'timeout', message: err.message };
  if (err instanceof ApiError) {
    const detail = err.message ? `: ${firstLine(err.message)}` : '';
    if (err.code === 401) return { kind: 'unauthorized', message: `unauthorized (401): the server rejected the credentials${detail}` };
    if (err.code === 403) return { kind: 'forbidden', message: `forbidden (403)${detail}` };
    return { kind: 'api', message: `the server answered ${err.code}${err.reason ? ` ${err.reason}` : ''}${detail}` };
  }
  if (err instanceof Error) return { kind: 'other', message: firstLine(err.message) || err.name };
  return { kind: 'other', message: String(err) };
}

function firstLine(s: string): string {
  return s.split('\n', 1)[0]?.trim() ?? '';
}
