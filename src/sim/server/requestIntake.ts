import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../../shared/apiError.ts';
import { ImpersonationHeadersError } from '../auth/impersonation.ts';
import type { SimClusterApi } from '../simCluster.ts';
import type { UserInfo } from '../vocabulary/userInfo.ts';
import type { ClientContexts } from './clientContexts.ts';
import { closeConnectionAfter } from './http2Settings.ts';
import { isExemptFromLimit, sendTooManyRequests, type InFlightLimiter } from './inFlightLimit.ts';
import { setRequestTimeout } from './requestBody.ts';
import { checkRequestTimeout } from './requestDeadline.ts';
import { setClassificationHeaders } from './priorityAndFairness.ts';
import { requestAttributes } from '../auth/requestAttributes.ts';
import { parseRequestPath, splitUrl } from './requestPath.ts';
import type { Route } from './requestRouter.ts';
import { wasRecordedByStore } from './resourceHandler.ts';
import { sendStatus, sendText } from './responses.ts';
import type { ServerCredentials } from './serverCredentials.ts';
import { PageNotFound, statusFromError, UNAUTHORIZED_STATUS } from './status.ts';

// A request's way in, in kube-apiserver's order: a malformed `timeout` (400), authentication (a 401 before anything about the
// caller is kept), impersonation, API Priority and Fairness' classification (its headers), the in-flight limit (429), the time its body may take, then the
// router. Whatever the router throws is answered as a Status; a non-API error is a bug of ours: a
// 500, said on stderr, and the server keeps serving.

export interface IntakeParts {
  cluster: SimClusterApi;
  credentials: ServerCredentials;
  contexts: ClientContexts;
  inFlight: InFlightLimiter;
  requestTimeoutMs: number;
  route: Route;
  reportInternalError: (message: string) => void;
}

export function requestIntake(parts: IntakeParts): (req: IncomingMessage, res: ServerResponse) => void {
  const { cluster, credentials, contexts, inFlight } = parts;
  return (req, res) => {
    const userAgent = req.headers['user-agent'] ?? '';
    const { path, query } = splitUrl(req.url ?? '/');
    try {
      // kube-apiserver's request-deadline filter runs outside authentication.
      checkRequestTimeout(path, query);
    } catch (err) {
      req.resume();
      sendStatus(res, statusFromError(err));
      return;
    }
    const requester = credentials.auth.authenticate(req.headers.authorization);
    if (!requester) {
      // Nothing is kept about a caller without the token (as kube-apiserver's authentication
      // filter answers 401 before anything else runs): made-up user agents cannot grow state. A body
      // is not read to its end either: the connection closes after the answer.
      if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) closeConnectionAfter(req, res);
      req.resume();
      sendStatus(res, UNAUTHORIZED_STATUS);
      return;
    }
    let user: UserInfo;
    try {
      user = credentials.access.actingUser(requester, req);
    } catch (err) {
      req.resume();
      if (err instanceof ImpersonationHeadersError) sendText(res, 500, `Internal Server Error: ${JSON.stringify(req.url ?? '/')}: ${err.message}\n`);
      else sendStatus(res, statusFromError(err));
      return;
    }
    setClassificationHeaders(res, cluster, user, requestAttributes(req.method ?? 'GET', path, query));
    const client = contexts.contextFor(userAgent, user).client!;
    const exempt = isExemptFromLimit(parseRequestPath(path), query);
    const seat = exempt ? undefined : inFlight.admit(req, res);
    if (!exempt && !seat) {
      cluster.clients.recordError(client, (req.method ?? 'GET').toLowerCase(), path, 429);
      req.resume();
      sendTooManyRequests(res);
      return;
    }
    setRequestTimeout(req, parts.requestTimeoutMs);
    parts.route(req, res, path, query, client, user, seat).catch((err: unknown) => {
      // The client hung up before its body was whole: no one is left to answer, and nothing went wrong here.
      if (req.destroyed && (err as NodeJS.ErrnoException | undefined)?.code === 'ECONNRESET') return;
      const status = statusFromError(err);
      if (!(err instanceof ApiError)) {
        parts.reportInternalError(`${req.method} ${req.url}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      }
      if (!wasRecordedByStore(err)) cluster.clients.recordError(client, (req.method ?? 'GET').toLowerCase(), path, status.code);
      // Drain whatever body is left so the keep-alive connection stays usable; a body that timed
      // out is not waited for: the connection closes after the answer.
      if (status.code === 504) closeConnectionAfter(req, res);
      if (!req.readableEnded) req.resume();
      if (err instanceof PageNotFound) return sendText(res, 404, PageNotFound.TEXT);
      sendStatus(res, status, status.details?.retryAfterSeconds ? { 'Retry-After': String(status.details.retryAfterSeconds) } : undefined);
    });
  };
}
