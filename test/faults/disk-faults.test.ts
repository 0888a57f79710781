/**
 * A disk that is full, failing or stuck, injected through the store's write gate (`snapshots/disk-faults.ts`):
 * writes answer 503 `StorageUnavailable`, nothing is acknowledged that is not on disk, the state in memory
 * equals the log on disk after every fault, reads keep working, `/health` says writes fail, and once the disk
 * heals writes resume without a restart.
 */
import { describe, expect, test as base } from 'vitest';
import { keys } from '../../snapshots/keys.js';
import { DiskFaults, type DiskErrorCode } from '../../snapshots/disk-faults.js';
import { legacyHash } from '../../src/auth/token-hasher.js';
import { expectError } from '../helpers/expect.js';
import { addStrategy, createFlag, envPath, featuresPath, flagPath } from '../helpers/flags.js';
import { harness, type Harness } from '../helpers/harness.js';
import { storeOf } from '../helpers/store-of.js';
import { untilState } from '../helpers/wait.js';

interface FaultFixtures {
  faults: DiskFaults;
  h: Harness;
}

/**
 * A harness whose store writes through `faults`, with a write timeout short enough that a hang is answered soon and
 * long enough that a healthy write on a loaded machine (PostgreSQL included) never meets it (300 ms did).
 */
const test = base.extend<FaultFixtures>({
  faults: async ({}, use) => use(new DiskFaults()),
  h: async ({ faults }, use) => {
    const h = await harness({ WRITE_TIMEOUT_MS: '1500' }, undefined, { writeGate: faults });
    try {
      await use(h);
    } finally {
      // A held write would keep the store from closing.
      faults.heal();
      await h.close();
    }
  },
});

/** The last log position of project `default` on disk (read from LevelDB, not from memory). */
async function seqOnDisk(h: Harness, project = 'default'): Promise<number> {
  for await (const key of storeOf(h.registry).keys(keys.logPrefix({ project }), { reverse: true, limit: 1 })) return Number(key.slice(-16));
  return 0;
}

/** Memory equals disk: the actor's position is the last record on disk, and nothing is waiting. */
async function expectStateIsDisk(h: Harness): Promise<void> {
  await h.registry.project('default')!.settled();
  expect(h.registry.project('default')!.seq).toBe(await seqOnDisk(h));
}

/** Waits until `check` holds: a state reached in the background (the store's probe, a held batch landing). */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  await expect.poll(check, { message: `waiting for ${what}`, ...untilState() }).toBe(true);
}

const health = async (h: Harness) => (await h.json('GET', '/health', undefined, { token: null })).body as { health: string; status: string; problems?: string[] };

/** How the answers name the store the harness runs on (the same test runs on LevelDB and on PostgreSQL). */
const writesTo = (h: Harness): string => (h.store === 'postgres' ? 'the database' : 'the disk');

