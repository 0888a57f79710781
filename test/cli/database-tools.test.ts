/**
 * The offline tools on PostgreSQL: `copy-store` moves a whole installation from LevelDB to PostgreSQL and back
 * (history, usage and sessions included; checked by equal dumps) and refuses a target that is not empty;
 * `dump` and `restore` take `--database-url`; a dump of a database a service holds is refused. The commands run
 * in the test's process through the function the bin runs (`flagpoleInProcess`); the first copy as the
 * compiled bin, a process of its own (exit 0, the database password on neither of its output streams).
 */
import { expect, onTestFinished } from 'vitest';
import { test } from '../helpers/fixtures.js';
import { createFlag, addStrategy, switchOn } from '../helpers/flags.js';
import { harness, type Harness } from '../helpers/harness.js';
import { freshSchema } from '../helpers/postgres.js';
import { clientToken, nodeRegisterBody } from '../http/usage/usage-fixtures.js';
import { flagpole, flagpoleInProcess } from './run-flagpole.js';

/** A fresh schema, dropped after the test. */
function schemaForTest() {
  const schema = freshSchema();
  onTestFinished(() => schema.drop());
  return schema.database;
}

/** What a restart would serve, read through the API: the state document and a page of history. */
async function served(h: Harness): Promise<{ state: string; history: unknown }> {
  const state = await (await h.req('GET', '/api/admin/state')).text();
  const history = (await h.json('GET', '/api/admin/events?project=default&limit=1000')).body;
  return { state, history };
}

test('copy-store moves an installation from LevelDB to PostgreSQL and back, history, usage and sessions included', async ({ tempDir }) => {
  const dir = tempDir('copy-from');
  const level = await harness({}, dir, { store: 'leveldb' });
  await createFlag(level, 'checkout');
  await addStrategy(level, 'checkout', 'development');
  await switchOn(level, 'checkout', 'development');
  await level.registry.sessions.create('session-hash', { userId: 1, tokenHash: null, passwordStamp: 's', createdAt: Date.now(), lastUsedAt: Date.now() });
  const registered = await level.req('POST', '/api/client/register', nodeRegisterBody(), { token: await clientToken(level) });
  expect(registered.status).toBe(202);
  await level.registry.usage.flush();
  const before = await served(level);
  await level.registry.close();

  const database = schemaForTest();
  const there = await flagpole(['copy-store', '--from', dir, '--to', database.url, '--to-schema', database.schema]);
  expect(there.stderr).toMatch(/copied \d+ keys \(\d+ log records, 1 projects\) from .* into postgres:\/\/127\.0\.0\.1:\d+\/postgres \(schema t_\w+\); their dumps are equal/);
  expect(there.stderr).not.toContain(new URL(database.url).password);
  expect(there.code).toBe(0);

  const pg = await harness({ DATABASE_URL: database.url, DATABASE_SCHEMA: database.schema }, tempDir('copy-pg'), { store: 'postgres' });
  expect(pg.store).toBe('postgres');
  expect(await served(pg)).toEqual(before);
  expect(pg.registry.sessions.use('session-hash')).toMatchObject({ userId: 1 });
  expect((await pg.json('GET', '/api/admin/metrics/applications')).body).toMatchObject({ applications: [expect.objectContaining({ appName: 'checkout-service' })] });
  await createFlag(pg, 'written-on-postgres');
  const onPostgres = await served(pg);
  await pg.registry.close();

  const back = tempDir('copy-back');
  const again = await flagpoleInProcess(['copy-store', '--from', database.url, '--from-schema', database.schema, '--to', back]);
  expect(again.code, again.stderr).toBe(0);
  const level2 = await harness({}, back, { store: 'leveldb' });
  expect(await served(level2)).toEqual(onPostgres);
  await level2.close();

  const refused = await flagpoleInProcess(['copy-store', '--from', dir, '--to', database.url, '--to-schema', database.schema]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/copy-store failed: postgres:\/\/127\.0\.0\.1:\d+\/postgres \(schema t_\w+\) is not empty: copy-store only writes into an empty data directory or database/);
}, 120_000); // a run of the bin, a node process of its own, and three copies: long on a loaded machine

test('dump and restore take --database-url; a dump of a database a running service holds is refused', async ({ tempDir }) => {
  const database = schemaForTest();
  const h = await harness({ DATABASE_URL: database.url, DATABASE_SCHEMA: database.schema }, tempDir('tools-pg'), { store: 'postgres' });
  await createFlag(h, 'alpha');
  await addStrategy(h, 'alpha', 'production');
  const env = { DATABASE_SCHEMA: database.schema };
  const held = await flagpoleInProcess(['dump', '--database-url', database.url], { env });
  expect(held.code).toBe(1);
  expect(held.stderr).toMatch(/dump failed: PostgreSQL: flagpole is running on the database .*: stop every node first.*flagpole backup/);
  const state = await (await h.req('GET', '/api/admin/state')).text();
  await h.registry.close();

  const dumped = await flagpoleInProcess(['dump'], { env: { ...env, DATABASE_URL: database.url } });
  expect(dumped.code, dumped.stderr).toBe(0);
  expect(dumped.stdout).toBe(state);

  const target = schemaForTest();
  const restored = await flagpoleInProcess(['restore', '--database-url', target.url], { env: { DATABASE_SCHEMA: target.schema }, input: dumped.stdout });
  expect(restored.code, restored.stderr).toBe(0);
  expect(restored.stderr).toMatch(/restored the service and 1 projects \(1 flags\) from the dump into postgres:\/\/127\.0\.0\.1:\d+\/postgres \(schema t_\w+\)/);
  const redumped = await flagpoleInProcess(['dump', '--database-url', target.url], { env: { DATABASE_SCHEMA: target.schema } });
  const tokensless = (text: string) => JSON.stringify({ ...JSON.parse(text), service: { ...JSON.parse(text).service, state: { ...JSON.parse(text).service.state, tokens: {} } } });
  expect(tokensless(redumped.stdout)).toBe(tokensless(dumped.stdout));
  const again = await flagpoleInProcess(['restore', '--database-url', target.url], { env: { DATABASE_SCHEMA: target.schema }, input: dumped.stdout });
  expect(again.code).toBe(1);
  expect(again.stderr).toMatch(/is not empty: restore only writes into an empty database/);
}, 120_000); // five runs of the command on PostgreSQL: long on a loaded machine
