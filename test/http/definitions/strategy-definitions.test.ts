/**
 * Strategy definitions through HTTP (docs/api-decisions.md "Context fields and strategy definitions"): the
 * built-in ones, custom ones created, updated, deprecated, reactivated and deleted, flags refused a strategy no
 * definition names and allowed a custom one (served to the real Node SDK, which evaluates it with its own
 * implementation), the limit, restart, the dump and a restore.
 */
import { serve, type ServerType } from '@hono/node-server';
import { initialize, Strategy, type Unleash } from 'unleash-client';
import { describe, expect, vi } from 'vitest';
import { parseDump, restoreDump } from '../../../src/tools/restore.js';
import { expectError, expectNoChange, positions } from '../../helpers/expect.js';
import { harnessTest, test } from '../../helpers/fixtures.js';
import { addStrategy, createFlag, strategiesPath, switchOn } from '../../helpers/flags.js';
import type { Harness } from '../../helpers/harness.js';
import { freePort } from '../../helpers/net.js';
import { createUser, personalToken } from '../access/access-fixtures.js';
import { clientToken } from '../client/client-fixtures.js';
import { untilState } from '../../helpers/wait.js';

const STRATEGIES = '/api/admin/strategies';
const BUILT_IN = ['flexibleRollout', 'default', 'userWithId', 'remoteAddress', 'applicationHostname'];
const TENANT = { name: 'tenant', description: 'By tenant', parameters: [{ name: 'tenants', type: 'list', description: 'Tenant ids', required: true }] };

