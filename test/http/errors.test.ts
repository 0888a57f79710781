/**
 * Cross-cutting bad input, on every route at once: missing or wrong credentials, bodies that are not JSON,
 * too large, of the wrong content type or nested absurdly deep, hostile names and unknown ids at every level
 * of a path. Each must be a clear 4xx with the error body, and must change nothing.
 */
import { describe, expect } from 'vitest';
import { ROUTES } from '../../src/app.js';
import type { RouteSpec } from '../../src/http/route.js';
import { featureRoutes } from '../../src/http/routes/features.routes.js';
import { strategyRoutes } from '../../src/http/routes/strategies.routes.js';
import { toggleRoutes } from '../../src/http/routes/toggles.routes.js';
import { variantRoutes } from '../../src/http/routes/variants.routes.js';
import { expectError, expectNoChange as noChange, UUID } from '../helpers/expect.js';
import { harnessTest } from '../helpers/fixtures.js';
import { addStrategy, createFlag } from '../helpers/flags.js';
import { ADMIN_TOKEN, type Harness } from '../helpers/harness.js';

const P = '/api/admin/projects/default';

/**
 * Every test starts with flag `f` and one strategy on it in development (`strategyId`). The tests only read, each
 * proving it (`expectNoChange`), so one app serves the whole file, built once as each test's was; the two that
 * write (`own`) get an app of their own.
 */
// METRICS_REQUIRE_TOKEN: the metrics route then authenticates like every other (by default it answers anyone).
const env = { METRICS_REQUIRE_TOKEN: 'true', IMPORT_BODY_LIMIT: String(2 * 1024 * 1024) };
const test = harnessTest({ env, arrange: (h) => createFlag(h, 'f'), scope: 'file' }).extend<{ strategyId: string }>({
  strategyId: [async ({ h }, use) => { await use((await addStrategy(h, 'f', 'development')).id); }, { auto: true, scope: 'file' }],
});
const own = harnessTest({ env, arrange: (h) => createFlag(h, 'f') }).extend<{ strategyId: string }>({
  strategyId: [async ({ h }, use) => { await use((await addStrategy(h, 'f', 'development')).id); }, { auto: true }],
});

const expectNoChange = (h: Harness, act: () => Promise<unknown>) => noChange(h, act, 'f');

/** A route's path with every parameter set to an existing thing (`strategyId` the strategy's), except those given in `override`. */
function concrete(route: RouteSpec, strategyId: string, override: Record<string, string> = {}): string {
  const known: Record<string, string> = { projectId: 'default', featureName: 'f', environment: 'development', strategyId, userId: '1', roleId: '4', name: 'simple' };
  return route.path.replace(/:(\w+)/g, (_m, name: string) => override[name] ?? known[name] ?? '1');
}

const label = (route: RouteSpec) => `${route.method.toUpperCase()} ${route.path}`;
// Console pages read forms (test/console/); a caller's own account takes a personal token, not this suite's admin token (test/http/passwords.test.ts).
const bodyRoutes = ROUTES.filter((r) => r.body && !r.page && r.permission !== 'OWN_ACCOUNT');

/** A body each of this suite's routes accepts, so a 404 is about the path, not the body. */
const VALID_BODIES: Record<string, unknown> = {
  'put /api/admin/projects/:projectId/features/:featureName': { name: 'f' },
  'patch /api/admin/projects/:projectId/features/:featureName': [{ op: 'replace', path: '/description', value: 'x' }],
  'post /api/admin/projects/:projectId/features/:featureName/clone': { name: 'clone' },
  'post /api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies': { name: 'default' },
  'put /api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies/:strategyId': { name: 'default' },
  'patch /api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies/:strategyId': [{ op: 'replace', path: '/title', value: 't' }],
  'post /api/admin/projects/:projectId/environments/:environment/default-strategy': { name: 'default' },
  'post /api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies/set-sort-order': [],
  'post /api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies/copy': { fromEnvironment: 'production' },
  'put /api/admin/projects/:projectId/features/:featureName/variants': [{ name: 'a', weightType: 'variable', weight: 1 }],
  'patch /api/admin/projects/:projectId/features/:featureName/variants': [{ op: 'add', path: '/-', value: { name: 'a', weightType: 'variable', weight: 1 } }],
  'post /api/admin/projects/:projectId/revive': { features: ['f'] },
  'post /api/admin/projects/:projectId/delete': { features: ['f'] },
  'post /api/admin/projects/:projectId/features': { name: 'g' },
};
const FLAG_ROUTES = [...featureRoutes, ...strategyRoutes, ...toggleRoutes, ...variantRoutes];
/** The valid body of a route; a PUT of a flag repeats the flag name of its path. GET and DELETE send none. */
function bodyOf(route: RouteSpec, featureName = 'f'): unknown {
  if (route.method === 'get' || route.method === 'delete') return undefined;
  const body = VALID_BODIES[`${route.method} ${route.path}`];
  return route.method === 'put' && route.path.endsWith(':featureName') ? { name: featureName } : body;
}