describe.each<DiskErrorCode>(['ENOSPC', 'EIO'])('a disk that fails writes with %s', (code) => {
  test('writes answer 503 StorageUnavailable and record nothing; reads keep working; writes resume when it heals', async ({ h, faults }) => {
    await createFlag(h, 'kept');
    await addStrategy(h, 'kept', 'development');
    const before = (await h.json('GET', flagPath('kept'))).body;
    faults.fail(code);

    const created = await h.json('POST', featuresPath(), { name: 'lost' });
    expectError(created, 503, 'StorageUnavailable', new RegExp(`could not be written to ${writesTo(h)}; nothing of it was recorded. Reads still work; writes resume once ${writesTo(h)} takes them again`));
    expect(created.headers.get('retry-after')).toBe('5');
    expect(JSON.stringify(created.body)).not.toContain(code); // the cause goes to the log, not to the client
    const on = await h.json('POST', `${envPath('kept', 'development')}/on`);
    expectError(on, 503, 'StorageUnavailable');
    // Writes to the service log fail the same way.
    expectError(await h.json('POST', '/api/admin/user-admin', { email: 'a@example.com', name: 'A', rootRole: 2 }), 503, 'StorageUnavailable');

    // Reads: the committed state, unchanged.
    expect((await h.json('GET', flagPath('kept'))).body).toEqual(before);
    expectError(await h.json('GET', flagPath('lost')), 404, 'NotFoundError');
    await expectStateIsDisk(h);

    const degraded = await health(h);
    expect(degraded).toMatchObject({ health: 'GOOD', status: 'degraded' });
    expect(degraded.problems!.join(' ')).toMatch(new RegExp(`writes are failing since .*${code}`));
    expect(h.logs().some((line) => line['msg'] === 'write refused: storage unavailable' && line['reason'] === 'failed')).toBe(true);

    faults.heal();
    // The store's probe clears the failure without any client write.
    await until(async () => (await health(h)).status === 'serving', 'health to recover');
    expect(await health(h)).toEqual({ health: 'GOOD', status: 'serving' });
    await createFlag(h, 'after');
    await addStrategy(h, 'kept', 'development');
    await expectStateIsDisk(h);

    await h.restart();
    expect((await h.json('GET', flagPath('after'))).status).toBe(200);
    expectError(await h.json('GET', flagPath('lost')), 404, 'NotFoundError');
    const kept = (await h.json('GET', flagPath('kept'))).body;
    expect(kept.environments[0].strategies).toHaveLength(2);
    expect(kept.environments[0].enabled).toBe(false);
  });
});

describe('reads while the disk fails', () => {
  test('a token stored before keyed hashes still authenticates reads (its re-storing waits for the disk)', async ({ h, faults }) => {
    const secret = '*:*.legacy-token-from-long-ago';
    const legacy = { id: 'legacy-1', hash: legacyHash(secret), tokenName: 'legacy', type: 'admin' as const, projects: ['*'], environment: '*', createdAt: '2025-01-01T00:00:00.000Z', expiresAt: null, userId: null };
    expect((await h.registry.service.send({ type: 'token.create', token: legacy }, 'system')).ok).toBe(true);
    faults.fail('EIO');
    expectError(await h.json('POST', featuresPath(), { name: 'x' }), 503, 'StorageUnavailable');
    expect((await h.json('GET', featuresPath(), undefined, { token: secret })).status).toBe(200);
    expect(h.registry.service.state.tokens[legacy.hash]).toBeDefined(); // not re-stored: the disk refuses writes
    faults.heal();
    await until(async () => (await health(h)).status === 'serving', 'health to recover');
    expect((await h.json('GET', featuresPath(), undefined, { token: secret })).status).toBe(200);
    expect(h.registry.service.state.tokens[legacy.hash]).toBeUndefined(); // re-stored under the key now
  });
});

describe('concurrent writes against a full disk', () => {
  test('every one of a group commit is refused, none appears, and the mailbox goes on once the disk heals', async ({ h, faults }) => {
    faults.fail('ENOSPC');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => h.json('POST', featuresPath(), { name: `c${i}` })));
    for (const answer of answers) expectError(answer, 503, 'StorageUnavailable');
    expect((await h.json('GET', featuresPath())).body.features).toEqual([]);
    await expectStateIsDisk(h);
    faults.heal();
    const again = await Promise.all(Array.from({ length: 20 }, (_, i) => h.json('POST', featuresPath(), { name: `c${i}` })));
    expect(again.map((a) => a.status)).toEqual(Array(20).fill(201));
    await expectStateIsDisk(h);
  });

  test('a failed snapshot under a full disk loses nothing: the log still holds every write', async ({ h, faults }) => {
    await createFlag(h, 's');
    faults.fail('ENOSPC');
    await expect(h.registry.project('default')!.snapshot()).rejects.toThrow(/ENOSPC/);
    faults.heal();
    await h.restart();
    expect((await h.json('GET', flagPath('s'))).status).toBe(200);
  });
});

