/**
 * The committed-event feed and the revision: every batch reaches subscribers after it is on disk, in order,
 * with a revision that grows by one per record and keeps growing across a restart.
 */
import { expect, test } from 'vitest';
import type { CommittedBatch } from '../../src/actors/committed-feed.js';
import { harness } from '../helpers/harness.js';

test('a write reaches subscribers once durable, and the revision only grows, also across a restart', async () => {
  const h = await harness();
  try {
    const batches: CommittedBatch[] = [];
    const seen: number[] = [];
    h.registry.feed.subscribe((batch) => {
      batches.push(batch);
      // When a listener runs, the batch is already the committed state readers see.
      if (typeof batch.scope === 'object') seen.push(h.registry.project(batch.scope.project)!.seq);
    });
    const start = h.registry.feed.revision;
    expect(start).toBe(h.registry.service.seq + h.registry.project('default')!.seq);
    expect((await h.json('POST', '/api/admin/projects/default/features', { name: 'a' })).status).toBe(201);
    expect((await h.json('POST', '/api/admin/projects/default/features/a/environments/development/strategies', { name: 'default' })).status).toBe(200);
    // A write that changes nothing is not a change: no record, no batch.
    expect((await h.json('POST', '/api/admin/projects/default/features/a/environments/development/off')).status).toBe(200);
    expect(batches.map((b) => b.records.map((r) => r.events.map((e) => (e as { type: string }).type)))).toEqual([[['flag.created']], [['strategy.added']]]);
    expect(batches.map((b) => b.revision)).toEqual([start + 1, start + 2]);
    expect(seen).toEqual(batches.map((b) => b.records.at(-1)!.seq));
    const before = h.registry.feed.revision;
    await h.restart();
    expect(h.registry.feed.revision).toBe(before);
    expect((await h.json('POST', '/api/admin/environments', { name: 'staging' })).status).toBe(201);
    expect(h.registry.feed.revision).toBe(before + 1);
  } finally {
    await h.close();
  }
});