describe('authentication', () => {
  // A public route (`POST /edge/validate`) reads no token: test/http/edge/edge-validate.test.ts.
  // A console page without a session redirects to the sign-in page instead (test/console/).
  test.for(ROUTES.filter((r) => r.authentication !== 'none' && r.authentication !== 'session').map((r) => [label(r), r] as const))('%s: 401 AuthenticationRequired without a token or with a wrong one', async ([_l, route], { h, strategyId }) => {
    await expectNoChange(h, async () => {
      for (const token of [null, 'wrong-token', `Bearer wrong-token`, `Basic ${Buffer.from('admin:admin').toString('base64')}`, 'x'.repeat(600)]) {
        const r = await h.json(route.method.toUpperCase(), concrete(route, strategyId), bodyOf(route), { token });
        expectError(r, 401, 'AuthenticationRequired');
      }
    });
  });

  test('the token is accepted alone or after Bearer, in any case', async ({ h }) => {
    for (const token of [ADMIN_TOKEN, `Bearer ${ADMIN_TOKEN}`, `bearer ${ADMIN_TOKEN}`, `  Bearer   ${ADMIN_TOKEN}  `]) {
      expect((await h.json('GET', `${P}/features/f`, undefined, { token })).status).toBe(200);
    }
  });
});

/**
 * A 400 of `route`: the standard error body, or `[{msg}]` on the project-user routes (API-DECISIONS
 * "Errors"), whose message must match all the same.
 */
function expectBadRequest(route: RouteSpec, r: { status: number; body: any }, message: RegExp): void {
  // The OFREP routes answer a body they cannot read in OFREP's shape (docs/api-decisions.md "OpenFeature (OFREP)").
  if (route.errorBody === 'ofrep') {
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ errorCode: 'PARSE_ERROR', errorDetails: expect.stringMatching(message) });
    return;
  }
  if (route.errorBody !== 'msg-array') return expectError(r, 400, 'ValidationError', message);
  expect(r.status).toBe(400);
  expect(r.body).toEqual([{ msg: expect.stringMatching(message) }]);
}