describe('a disk that hangs', () => {
  test('a write is answered 503 within the write timeout, later ones are refused at once, and a batch that lands afterwards is in the state', async ({ h, faults }) => {
    await createFlag(h, 'base');
    faults.hang();
    // The disk never answers while it hangs: any answer at all is the write timeout's (its message says so).
    const slow = await h.json('POST', featuresPath(), { name: 'slow' });
    expectError(slow, 503, 'StorageUnavailable', /did not confirm the write in time; the command may or may not have been recorded/);
    // While that batch is held, the mailbox refuses at once instead of queueing behind it.
    expectError(await h.json('POST', `${envPath('base', 'development')}/on`), 503, 'StorageUnavailable', /an earlier write is still waiting/);
    // Reads never wait behind the disk; the held write is not visible (not on disk yet).
    expect((await h.json('GET', flagPath('base'))).status).toBe(200);
    expectError(await h.json('GET', flagPath('slow')), 404, 'NotFoundError');
    const stuck = await health(h);
    expect(stuck.status).toBe('degraded');
    expect(stuck.problems!.join(' ')).toMatch(new RegExp(`a write has been waiting for ${writesTo(h)} for \\d+ ms \\(timeout 1500 ms\\)`));

    faults.heal();
    // The held batch reaches the disk now: the state follows it, so memory never disagrees with disk.
    await until(async () => (await h.json('GET', flagPath('slow'))).status === 200, 'the late batch to be published');
    await expectStateIsDisk(h);
    expect(h.logs().some((line) => String(line['msg']).includes(`reached ${writesTo(h)} after its callers were answered 503`))).toBe(true);
    // Counted as committed (it is on disk), and the timeout and the refusal as storage errors.
    const metrics = await (await h.req('GET', '/internal-backstage/prometheus')).text();
    expect(metrics).toContain('flagpole_commands_committed_total{type="flag.create"} 2');
    expect(metrics).toContain('flagpole_storage_errors_total{reason="timeout"} 1');
    expect(metrics).toContain('flagpole_storage_errors_total{reason="stalled"} 1');
    await until(async () => (await health(h)).status === 'serving', 'health to recover');
    expect((await h.json('POST', `${envPath('base', 'development')}/on`)).status).toBe(409); // no strategy: a decision again, not a 503
    await h.restart();
    expect((await h.json('GET', flagPath('slow'))).status).toBe(200);
  });

  test('a held batch that fails in the end leaves nothing: not in the state, not on disk', async ({ h, faults }) => {
    faults.hang({ thenFail: 'EIO' });
    expectError(await h.json('POST', featuresPath(), { name: 'never' }), 503, 'StorageUnavailable');
    faults.heal();
    await until(async () => (await h.json('POST', featuresPath(), { name: 'later' })).status === 201, 'writes to resume');
    expectError(await h.json('GET', flagPath('never')), 404, 'NotFoundError');
    await expectStateIsDisk(h);
    await h.restart();
    expectError(await h.json('GET', flagPath('never')), 404, 'NotFoundError');
    expect((await h.json('GET', flagPath('later'))).status).toBe(200);
  });

  test('a project created while the disk hangs keeps its id reserved, and is served once its write lands', async ({ h, faults }) => {
    faults.hang();
    expectError(await h.json('POST', '/api/admin/projects', { id: 'late', name: 'Late' }), 503, 'StorageUnavailable');
    // The id is not free while the disk may still write it.
    expectError(await h.json('POST', '/api/admin/projects', { id: 'late', name: 'Again' }), 409, 'NameExistsError');
    faults.heal();
    await until(async () => (await h.json('GET', '/api/admin/projects/late')).status === 200, 'the project to be served');
    expect((await h.json('POST', featuresPath('late'), { name: 'in-late' })).status).toBe(201);
    await h.restart();
    expect((await h.json('GET', '/api/admin/projects/late')).body.name).toBe('Late');
  });

  test('a project whose held creation fails in the end frees its id', async ({ h, faults }) => {
    faults.hang({ thenFail: 'ENOSPC' });
    expectError(await h.json('POST', '/api/admin/projects', { id: 'gone', name: 'Gone' }), 503, 'StorageUnavailable');
    faults.heal();
    await until(async () => (await h.json('POST', '/api/admin/projects', { id: 'gone', name: 'Second' })).status === 201, 'the id to be free');
    await h.restart();
    expect((await h.json('GET', '/api/admin/projects/gone')).body.name).toBe('Second');
  });
});
