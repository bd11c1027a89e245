import type { ResourceInfo } from '../../vocabulary/resourceInfo.ts';
import type { ResourceRequest } from '../resourceRequest.ts';
import { methodNotAllowed } from '../status.ts';
import { serveBinding } from './binding.ts';
import { serveEviction } from './eviction.ts';
import { POD_CONNECT } from './podConnect.ts';
import { serveToken } from './token.ts';

// Create-only subresources: a POST that acts on the parent object (evicts a Pod, binds it, issues a
// token for a ServiceAccount) and answers with something other than the parent.

type Action = (r: ResourceRequest) => Promise<void>;

const ACTIONS: Record<string, Action> = {
  '/pods/eviction': serveEviction,
  '/pods/binding': serveBinding,
  '/serviceaccounts/token': serveToken,
};

/** The handler of `info`'s create-only subresource `name` (or of a Pod's connect subresource), or undefined (not one of those). */
export function actionSubresource(info: ResourceInfo, name: string): Action | undefined {
  if (info.source !== 'builtin') return undefined;
  if (info.group === '' && info.resource === 'pods' && Object.hasOwn(POD_CONNECT, name)) return POD_CONNECT[name];
  const action = ACTIONS[`${info.group}/${info.resource}/${name}`];
  if (!action) return undefined;
  return async (r) => {
    const method = r.req.method ?? 'GET';
    if (method !== 'POST') throw methodNotAllowed(method);
    await action(r);
  };
}