async function define(h: Harness, body: Record<string, unknown> = TENANT) {
  const r = await h.json('POST', STRATEGIES, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

/** Runs `act` and asserts nothing was written and the definitions are as they were. */
async function unchanged(h: Harness, act: () => Promise<unknown>): Promise<void> {
  const before = [positions(h), (await h.json('GET', STRATEGIES)).body];
  await act();
  expect([positions(h), (await h.json('GET', STRATEGIES)).body]).toEqual(before);
}

describe('strategy definitions', () => {
  test('a new service lists the built-in strategies of Unleash 6.10 with their parameters', async ({ h }) => {
    const r = await h.json('GET', STRATEGIES);
    expect(r.body.version).toBe(1);
    expect(r.body.strategies.map((s: { name: string }) => s.name)).toEqual(BUILT_IN);
    expect(r.body.strategies.every((s: { editable: boolean }) => !s.editable)).toBe(true);
    expect(r.body.strategies.find((s: { name: string }) => s.name === 'userWithId').deprecated).toBe(true);
    expect((await h.json('GET', `${STRATEGIES}/flexibleRollout`)).body.parameters.map((p: { name: string }) => p.name)).toEqual(['rollout', 'stickiness', 'groupId']);
    expect((await h.json('GET', `${STRATEGIES}/remoteAddress`)).body.parameters).toEqual([{ name: 'IPs', type: 'list', description: 'List of IPs to enable the feature toggle for.', required: true }]);
  });

  test('create (201 with Location), get, update, deprecate, reactivate, delete', async ({ h }) => {
    const r = await h.json('POST', STRATEGIES, TENANT);
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe('strategies/tenant');
    const created = { name: 'tenant', title: null, displayName: null, description: 'By tenant', editable: true, deprecated: false, parameters: TENANT.parameters };
    expect(r.body).toEqual(created);
    expect((await h.json('GET', `${STRATEGIES}/tenant`)).body).toEqual(created);
    expect((await h.json('GET', STRATEGIES)).body.strategies.map((s: { name: string }) => s.name)).toEqual([...BUILT_IN, 'tenant']);
    // PUT replaces; an answer sent back is accepted (its read-only fields ignored).
    const parameters = [{ name: 'tenants', type: 'list', description: '', required: false }, { name: 'percent', type: 'percentage', description: '', required: false }];
    expect((await h.json('PUT', `${STRATEGIES}/tenant`, { ...created, description: 'Tenants', parameters })).status).toBe(200);
    expect((await h.json('GET', `${STRATEGIES}/tenant`)).body).toEqual({ ...created, description: 'Tenants', parameters });
    expect((await h.req('POST', `${STRATEGIES}/tenant/deprecate`)).status).toBe(200);
    expect((await h.json('GET', `${STRATEGIES}/tenant`)).body.deprecated).toBe(true);
    // An update keeps the deprecation; reactivate lifts it.
    expect((await h.json('PUT', `${STRATEGIES}/tenant`, { parameters, deprecated: false })).status).toBe(200);
    expect((await h.json('GET', `${STRATEGIES}/tenant`)).body.deprecated).toBe(true);
    expect((await h.req('POST', `${STRATEGIES}/tenant/reactivate`)).status).toBe(200);
    expect((await h.json('GET', `${STRATEGIES}/tenant`)).body.deprecated).toBe(false);
    expect((await h.req('DELETE', `${STRATEGIES}/tenant`)).status).toBe(200);
    expectError(await h.json('GET', `${STRATEGIES}/tenant`), 404, 'NotFoundError', /tenant/);
  });

  test('built-in strategies are deprecated and reactivated, never changed or deleted (400)', async ({ h }) => {
    expect((await h.req('POST', `${STRATEGIES}/remoteAddress/deprecate`)).status).toBe(200);
    expect((await h.json('GET', `${STRATEGIES}/remoteAddress`)).body.deprecated).toBe(true);
    expect((await h.req('POST', `${STRATEGIES}/userWithId/reactivate`)).status).toBe(200);
    expect((await h.json('GET', `${STRATEGIES}/userWithId`)).body.deprecated).toBe(false);
    await unchanged(h, async () => expectError(await h.json('PUT', `${STRATEGIES}/default`, { parameters: [] }), 400, 'ValidationError', /built in/));
    await unchanged(h, async () => expectError(await h.json('DELETE', `${STRATEGIES}/flexibleRollout`), 400, 'ValidationError', /built in/));
    // Deprecating twice writes nothing the second time.
    await unchanged(h, async () => expect((await h.req('POST', `${STRATEGIES}/remoteAddress/deprecate`)).status).toBe(200));
  });

  test('bad bodies and paths are 400 naming the property, and write nothing', async ({ h }) => {
    const cases: [unknown, RegExp][] = [
      [{}, /"name": is required/],
      [{ name: '' }, /"name": must not be empty/],
      [{ name: 'x'.repeat(101) }, /"name": must be at most 100 characters/],
      [{ name: 'a/b' }, /"name": must be URL-friendly/],
      [{ name: 'constructor' }, /"name": must not be "constructor"/],
      [{ name: 'ok', description: [] }, /"description": must be a string/],
      [{ name: 'ok', parameters: {} }, /"parameters"/],
      [{ name: 'ok', parameters: [{ type: 'list' }] }, /"parameters.0.name": is required/],
      [{ name: 'ok', parameters: [{ name: 'p', type: 'json' }] }, /"parameters.0.type": must be one of/],
      [{ name: 'ok', parameters: [{ name: 'p', type: 'list', required: 'yes' }] }, /"parameters.0.required": must be a boolean/],
      [{ name: 'ok', parameters: [{ name: 'p', type: 'list' }, { name: 'p', type: 'string' }] }, /"parameters": must not name a parameter twice/],
      [{ name: 'ok', parameters: Array.from({ length: 101 }, (_, i) => ({ name: `p${i}`, type: 'string' })) }, /"parameters": must hold at most 100/],
      [{ name: 'ok', parameters: [{ name: 'p', type: 'list', extra: 1 }] }, /"parameters.0.extra": is not a known property/],
      [{ name: 'ok', strategies: [] }, /"strategies": is not a known property/],
      ['"ok"', /must be an object/],
    ];
    for (const [body, message] of cases) await unchanged(h, async () => expectError(await h.json('POST', STRATEGIES, body), 400, 'ValidationError', message));
    await define(h);
    await unchanged(h, async () => expectError(await h.json('PUT', `${STRATEGIES}/tenant`, { name: 'other', parameters: [] }), 400, 'ValidationError', /"name": must equal/));
    await unchanged(h, async () => expectError(await h.json('PUT', `${STRATEGIES}/tenant`, { parameters: [{ name: 'p' }] }), 400, 'ValidationError', /"parameters.0.type"/));
    await unchanged(h, async () => expectError(await h.json('GET', `${STRATEGIES}/a%20b`), 400, 'ValidationError', /"name"/));
    await unchanged(h, async () => expectError(await h.json('POST', `${STRATEGIES}/__proto__/deprecate`), 400, 'ValidationError', /"strategyName"/));
  });

  test('a duplicate is 409; unknown names are 404', async ({ h }) => {
    await define(h);
    await unchanged(h, async () => expectError(await h.json('POST', STRATEGIES, TENANT), 409, 'NameExistsError', /tenant/));
    await unchanged(h, async () => expectError(await h.json('POST', STRATEGIES, { name: 'default' }), 409, 'NameExistsError', /default/));
    for (const [method, path] of [['GET', 'nope'], ['PUT', 'nope'], ['DELETE', 'nope'], ['POST', 'nope/deprecate'], ['POST', 'nope/reactivate']] as const) {
      await unchanged(h, async () => expectError(await h.json(method, `${STRATEGIES}/${path}`, method === 'PUT' ? { parameters: [] } : undefined), 404, 'NotFoundError', /nope/));
    }
  });

  test('writes need a root Admin or Editor (or an admin token); client tokens are refused', async ({ h }) => {
    const viewer = await personalToken(h, await createUser(h, { username: 'viewer', rootRole: 3 }));
    const editor = await personalToken(h, await createUser(h, { username: 'editor', rootRole: 2 }));
    const client = await clientToken(h, ['default'], 'development');
    expect((await h.json('GET', STRATEGIES, undefined, { token: viewer })).status).toBe(200);
    await unchanged(h, async () => expectError(await h.json('POST', STRATEGIES, TENANT, { token: viewer }), 403, 'NoAccessError', /UPDATE_DEFINITIONS/));
    await unchanged(h, async () => expectError(await h.json('POST', STRATEGIES, TENANT, { token: client }), 403, 'NoAccessError'));
    await unchanged(h, async () => expectError(await h.json('GET', STRATEGIES, undefined, { token: client }), 403, 'NoAccessError'));
    expect((await h.json('POST', STRATEGIES, TENANT, { token: editor })).status).toBe(201);
  });
});

describe('flags use the definitions', () => {
  test('a strategy name no definition has is a 400 naming it; once defined, flags may use it', async ({ h }) => {
    await createFlag(h, 'checkout');
    const path = strategiesPath('checkout', 'development');
    const body = { name: 'tenant', parameters: { tenants: 'a,b' } };
    await expectNoChange(h, async () => expectError(await h.json('POST', path, body), 400, 'ValidationError', /"name": could not find strategy type with name "tenant"/), 'checkout');
    await expectNoChange(h, async () => expectError(await h.json('POST', '/api/admin/projects/default/environments/development/default-strategy', body), 400, 'ValidationError', /"tenant"/));
    await define(h);
    const added = await addStrategy(h, 'checkout', 'development', body);
    expect(added).toMatchObject({ name: 'tenant', parameters: { tenants: 'a,b' } });
    const other = await addStrategy(h, 'checkout', 'development', { name: 'default' });
    // PUT and PATCH to an undefined name are refused too.
    await expectNoChange(h, async () => expectError(await h.json('PUT', `${path}/${other.id}`, { name: 'ghost' }), 400, 'ValidationError', /"ghost"/), 'checkout');
    await expectNoChange(h, async () => expectError(await h.json('PATCH', `${path}/${other.id}`, [{ op: 'replace', path: '/name', value: 'ghost' }]), 400, 'ValidationError', /"ghost"/), 'checkout');
    // A deprecated definition may still be used; a deleted one no longer, while existing strategies stay.
    expect((await h.req('POST', '/api/admin/strategies/tenant/deprecate')).status).toBe(200);
    await addStrategy(h, 'checkout', 'development', body);
    expect((await h.req('DELETE', '/api/admin/strategies/tenant')).status).toBe(200);
    await expectNoChange(h, async () => expectError(await h.json('POST', path, body), 400, 'ValidationError', /"tenant"/), 'checkout');
    const served = (await h.json('GET', path)).body;
    expect(served.filter((s: { name: string }) => s.name === 'tenant')).toHaveLength(2);
  });

  test('the Node SDK evaluates a custom strategy with its own implementation', async ({ h }) => {
    await define(h);
    await createFlag(h, 'tenanted');
    await addStrategy(h, 'tenanted', 'development', { name: 'tenant', parameters: { tenants: 'acme,globex' } });
    await switchOn(h, 'tenanted');
    const token = await clientToken(h, ['default'], 'development');
    const port = await freePort();
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: h.app.fetch, port, hostname: '127.0.0.1' }, () => resolve(s));
    });
    class TenantStrategy extends Strategy {
      constructor() {
        super('tenant');
      }
      override isEnabled(parameters: Record<string, unknown>, context: { properties?: Record<string, unknown> }): boolean {
        return String(parameters['tenants'] ?? '').split(',').includes(String(context.properties?.['tenant']));
      }
    }
    let client: Unleash | undefined;
    try {
      client = initialize({ url: `http://127.0.0.1:${port}/api/`, appName: 'custom-strategy-test', customHeaders: { Authorization: token }, refreshInterval: 200, disableMetrics: true, strategies: [new TenantStrategy()] });
      await vi.waitFor(() => expect(client!.isSynchronized()).toBe(true), untilState(50));
      expect(client.isEnabled('tenanted', { properties: { tenant: 'acme' } })).toBe(true);
      expect(client.isEnabled('tenanted', { properties: { tenant: 'initech' } })).toBe(false);
    } finally {
      client?.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('strategy definitions are state', () => {
  test('they survive a restart, are in the dump, and a restored dump brings them back', async ({ h, tempDir, openHarnessOverTempDir }) => {
    await define(h);
    expect((await h.req('POST', `${STRATEGIES}/remoteAddress/deprecate`)).status).toBe(200);
    await createFlag(h, 'checkout');
    await addStrategy(h, 'checkout', 'development', { name: 'tenant' });
    const before = (await h.json('GET', STRATEGIES)).body;
    await h.restart();
    expect((await h.json('GET', STRATEGIES)).body).toEqual(before);
    const text = await (await h.req('GET', '/api/admin/state')).text();
    expect(JSON.parse(text).service.state.strategyDefinitions.map((d: { name: string }) => d.name)).toEqual([...BUILT_IN, 'tenant']);
    const target = tempDir('definitions-restore');
    await restoreDump(target, parseDump(text));
    const restored = await openHarnessOverTempDir({}, target);
    expect((await restored.json('GET', STRATEGIES)).body).toEqual(before);
    await createFlag(restored, 'other');
    await addStrategy(restored, 'other', 'development', { name: 'tenant' });
  });
});

const limited = harnessTest({ env: { LIMIT_STRATEGY_DEFINITIONS: '1' } });
limited('LIMIT_STRATEGY_DEFINITIONS bounds the custom definitions (400 ExceedsLimitError, nothing written)', async ({ h }) => {
  await define(h);
  await unchanged(h, async () => expectError(await h.json('POST', STRATEGIES, { name: 'other' }), 400, 'ExceedsLimitError', /LIMIT_STRATEGY_DEFINITIONS/));
});
