import type { QueueKeySnapshot } from '../../runtime/index.ts';
import { count, escapeMarkdown } from '../tree/format.ts';
import { KEEP_ENDED, hasEnded, stateOf, type ControllerState } from './controllerEntry.ts';
import type { ControllerSessionsModel } from './controllerSessionsModel.ts';
import type { ControllerTreeNode } from '../tree/controllerTreeNodes.ts';
import type { ItemSpec } from '../tree/treeModel.ts';
import { informerDescription, informerTooltip } from './informerStats.ts';
import { controllerClusterNote } from './controllerCluster.ts';
import { queueDescription, queueKeyDescription } from './queueDescriptions.ts';

// How each Controllers row reads: label, description, tooltip, icon and context value.

const STATE_WORDS: Record<ControllerState, string> = {
  starting: 'starting…',
  syncing: 'syncing',
  running: 'running',
  reconciling: 'reconciling',
  paused: 'stopped in debugger',
  idle: 'idle',
  failed: 'failed',
  exited: 'exited',
};

const STATE_ICONS: Record<ControllerState, { id: string; color?: string }> = {
  starting: { id: 'loading~spin' },
  syncing: { id: 'sync~spin', color: 'charts.blue' },
  running: { id: 'play-circle', color: 'charts.green' },
  reconciling: { id: 'gear~spin', color: 'charts.green' },
  paused: { id: 'debug-pause', color: 'charts.yellow' },
  idle: { id: 'circle-large-outline', color: 'charts.green' },
  failed: { id: 'error', color: 'errorForeground' },
  exited: { id: 'debug-stop' },
};

const QUEUE_ICONS: Record<QueueKeySnapshot['state'], { id: string; color?: string }> = {
  queued: { id: 'circle-filled', color: 'charts.blue' },
  processing: { id: 'gear~spin', color: 'charts.green' },
  waiting: { id: 'clock', color: 'charts.yellow' },
};

export function controllerTreeItem(model: ControllerSessionsModel, node: ControllerTreeNode): ItemSpec {
  const entries = model.entries;
  switch (node.kind) {
    case 'controllers': {
      const running = [...entries.values()].filter((e) => !hasEnded(e)).length;
      const finished = entries.size - running;
      return {
        id: node.id,
        label: 'Controllers',
        description: [count(running, 'running', 'running'), finished ? `${finished} finished` : ''].filter(Boolean).join(' · '),
        tooltip: 'Controllers you run or debug (“Run Controller…”, F5): their informers and workqueue, live.',
        icon: { id: 'gear' },
        contextValue: 'controllers',
        collapsible: 'expanded',
      };
    }
    case 'controller': return controllerItem(model, node.id, node.sessionId);
    case 'controllersFinished': {
      const ended = [...entries.values()].filter(hasEnded);
      const failed = ended.filter((e) => e.state === 'failed').length;
      return {
        id: node.id,
        label: 'Finished',
        description: [count(ended.length, 'session'), failed ? `${failed} failed` : ''].filter(Boolean).join(' · '),
        tooltip: `The last ${KEEP_ENDED} controller sessions that ended, with how they ended.`,
        icon: { id: 'history' },
        contextValue: 'controllersFinished',
        collapsible: 'collapsed',
      };
    }
    case 'controllerInformers': {
      const informers = [...(entries.get(node.sessionId)?.informers.values() ?? [])];
      const synced = informers.filter((i) => i.synced).length;
      return {
        id: node.id,
        label: 'Informers',
        description: `${synced}/${informers.length} synced`,
        icon: { id: 'eye' },
        contextValue: 'controllerInformers',
        collapsible: 'collapsed',
      };
    }
    case 'controllerInformer': {
      const i = entries.get(node.sessionId)?.informers.get(node.informer);
      if (!i) return { id: node.id, label: node.informer, description: 'gone', contextValue: 'controllerInformer', collapsible: 'none' };
      return {
        id: node.id,
        label: i.name,
        description: informerDescription(i),
        tooltip: informerTooltip(i),
        icon: i.synced ? { id: 'pass-filled', color: 'charts.green' } : i.lastError ? { id: 'warning', color: 'charts.yellow' } : { id: 'sync~spin', color: 'charts.blue' },
        contextValue: 'controllerInformer',
        collapsible: 'none',
      };
    }
    case 'controllerQueue': {
      const q = entries.get(node.sessionId)?.queue;
      return {
        id: node.id,
        label: 'Workqueue',
        description: q ? queueDescription(q) : '',
        icon: { id: 'list-ordered' },
        contextValue: 'controllerQueue',
        collapsible: 'collapsed',
      };
    }
    case 'controllerQueueKey': {
      const k = entries.get(node.sessionId)?.queue.keys.find((x) => x.key === node.key);
      if (!k) return { id: node.id, label: node.key, description: 'done', contextValue: 'controllerQueueKey', collapsible: 'none' };
      return {
        id: node.id,
        label: k.key,
        description: queueKeyDescription(k, model.now()),
        icon: QUEUE_ICONS[k.state],
        contextValue: `controllerQueueKey.${k.state}`,
        collapsible: 'none',
      };
    }
    case 'controllerMessage':
      return { id: node.id, label: node.label, icon: { id: 'info' }, contextValue: 'controllerMessage', collapsible: 'none' };
  }
}

function controllerItem(model: ControllerSessionsModel, id: string, sessionId: string): ItemSpec {
  const e = model.entries.get(sessionId);
  if (!e) return { id, label: sessionId, contextValue: 'controller', collapsible: 'none' };
  const state = stateOf(e);
  const ended = hasEnded(e);
  const parts = [ended && e.exit ? `${STATE_WORDS[state]} (${e.exit})` : STATE_WORDS[state], count(e.reconciles, 'reconcile')];
  if (e.errors) parts.push(count(e.errors, 'error'));
  if (!ended && e.queue.depth + e.queue.waiting > 0) parts.push(`queue ${e.queue.depth + e.queue.waiting}`);
  const cluster = controllerClusterNote(e.server, model.viewServers());
  if (cluster?.description && !ended) parts.push(cluster.description);
  const tooltip = [
    `**${escapeMarkdown(e.name)}** — ${STATE_WORDS[state]}`,
    '',
    ...(e.file ? [`file: ${escapeMarkdown(e.file)}`, ''] : []),
    ...(cluster ? [cluster.tooltip, ''] : []),
    `reconciles: ${e.reconciles}, errors: ${e.errors}, in flight: ${e.inFlight.size}`,
    ...(e.exit ? ['', escapeMarkdown(e.exit)] : []),
  ].join('\n');
  return {
    id,
    label: e.name,
    description: parts.join(' · '),
    tooltip,
    icon: STATE_ICONS[state],
    contextValue: `controller.${state}`,
    collapsible: ended ? 'none' : 'expanded',
  };
}
