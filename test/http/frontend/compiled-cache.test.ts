/**
 * The frontend API evaluates precompiled flags: a project's flags are compiled once per state change (its
 * state version, or the service's sequence number for segments) and reused by every request until then.
 * Also: `remoteAddress` defaults to the connection's address when the server knows it.
 */
import { expect } from 'vitest';
import { EvaluationQuery } from '../../../src/queries/sdk/evaluation.query.js';
import { harnessTest } from '../../helpers/fixtures.js';
import { addStrategy, createFlag, envPath, switchOn } from '../../helpers/flags.js';
import { buildWorld, frontendToken } from './frontend-fixtures.js';
import { serveHarness } from './served.js';

const test = harnessTest({ arrange: buildWorld });

test('compiled once per state change, per environment', async ({ h }) => {
  const query = new EvaluationQuery(h.registry);
  const first = query.flagsOf('default', 'development')!;
  expect(query.flagsOf('default', 'development')).toBe(first);
  expect(query.flagsOf('default', 'production')).not.toBe(first);
  expect(query.flagsOf('nope', 'development')).toBeUndefined();
  expect([...first.keys()]).not.toContain('archived');
  // A change in the project recompiles it.
  expect((await h.req('POST', `${envPath('off', 'development')}/on`)).status).toBe(200);
  const afterToggle = query.flagsOf('default', 'development')!;
  expect(afterToggle).not.toBe(first);
  expect(query.flagsOf('default', 'development')).toBe(afterToggle);
  // A segment change (service state) recompiles too.
  const segments = (await h.json('GET', '/api/admin/segments')).body.segments as { id: number }[];
  expect((await h.req('PUT', `/api/admin/segments/${segments[0]!.id}`, { name: 'nordics', constraints: [] })).status).toBe(204);
  expect(query.flagsOf('default', 'development')).not.toBe(afterToggle);
});

test('remoteAddress defaults to the address of the connection', async ({ h }) => {
  await createFlag(h, 'local');
  await addStrategy(h, 'local', 'development', { name: 'remoteAddress', parameters: { IPs: '127.0.0.1' } });
  await switchOn(h, 'local');
  const token = await frontendToken(h, ['default']);
  const served = await serveHarness(h);
  try {
    const names = async (query: string) => ((await (await fetch(`${served.base}/api/frontend${query}`, { headers: { authorization: token } })).json()) as { toggles: { name: string }[] }).toggles.map((t) => t.name);
    expect(await names('')).toContain('local');
    expect(await names('?remoteAddress=10.0.0.1')).not.toContain('local');
  } finally {
    await served.close();
  }
});
