/**
 * Change requests are the project's state: a restart (from snapshots and from the log), the dump, a restore of
 * the dump and of a live backup all bring them back as they were.
 */
import { Readable } from 'node:stream';
import { describe, expect } from 'vitest';
import { harnessTest } from '../../helpers/fixtures.js';
import { ADMIN_TOKEN, harness, type Harness } from '../../helpers/harness.js';
import { restoreDump, parseDump } from '../../../src/tools/restore.js';
import { readBackup } from '../../../src/tools/restore-backup.js';
import { CR, P, draft, moveOk, people, protect } from './cr-fixtures.js';

const test = harnessTest({ env: { SNAPSHOT_EVERY: '3' } });

/** Three requests: one scheduled (with a comment and reviewers), one applied, one still a draft. */
async function story(h: Harness): Promise<unknown[]> {
  const { member, owner, owner2 } = await people(h);
  await h.json('POST', `${P}/features`, { name: 'f' });
  await h.json('POST', `${P}/features/f/environments/production/strategies`, { name: 'default' });
  await protect(h, 'production', 1);
  await draft(h, { feature: 'f', action: 'updateEnabled', payload: { enabled: true } }, member.token);
  await h.json('POST', `${CR}/1/comments`, { text: 'soon' }, { token: owner.token });
  await h.json('PUT', `${CR}/1/approvers`, { reviewers: [owner.id] }, { token: member.token });
  await moveOk(h, 1, { state: 'In review' }, member.token);
  await moveOk(h, 1, { state: 'Approved' }, owner.token);
  await moveOk(h, 1, { state: 'Scheduled', scheduledAt: '2999-01-01T00:00:00.000Z' }, owner.token);
  await draft(h, { feature: 'f', action: 'patchVariant', payload: { variants: [{ name: 'a', weightType: 'variable', weight: 1000 }] } }, owner.token);
  await moveOk(h, 2, { state: 'In review' }, owner.token);
  await moveOk(h, 2, { state: 'Approved' }, owner2.token);
  await moveOk(h, 2, { state: 'Applied' }, owner2.token);
  await draft(h, { feature: 'f', action: 'archiveFeature' }, owner2.token);
  const all = await h.json('GET', CR);
  expect(all.body).toHaveLength(3);
  return all.body;
}

/** The change requests of project `default` in a data directory, read through a harness on LevelDB over it. */
async function requestsIn(dataDir: string): Promise<unknown> {
  const over = await harness({}, dataDir, { store: 'leveldb' });
  try {
    return (await over.json('GET', CR, undefined, { token: ADMIN_TOKEN })).body;
  } finally {
    await over.close();
  }
}

describe('change requests are kept', () => {
  test('across restarts, from snapshots and from the log', async ({ h }) => {
    const before = await story(h);
    await h.restart();
    expect((await h.json('GET', CR)).body).toEqual(before);
    expect((await h.json('GET', `${CR}/config`)).body[1]).toMatchObject({ changeRequestEnabled: true, requiredApprovals: 1 });
    // New ids go on after the recovered ones.
    await h.json('POST', `${P}/features`, { name: 'g' });
    const next = await h.json('POST', `${P}/environments/production/change-requests`, { feature: 'g', action: 'archiveFeature' });
    expect(next.body.id).toBe(4);
    expect(next.body.features[0].changes[0].id).toBe(4);
  });

  test('in the dump, and back from it by a restore; and from a live backup', async ({ h, tempDir }) => {
    const before = await story(h);
    const dump = await h.req('GET', '/api/admin/state?project=default');
    const text = await dump.text();
    const project = JSON.parse(text).projects[0];
    expect(project.changeRequests).toMatchObject({ lastId: 3, lastChangeId: 3, lastCommentId: 1 });
    expect(project.changeRequests.requests.map((r: { state: string }) => r.state)).toEqual(['Scheduled', 'Applied', 'Draft']);
    expect(project.meta.changeRequestSettings).toEqual({ production: { requiredApprovals: 1 } });
    const full = await (await h.req('GET', '/api/admin/state')).text();
    const restored = tempDir('cr-restore');
    await restoreDump(restored, parseDump(full));
    // Restored into a data directory (LevelDB), whichever store `h` runs on.
    expect(await requestsIn(restored)).toEqual(before);
    const backup = await (await h.req('GET', '/api/admin/backup')).text();
    const fromBackup = tempDir('cr-backup');
    await restoreDump(fromBackup, (await readBackup(Readable.from([backup]))).dump, { keepTokens: true });
    expect(await requestsIn(fromBackup)).toEqual(before);
  });
});
