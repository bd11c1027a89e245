import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createInformer } from '../../../src/informer/informer.ts';
import { ApiError } from '../../../src/shared/apiError.ts';
import { FakeClock } from '../../../src/shared/clock.ts';
import { FakeSource, obj, settle } from './fixtures/fakeSource.ts';

function setup() {
  const clock = new FakeClock();
  const source = new FakeSource({ clock });
  source.create(obj('a', 'x'));
  source.create(obj('b', 'y'));
  const informer = createInformer({ name: 'facade', listerWatcher: source, clock, random: () => 0.5 });
  return { clock, source, informer };
}

describe('Informer facade (client-node shape)', () => {
  it('start resolves once synced, after the initial adds were delivered', async () => {
    const { informer } = setup();
    const adds: string[] = [];
    informer.on('add', (o) => adds.push(o.metadata.name!));
    await informer.start();
    assert.deepEqual(adds.sort(), ['x', 'y']);
    assert.equal(informer.hasSynced(), true);
    informer.stop();
  });

  it('get and list read the cache, list by namespace through the index', async () => {
    const { informer } = setup();
    await informer.start();
    assert.equal(informer.get('x', 'a')?.metadata.name, 'x');
    assert.equal(informer.get('x'), undefined);
    assert.deepEqual(informer.list('b').map((o) => o.metadata.name), ['y']);
    assert.equal(informer.list().length, 2);
    informer.stop();
  });

  it('fires add, update (with the old object), delete and change; off unsubscribes', async () => {
    const { informer, source } = setup();
    const seen: string[] = [];
    const change = (o: { metadata: { name?: string } }) => void seen.push(`change ${o.metadata.name}`);
    informer.on('update', (o, old) => void seen.push(`update ${o.metadata.resourceVersion} <- ${old?.metadata.resourceVersion}`));
    informer.on('delete', (o) => void seen.push(`delete ${o.metadata.name}`));
    informer.on('change', change);
    await informer.start();
    informer.off('change', change);
    source.update(obj('a', 'x', { v: '2' }));
    source.delete('b', 'y');
    await settle();
    assert.deepEqual(seen, ['change x', 'change y', 'update 3 <- 1', 'delete y']);
    informer.stop();
  });

  it('reports connect on each accepted watch and errors without stopping', async () => {
    const { informer, source, clock } = setup();
    let connects = 0;
    const errors: unknown[] = [];
    informer.on('connect', () => connects++);
    informer.on('error', (e) => errors.push(e));
    source.failNextWatch(new ApiError(500, 'nope'));
    await informer.start();
    await settle();
    assert.equal(connects, 0);
    clock.step(1200);
    await settle();
    assert.equal(connects, 1);
    assert.equal(errors.length, 1);
    informer.stop();
  });

  it('start resolves (without syncing) when stopped first', async () => {
    const { informer, source } = setup();
    source.holdLists();
    const started = informer.start();
    informer.stop();
    await started;
    assert.equal(informer.hasSynced(), false);
  });
});
