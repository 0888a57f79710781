/**
 * `GET /api/client/features` and `/:featureName` over the harness: the shape SDKs read, the token's scope
 * winning over the query, the filters, the `Unleash-Client-Spec` header, ETag and 304, gzip, and who may call.
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect, vi } from 'vitest';
import { test } from '../../helpers/fixtures.js';
import type { Harness } from '../../helpers/harness.js';
import { addStrategy, createFlag, flagPath, switchOn } from '../../helpers/flags.js';
import { createProject, createUser, personalToken } from '../access/access-fixtures.js';
import { clientToken, features, FEATURES, names } from './client-fixtures.js';
import { untilState } from '../../helpers/wait.js';

async function twoProjects(h: Harness): Promise<void> {
  await createProject(h, 'alpha');
  await createProject(h, 'beta');
  await createFlag(h, 'a-one', {}, 'alpha');
  await createFlag(h, 'a-two', {}, 'alpha');
  await createFlag(h, 'b-one', {}, 'beta');
}

describe('the answer', () => {
  test('a flag as SDKs read it: strategies without ids, titles or disabled ones, variants, impressionData, dependencies', async ({ h }) => {
    await createFlag(h, 'shaped', { description: 'd', impressionData: true });
    await addStrategy(h, 'shaped', 'development', {
      name: 'flexibleRollout', title: 'half', parameters: { rollout: '50', stickiness: 'default', groupId: 'shaped' },
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }],
    });
    await addStrategy(h, 'shaped', 'development', { name: 'default', disabled: true });
    await switchOn(h, 'shaped');
    expect((await h.req('PUT', `${flagPath('shaped')}/variants`, [{ name: 'blue', weightType: 'variable', weight: 1000, stickiness: 'default' }])).status).toBe(200);
    const token = await clientToken(h, ['default'], 'development');
    const r = await features(h, token);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['version', 'features', 'query', 'segments', 'meta']);
    expect(r.body.version).toBe(2);
    expect(r.body.features).toEqual([{
      name: 'shaped', type: 'release', description: 'd', project: 'default', enabled: true, stale: false, impressionData: true,
      strategies: [{
        name: 'flexibleRollout', constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'], caseInsensitive: false, inverted: false }],
        parameters: { rollout: '50', stickiness: 'default', groupId: 'shaped' }, variants: [],
      }],
      variants: [{ name: 'blue', weightType: 'variable', weight: 1000, stickiness: 'default' }],
      dependencies: [],
    }]);
    expect(r.body.query).toEqual({ project: ['default'], environment: 'development', inlineSegmentConstraints: false });
    expect(r.body.meta.etag).toBe(r.headers.get('etag'));
  });

  test('archived flags are left out; a disabled flag is in, not enabled', async ({ h }) => {
    await createFlag(h, 'kept');
    await createFlag(h, 'gone');
    expect((await h.req('DELETE', flagPath('gone'))).status).toBe(202);
    const r = await features(h, await clientToken(h, ['default'], 'development'));
    expect(r.body.features.map((f: { name: string; enabled: boolean }) => [f.name, f.enabled])).toEqual([['kept', false]]);
  });

  test('/:featureName answers one flag of the scope; unknown, archived and out of scope are 404', async ({ h }) => {
    await twoProjects(h);
    await createFlag(h, 'a-archived', {}, 'alpha');
    expect((await h.req('DELETE', flagPath('a-archived', 'alpha'))).status).toBe(202);
    const token = await clientToken(h, ['alpha'], 'development');
    const one = await h.json('GET', `${FEATURES}/a-one`, undefined, { token });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ name: 'a-one', project: 'alpha', enabled: false, strategies: [] });
    for (const name of ['nope', 'a-archived', 'b-one']) expect((await h.json('GET', `${FEATURES}/${name}`, undefined, { token })).status, name).toBe(404);
  });
});

describe('scope', () => {
  test('a client token of project A never sees project B or another environment, whatever the query says', async ({ h }) => {
    await twoProjects(h);
    await addStrategy(h, 'a-one', 'production', { name: 'default' }, 'alpha');
    await switchOn(h, 'a-one', 'production', 'alpha');
    const token = await clientToken(h, ['alpha'], 'development');
    for (const query of ['', '?project=beta', '?project=alpha&project=beta', '?project=*', '?environment=production']) {
      const r = await features(h, token, query);
      expect(r.status, query).toBe(200);
      expect(names(r.body), query).toEqual(query === '?project=beta' ? [] : ['a-one', 'a-two']);
      expect(r.body.query.environment, query).toBe('development');
      expect(r.body.features.every((f: { enabled: boolean }) => !f.enabled), query).toBe(true);
    }
  });

  test('a token of every project reads them all, and the project query narrows it', async ({ h }) => {
    await twoProjects(h);
    const token = await clientToken(h, ['*'], 'development');
    expect(names((await features(h, token)).body)).toEqual(['a-one', 'a-two', 'b-one']);
    expect(names((await features(h, token, '?project=beta')).body)).toEqual(['b-one']);
    expect(names((await features(h, token, '?project=beta&project=alpha')).body)).toEqual(['a-one', 'a-two', 'b-one']);
  });

  test('an admin token reads every project, in ?environment= or else "default"', async ({ h }) => {
    await twoProjects(h);
    await addStrategy(h, 'a-one', 'production', { name: 'default' }, 'alpha');
    await switchOn(h, 'a-one', 'production', 'alpha');
    const admin = await h.json('GET', `${FEATURES}?environment=production`);
    expect(admin.status).toBe(200);
    expect(admin.body.query).toMatchObject({ project: ['*'], environment: 'production' });
    expect(admin.body.features.find((f: { name: string }) => f.name === 'a-one').enabled).toBe(true);
    expect((await h.json('GET', FEATURES)).body.query.environment).toBe('default');
  });
});

describe('query', () => {
  test('namePrefix, project, and a tag filter (no flag carries the tag: nothing matches)', async ({ h }) => {
    await twoProjects(h);
    const token = await clientToken(h, ['*'], 'development');
    expect(names((await features(h, token, '?namePrefix=a-')).body)).toEqual(['a-one', 'a-two']);
    expect(names((await features(h, token, '?namePrefix=a-&project=beta')).body)).toEqual([]);
    expect(names((await features(h, token, '?tag=simple:beta')).body)).toEqual([]);
    expect(names((await features(h, token, '?inlineSegmentConstraints=false&unknown=1')).body)).toEqual(['a-one', 'a-two', 'b-one']);
  });

  test.for<[string]>([['?tag=nocolon'], ['?tag=simple:ok&tag=bad'], ['?project=a%20b'], [`?namePrefix=${'x'.repeat(101)}`], ['?environment=*']])(
    'refuses %s with a 400', async ([query], { h }) => {
      const token = await clientToken(h, ['*'], 'development');
      const r = await features(h, token, query);
      expect(r.status).toBe(400);
      expect(r.body.name).toBe('ValidationError');
    },
  );
});

describe('Unleash-Client-Spec and segments', () => {
  async function segmented(h: Harness): Promise<number> {
    const segment = await h.json('POST', '/api/admin/segments', { name: 'beta-users', constraints: [{ contextName: 'userId', operator: 'IN', values: ['7'] }] });
    expect(segment.status).toBe(201);
    await h.json('POST', '/api/admin/segments', { name: 'unused', constraints: [] });
    await createFlag(h, 'seg');
    await addStrategy(h, 'seg', 'development', { name: 'default', segments: [segment.body.id], constraints: [{ contextName: 'appName', operator: 'IN', values: ['x'] }] });
    return segment.body.id as number;
  }

  test('4.2.0 or newer: segment ids and the top-level segments the served strategies name', async ({ h }) => {
    const id = await segmented(h);
    const token = await clientToken(h, ['default'], 'development');
    for (const spec of ['4.2.0', '5.1.9']) {
      const r = await features(h, token, '', {}, spec);
      expect(r.body.features[0].strategies[0].segments, spec).toEqual([id]);
      expect(r.body.segments, spec).toEqual([{ id, name: 'beta-users', constraints: [{ contextName: 'userId', operator: 'IN', values: ['7'], caseInsensitive: false, inverted: false }] }]);
      expect(r.body.query.inlineSegmentConstraints).toBe(false);
    }
  });

  test('absent or older: segment constraints inlined after the strategy\'s own, no segments key', async ({ h }) => {
    await segmented(h);
    const token = await clientToken(h, ['default'], 'development');
    for (const spec of [null, '4.1.9', '3.0.0']) {
      const r = await features(h, token, '', {}, spec);
      expect(r.status).toBe(200);
      expect('segments' in r.body, String(spec)).toBe(false);
      const strategy = r.body.features[0].strategies[0];
      expect(strategy.segments).toBeUndefined();
      expect(strategy.constraints.map((c: { contextName: string }) => c.contextName)).toEqual(['appName', 'userId']);
      expect(r.body.query.inlineSegmentConstraints).toBe(true);
    }
  });

  test('a changed segment changes both forms and their ETags; a segment no served strategy names changes neither', async ({ h }) => {
    const id = await segmented(h);
    const token = await clientToken(h, ['default'], 'development');
    const before = { old: await features(h, token, '', {}, null), now: await features(h, token) };
    const unused = (await h.json('GET', '/api/admin/segments')).body.segments.find((s: { name: string }) => s.name === 'unused');
    expect((await h.req('PUT', `/api/admin/segments/${unused.id}`, { name: 'unused', constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] })).status).toBe(204);
    expect((await features(h, token)).headers.get('etag')).toBe(before.now.headers.get('etag'));
    expect((await h.req('PUT', `/api/admin/segments/${id}`, { name: 'beta-users', constraints: [{ contextName: 'userId', operator: 'IN', values: ['8'] }] })).status).toBe(204);
    const old = await features(h, token, '', {}, null);
    const now = await features(h, token);
    expect(old.headers.get('etag')).not.toBe(before.old.headers.get('etag'));
    expect(now.headers.get('etag')).not.toBe(before.now.headers.get('etag'));
    expect(old.body.features[0].strategies[0].constraints[1].values).toEqual(['8']);
    expect(now.body.segments[0].constraints[0].values).toEqual(['8']);
  });

  test.for<[string]>([['5'], ['v5.1.0'], ['5.1'], ['latest'], [' 5.1.0x']])('a malformed spec %j is a 400', async ([spec], { h }) => {
    const r = await features(h, await clientToken(h, ['default'], 'development'), '', {}, spec);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('Unleash-Client-Spec');
  });
});

describe('ETag', () => {
  test('every 200 has one; If-None-Match with it (alone, in a list, weak) is a 304 without a body', async ({ h }) => {
    await createFlag(h, 'f');
    const token = await clientToken(h, ['default'], 'development');
    const first = await features(h, token);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{8}:\d+"$/);
    for (const header of [etag, `"other", ${etag}`, `W/${etag}`]) {
      const r = await h.req('GET', FEATURES, undefined, { token, headers: { 'if-none-match': header, 'unleash-client-spec': '5.1.0' } });
      expect(r.status, header).toBe(304);
      expect(await r.text()).toBe('');
      expect(r.headers.get('etag')).toBe(etag);
    }
    expect((await features(h, token, '', { 'if-none-match': '"other"' })).status).toBe(200);
  });

  test('unchanged by a change in another project or environment; changed by a change the answer shows', async ({ h }) => {
    await twoProjects(h);
    const token = await clientToken(h, ['alpha'], 'development');
    const etag = (await features(h, token)).headers.get('etag');
    await createFlag(h, 'b-two', {}, 'beta');
    await addStrategy(h, 'a-one', 'production', { name: 'default' }, 'alpha');
    await switchOn(h, 'a-one', 'production', 'alpha');
    expect((await features(h, token)).headers.get('etag')).toBe(etag);
    await addStrategy(h, 'a-one', 'development', { name: 'default' }, 'alpha');
    const moved = (await features(h, token)).headers.get('etag');
    expect(moved).not.toBe(etag);
    await switchOn(h, 'a-one', 'development', 'alpha');
    expect((await features(h, token)).headers.get('etag')).not.toBe(moved);
  });
});

test('a large answer is gzipped for a client that accepts it', async ({ h }) => {
  await Promise.all(Array.from({ length: 300 }, (_, i) => h.req('POST', '/api/admin/projects/default/features', { name: `flag-with-a-longish-name-${i}`, description: 'x'.repeat(100) })));
  const token = await clientToken(h, ['default'], 'development');
  const plain = await h.req('GET', FEATURES, undefined, { token });
  const text = await plain.text();
  // The compressed copy is made in zlib's thread pool: asked until it is ready.
  const zipped = await vi.waitFor(async () => {
    const r = await h.req('GET', FEATURES, undefined, { token, headers: { 'accept-encoding': 'gzip' } });
    if (r.headers.get('content-encoding') === 'gzip') return r;
    await r.arrayBuffer();
    throw new Error('not answered gzip yet');
  }, untilState(10));
  expect(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString()).toBe(text);
  expect(zipped.headers.get('etag')).toBe(plain.headers.get('etag'));
});

describe('who may call', () => {
  test('no token or an unknown one: 401', async ({ h }) => {
    expect((await h.json('GET', FEATURES, undefined, { token: null })).status).toBe(401);
    expect((await h.json('GET', FEATURES, undefined, { token: 'default:development.unknown' })).status).toBe(401);
  });

  test('a client token works with a Bearer prefix and under its alias "backend"', async ({ h }) => {
    await createFlag(h, 'f');
    const token = await clientToken(h, ['default'], 'development', 'backend');
    const r = await h.json('GET', FEATURES, undefined, { token: `Bearer ${token}` });
    expect(r.status).toBe(200);
    expect(names(r.body)).toEqual(['f']);
    const listed = (await h.json('GET', '/api/admin/api-tokens')).body.tokens.find((t: { tokenName: string }) => t.tokenName.startsWith('sdk-default'));
    expect(listed.type).toBe('client');
  });

  test('a personal token (even a root Admin\'s) is 403 here; a client token is 403 on an admin route', async ({ h }) => {
    const admin = await personalToken(h, await createUser(h, { username: 'root', rootRole: 1 }));
    const r = await h.json('GET', FEATURES, undefined, { token: admin });
    expect(r.status).toBe(403);
    expect(r.body.message).toContain('CLIENT_API');
    const client = await clientToken(h, ['default'], 'development');
    expect((await h.json('GET', '/api/admin/projects', undefined, { token: client })).status).toBe(403);
    expect((await h.json('GET', flagPath('x'), undefined, { token: client })).status).toBe(403);
  });

  test('client tokens name one environment: "*" is a 400, none means development', async ({ h }) => {
    const star = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', environment: '*' });
    expect(star.status).toBe(400);
    expect(star.body.message).toContain('environment');
    const none = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client' });
    expect(none.status).toBe(201);
    expect(none.body.environment).toBe('development');
    expect(none.body.secret).toMatch(/^\*:development\./);
  });
});

describe('INIT_CLIENT_API_TOKENS', () => {
  test('stores each secret with the scope its text names', async ({ openHarness }) => {
    const h = await openHarness({ INIT_CLIENT_API_TOKENS: 'default:development.abc123, *:production.def456' });
    await createFlag(h, 'f');
    await addStrategy(h, 'f', 'production');
    await switchOn(h, 'f', 'production');
    const dev = await h.json('GET', FEATURES, undefined, { token: 'default:development.abc123' });
    expect(dev.status).toBe(200);
    expect(dev.body.query).toMatchObject({ project: ['default'], environment: 'development' });
    expect(dev.body.features[0].enabled).toBe(false);
    const prod = await h.json('GET', FEATURES, undefined, { token: '*:production.def456' });
    expect(prod.body.features[0].enabled).toBe(true);
    await h.restart();
    expect((await h.json('GET', FEATURES, undefined, { token: 'default:development.abc123' })).status).toBe(200);
    expect(Object.values(h.registry.service.state.tokens).filter((t) => t.type === 'client')).toHaveLength(2);
  });

  test.for<[string]>([['no-scope-at-all'], ['default:*.abc'], ['default:development'], ['a b:development.x']])('refuses %j at start, naming the variable', async ([secret], { openHarness }) => {
    await expect(openHarness({ INIT_CLIENT_API_TOKENS: secret })).rejects.toThrow(/INIT_CLIENT_API_TOKENS/);
  });

  test('refuses a token of an unknown environment at start', async ({ openHarness }) => {
    await expect(openHarness({ INIT_CLIENT_API_TOKENS: 'default:staging.abc' })).rejects.toThrow(/INIT_CLIENT_API_TOKENS.*staging/);
  });
});