describe('bodies', () => {
  test.for(bodyRoutes.map((r) => [label(r), r] as const))('%s: malformed JSON 400, wrong content type 415, over the body limit 413', async ([_l, route], { h, strategyId }) => {
    const method = route.method.toUpperCase();
    const path = concrete(route, strategyId);
    await expectNoChange(h, async () => {
      for (const text of ['{', '{"name": "x",}', "{'name': 'x'}", 'undefined', 'NaN', '[1, 2', '\u0000']) {
        expectBadRequest(route, await h.json(method, path, text), /not valid JSON/);
      }
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'json']) {
        expectError(await h.json(method, path, JSON.stringify(bodyOf(route) ?? {}), { headers: { 'content-type': type } }), 415, 'ContentTypeError');
      }
      // An import's body has its own limit (IMPORT_BODY_LIMIT, 2 MiB here).
      const big = JSON.stringify({ name: 'f', description: 'x'.repeat(route.bodyLimit === 'import' ? 2 * 1024 * 1024 : 1024 * 1024) });
      expectError(await h.json(method, path, big), 413, 'PayloadTooLarge');
      if (!route.bodyOptional) expectBadRequest(route, await h.json(method, path, ''), /body is required/);
    });
  });

  test('a body just under the limit is read and judged by its schema', async ({ h }) => {
    const body = JSON.stringify({ name: 'f', description: 'x'.repeat(1024 * 1024 - 100) });
    await expectNoChange(h, async () => expectError(await h.json('PUT', `${P}/features/f`, body), 400, 'ValidationError', /"description": must be at most 10000/));
  });

  own('application/json with parameters and +json types are JSON', async ({ h }) => {
    for (const type of ['application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json-patch+json']) {
      const r = await h.json('PATCH', `${P}/features/f`, JSON.stringify([{ op: 'replace', path: '/description', value: type }]), { headers: { 'content-type': type } });
      expect(r.status).toBe(200);
    }
  });

  test.for(bodyRoutes.map((r) => [label(r), r] as const))('%s: a body nested 70 or 100000 levels deep is a 400', async ([_l, route], { h, strategyId }) => {
    await expectNoChange(h, async () => {
      for (const depth of [70, 100_000]) {
        const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
        expectBadRequest(route, await h.json(route.method.toUpperCase(), concrete(route, strategyId), `{"name":"f","x":${deep}}`), /deep/);
      }
    });
  });

  test('the depth bound holds at its edge, in the shortest texts: 65 levels (130 characters) are refused as too deep, 64 are not', async ({ h }) => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    await expectNoChange(h, async () => {
      expectError(await h.json('PATCH', `${P}/features/f`, nested(65)), 400, 'ValidationError', /more than 64 levels deep/);
      const at = await h.json('PATCH', `${P}/features/f`, nested(64));
      expect(at.status).toBe(400);
      expect(JSON.stringify(at.body)).not.toMatch(/levels deep/);
    });
  });

  own('a deep value that a patch adds and removes again is refused before it reaches the log', async ({ h, strategyId }) => {
    // Regression: accepted, then JSON.stringify of the log record overflowed the stack, the request hung and
    // the rejection went unhandled (which ends a Node process).
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const patch = `[{"op":"add","path":"/junk","value":${deep}},{"op":"remove","path":"/junk"}]`;
    await expectNoChange(h, async () => {
      expectError(await h.json('PATCH', `${P}/features/f`, patch), 400, 'ValidationError', /deep/);
      expectError(await h.json('PATCH', `${P}/features/f/environments/development/strategies/${strategyId}`, patch), 400, 'ValidationError', /deep/);
      expectError(await h.json('PATCH', `${P}/features/f/variants`, `[{"op":"add","path":"/-","value":${deep}},{"op":"remove","path":"/0"}]`), 400, 'ValidationError', /deep/);
    });
    // Brackets inside strings (after escaped quotes and backslashes) are text, not depth.
    const r = await h.json('PUT', `${P}/features/f`, { name: 'f', description: `\\"${'['.repeat(5000)}\\` });
    expect(r.status).toBe(200);
  });

  test('keys that name Object.prototype members are unknown properties, and nothing is polluted', async ({ h }) => {
    await expectNoChange(h, async () => {
      for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
        expectError(await h.json('POST', `${P}/features`, `{"name":"g","${key}":{"polluted":true}}`), 400, 'ValidationError', new RegExp(`"${key}": is not a known property`));
        expectError(await h.json('PUT', `${P}/features/f/variants`, `[{"name":"a","weightType":"variable","weight":1,"${key}":{"polluted":true}}]`), 400, 'ValidationError');
      }
    });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('paths', () => {
  test('unknown /api paths and methods answer 404 NotFoundError', async ({ h }) => {
    await expectNoChange(h, async () => {
      for (const [method, path] of [['GET', '/api/admin/nothing'], ['GET', '/api/nothing'], ['PATCH', '/api/admin/projects'], ['POST', `${P}/features/f/nothing`], ['PUT', `${P}/features/f/environments/development/on`], ['GET', '/nothing']]) {
        expectError(await h.json(method!, path!), 404, 'NotFoundError');
      }
    });
  });

  const params = (route: RouteSpec) => [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const cases = FLAG_ROUTES.flatMap((route) => params(route).map((param) => [label(route), param, route] as const));

  test.for(cases)('%s: an unknown %s is a 404 and changes nothing', async ([_l, param, route], { h, strategyId }) => {
    const unknown: Record<string, string> = { projectId: 'no-such-project', featureName: 'no-such-flag', environment: 'no-such-env', strategyId: '00000000-0000-4000-8000-000000000000' };
    await expectNoChange(h, async () => {
      const r = await h.json(route.method.toUpperCase(), concrete(route, strategyId, { [param]: unknown[param]! }), bodyOf(route, unknown['featureName']));
      expectError(r, 404, 'NotFoundError');
    });
  });

  const hostile = ['%2e%2e', '%2E', 'caf%C3%A9', '%F0%9F%9A%A9', 'a%2Fb', 'a%20b', '%00', 'x'.repeat(101), '%3Cscript%3E', 'a%3Fb%3Dc'];
  test.for(cases)('%s: a hostile %s is a 400 (404 for a strategy id) and changes nothing', async ([_l, param, route], { h, strategyId }) => {
    await expectNoChange(h, async () => {
      for (const value of hostile) {
        const r = await h.json(route.method.toUpperCase(), concrete(route, strategyId, { [param]: value }), bodyOf(route));
        if (value.toLowerCase() === '%2e%2e' || value.toLowerCase() === '%2e') {
          // The URL parser resolves encoded dot segments, so the request reaches another path (or none).
          expect([400, 404]).toContain(r.status);
          expect(r.body.id).toMatch(UUID);
        } else if (param === 'strategyId' && value.length <= 100 && value !== '%00') {
          expectError(r, 404, 'NotFoundError');
        } else if (param === 'strategyId') {
          expect([400, 404]).toContain(r.status);
          expect(r.body.name).toMatch(/ValidationError|NotFoundError/);
        } else {
          expectError(r, 400, 'ValidationError', new RegExp(`"${param}"`));
        }
      }
    });
  });

  test('a literal .. segment is resolved by the URL, never read as a name: no write happens', async ({ h }) => {
    await expectNoChange(h, async () => {
      for (const [method, path] of [
        ['DELETE', `${P}/features/..`], ['PUT', `${P}/features/..`], ['PATCH', `${P}/features/..`],
        ['POST', `${P}/features/../environments/development/on`], ['POST', `${P}/features/f/environments/../on`],
        ['DELETE', `${P}/features/f/environments/development/strategies/..`],
      ]) {
        const r = await h.json(method!, path!, method === 'DELETE' ? undefined : { name: 'f' });
        expect(r.status).toBeGreaterThanOrEqual(400);
        expect(r.status).toBeLessThan(500);
        expect(typeof r.body.name).toBe('string');
      }
    });
  });
});
