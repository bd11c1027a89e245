// The Controllers rows' elements and their ids, stable while what they name exists.

export type ControllerTreeNode =
  | { kind: 'controllers'; id: string }
  | { kind: 'controller'; id: string; sessionId: string }
  /** Ended sessions, folded into one row so the live ones stay on top and nothing reads "processing". */
  | { kind: 'controllersFinished'; id: string }
  | { kind: 'controllerInformers'; id: string; sessionId: string }
  | { kind: 'controllerInformer'; id: string; sessionId: string; informer: string }
  | { kind: 'controllerQueue'; id: string; sessionId: string }
  | { kind: 'controllerQueueKey'; id: string; sessionId: string; key: string }
  | { kind: 'controllerMessage'; id: string; parentId: string; label: string };

export const CONTROLLER_NODE_KINDS: readonly ControllerTreeNode['kind'][] = [
  'controllers',
  'controller',
  'controllersFinished',
  'controllerInformers',
  'controllerInformer',
  'controllerQueue',
  'controllerQueueKey',
  'controllerMessage',
];

export const controllerNodeIds = {
  root: 'controllers',
  finished: 'controllers:finished',
  controller: (sessionId: string) => `ctl:${sessionId}`,
  informers: (sessionId: string) => `ctl:${sessionId}:informers`,
  informer: (sessionId: string, name: string) => `ctl:${sessionId}:informer:${name}`,
  queue: (sessionId: string) => `ctl:${sessionId}:queue`,
  queueKey: (sessionId: string, key: string) => `ctl:${sessionId}:queue:${key}`,
};
