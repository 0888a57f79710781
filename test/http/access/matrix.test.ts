/**
 * Every route of ROUTES, tried by a token of each kind of caller: allowed ones must succeed (2xx), the
 * others must answer 403 NoAccessError naming the permission. The expectation is written out below by hand,
 * route by route, and does not consult `isAllowed` or the routes' `permission` field, so a change to either
 * that widens or narrows access makes this test fail. A route added to ROUTES without a row here fails too.
 */
import { describe, expect, test } from 'vitest';
import { ROUTES } from '../../../src/app.js';
import { ADMIN_TOKEN, harness, type Harness } from '../../helpers/harness.js';
import { createProject, createUser, grant, MEMBER, OWNER, personalToken, READER } from './access-fixtures.js';

/** What a route does, in the terms of API-DECISIONS "users, roles, tokens". */
type Kind =
  | 'read' // any GET
  | 'flag' // flag, strategy, variant and on/off work in a project
  | 'project' // membership, default strategies, the project's environments
  | 'segment' // global segments (a project's segments follow 'project': test/http/segments.test.ts)
  | 'tag-type' // tag types: service-wide, as Unleash's *_TAG_TYPE permissions
  | 'definition' // context fields and strategy definitions: service-wide, as Unleash's *_CONTEXT_FIELD and *_STRATEGY
  | 'addon' // addons (integrations): service-wide, as Unleash's *_ADDON
  | 'admin' // users, tokens, environments, new projects, service-wide dumps
  | 'client' // what SDKs call: client and admin tokens only, never a personal token
  | 'frontend' // the frontend API: frontend tokens and admin tokens only
  | 'evaluate' // OFREP bulk evaluation and its event stream: client, frontend and admin tokens
  | 'self' // the caller's own account (their password): users only, by personal token
  | 'public'; // no token needed: whoever calls (Unleash Edge's token validation)

type Caller = 'admin token' | 'client token' | 'frontend token' | 'root Admin' | 'root Editor' | 'root Viewer' | 'Owner' | 'Member' | 'Reader';

/** Who may do what: the rules of API-DECISIONS, restated. */
const MAY: Record<Caller, Kind[]> = {
  'admin token': ['read', 'flag', 'project', 'segment', 'tag-type', 'definition', 'addon', 'admin', 'client', 'frontend', 'evaluate', 'public'],
  'client token': ['client', 'evaluate', 'public'],
  'frontend token': ['frontend', 'evaluate', 'public'],
  'root Admin': ['read', 'flag', 'project', 'segment', 'tag-type', 'definition', 'addon', 'admin', 'self', 'public'],
  'root Editor': ['read', 'flag', 'segment', 'tag-type', 'definition', 'addon', 'self', 'public'],
  'root Viewer': ['read', 'self', 'public'],
  Owner: ['read', 'flag', 'project', 'self', 'public'],
  Member: ['read', 'flag', 'self', 'public'],
  Reader: ['read', 'self', 'public'],
};

interface Row {
  kind: Kind;
  /** A body that succeeds when the caller may call the route. */
  body?: unknown;
  /** Parameters other than the defaults of the world (see `World`). */
  params?: Record<string, string>;
  /** A query string the route needs, `?` included. */
  query?: string;
  /** The answer is a stream that does not end: only its status is read (and the body parsed when it is an error). */
  stream?: boolean;
  /**
   * The route authenticates by the stream ticket of a bulk OFREP answer, not the Authorization header: the caller
   * asks `POST /ofrep/v1/evaluate/flags` for one first. A caller refused there holds no ticket: 401, not 403.
   */
  ticket?: boolean;
}

const P = '/api/admin/projects/:projectId';
const FLAG = `${P}/features/:featureName`;
const ENV = `${FLAG}/environments/:environment`;
const MEMBERSHIP = `${P}/users/:userId/roles/:roleId`;

const REGISTER = { appName: 'matrix-app', instanceId: 'i-1', strategies: ['default'], started: '2026-01-01T00:00:00.000Z', interval: 1000 };
const METRICS = { appName: 'matrix-app', instanceId: 'i-1', bucket: { start: '2026-01-01T00:00:00.000Z', stop: '2026-01-01T00:01:00.000Z', toggles: { 'm-flag': { yes: 1, no: 0, variants: {} } } } };

/** The expected table, one row per route; rows run in ROUTES order against one world per caller. */
const EXPECTED: Record<string, Row> = {
  'GET /api/admin/projects': { kind: 'read' },
  'POST /api/admin/projects': { kind: 'admin', body: { id: 'made', name: 'Made' } },
  [`GET ${P}`]: { kind: 'read' },
  [`PUT ${P}`]: { kind: 'project', body: { name: 'Matrix' } },
  // An empty project in which the Owner, Member and Reader hold the same roles as in "matrix".
  [`DELETE ${P}`]: { kind: 'project', params: { projectId: 'm-doomed-project' } },
  [`POST ${P}/environments`]: { kind: 'project', body: { environment: 'm-spare' } },
  [`DELETE ${P}/environments/:environment`]: { kind: 'project', params: { environment: 'staging' } },
  'GET /api/admin/environments': { kind: 'read' },
  'POST /api/admin/environments': { kind: 'admin', body: { name: 'made' } },
  'POST /api/admin/environments/validate': { kind: 'admin', body: { name: 'free' } },
  'PUT /api/admin/environments/sort-order': { kind: 'admin', body: { staging: 3 } },
  'PUT /api/admin/environments/update/:name': { kind: 'admin', params: { name: 'staging' }, body: { type: 'test' } },
  'GET /api/admin/environments/:name': { kind: 'read', params: { name: 'development' } },
  'GET /api/admin/environments/project/:projectId': { kind: 'read' },
  'POST /api/admin/environments/:name/on': { kind: 'admin', params: { name: 'staging' } },
  'POST /api/admin/environments/:name/off': { kind: 'admin', params: { name: 'staging' } },
  // Created after the projects, so none of them has it.
  'DELETE /api/admin/environments/:name': { kind: 'admin', params: { name: 'm-doomed-env' } },
  [`GET ${P}/features`]: { kind: 'read' },
  [`POST ${P}/features`]: { kind: 'flag', body: { name: 'made' } },
  [`GET ${FLAG}`]: { kind: 'read' },
  [`PUT ${FLAG}`]: { kind: 'flag', body: { name: 'm-flag', description: 'put', type: 'release' } },
  [`PATCH ${FLAG}`]: { kind: 'flag', body: [{ op: 'replace', path: '/description', value: 'patched' }] },
  [`DELETE ${FLAG}`]: { kind: 'flag', params: { featureName: 'm-doomed' } },
  [`POST ${FLAG}/clone`]: { kind: 'flag', body: { name: 'm-clone' } },
  [`POST ${P}/revive`]: { kind: 'flag', body: { features: ['m-doomed'] } },
  [`POST ${P}/delete`]: { kind: 'flag', body: { features: ['m-archived'] } },
  [`POST ${P}/stale`]: { kind: 'flag', body: { features: ['m-flag'], stale: true } },
  [`POST ${P}/archive`]: { kind: 'flag', body: { features: ['m-nobody'] } },
  [`POST ${P}/bulk_features/environments/:environment/on`]: { kind: 'flag', body: { features: ['m-flag'] } },
  [`POST ${P}/bulk_features/environments/:environment/off`]: { kind: 'flag', body: { features: ['m-flag'] } },
  ['GET /api/admin/archive/features/:projectId']: { kind: 'read' },
  [`GET ${ENV}`]: { kind: 'read' },
  [`GET ${ENV}/strategies`]: { kind: 'read' },
  [`POST ${ENV}/strategies`]: { kind: 'flag', body: { name: 'default' } },
  [`POST ${ENV}/strategies/set-sort-order`]: { kind: 'flag', body: [] },
  [`POST ${ENV}/strategies/copy`]: { kind: 'flag', body: { fromEnvironment: 'production' } },
  [`GET ${ENV}/strategies/:strategyId`]: { kind: 'read' },
  [`PUT ${ENV}/strategies/:strategyId`]: { kind: 'flag', body: { name: 'flexibleRollout', parameters: { rollout: '50' } } },
  [`PATCH ${ENV}/strategies/:strategyId`]: { kind: 'flag', body: [{ op: 'replace', path: '/parameters/rollout', value: '60' }] },
  [`DELETE ${ENV}/strategies/:strategyId`]: { kind: 'flag' },
  [`POST ${ENV}/on`]: { kind: 'flag' },
  [`POST ${ENV}/off`]: { kind: 'flag' },
  [`POST ${P}/environments/:environment/default-strategy`]: { kind: 'project', body: { name: 'default' } },
  [`GET ${FLAG}/variants`]: { kind: 'read' },
  [`PUT ${FLAG}/variants`]: { kind: 'flag', body: [{ name: 'a', weightType: 'variable', weight: 1000 }] },
  [`PATCH ${FLAG}/variants`]: { kind: 'flag', body: [{ op: 'add', path: '/1', value: { name: 'b', weightType: 'variable', weight: 0 } }] },
  'GET /api/admin/segments': { kind: 'read' },
  'POST /api/admin/segments': { kind: 'segment', body: { name: 'made', constraints: [] } },
  'GET /api/admin/segments/:id': { kind: 'read', params: { id: 'segment' } },
  'PUT /api/admin/segments/:id': { kind: 'segment', params: { id: 'segment' }, body: { name: 'm-segment', description: 'put', constraints: [] } },
  'DELETE /api/admin/segments/:id': { kind: 'segment', params: { id: 'doomedSegment' } },
  'GET /api/admin/tag-types': { kind: 'read' },
  // slack-app has no URL to check (no lookup), and this world delivers nothing.
  'GET /api/admin/addons': { kind: 'read' },
  'POST /api/admin/addons': { kind: 'addon', body: { provider: 'slack-app', parameters: { accessToken: 'xoxb-made' } } },
  'GET /api/admin/addons/:id': { kind: 'read', params: { id: 'addon' } },
  'PUT /api/admin/addons/:id': { kind: 'addon', params: { id: 'addon' }, body: { provider: 'slack-app', parameters: { accessToken: '*****' }, description: 'put' } },
  'DELETE /api/admin/addons/:id': { kind: 'addon', params: { id: 'doomedAddon' } },
  'GET /api/admin/addons/:id/events': { kind: 'admin', params: { id: 'addon' } },
  'GET /api/admin/feature-types': { kind: 'read' },
  'GET /api/admin/flag-creators': { kind: 'read' },
  [`GET ${P}/flag-creators`]: { kind: 'read' },
  'GET /api/admin/search/features': { kind: 'read' },
  [`GET ${FLAG}/lifecycle`]: { kind: 'read' },
  [`POST ${FLAG}/lifecycle/complete`]: { kind: 'flag', body: { status: 'kept', statusValue: 'v1' } },
  [`POST ${FLAG}/lifecycle/uncomplete`]: { kind: 'flag' },
  'GET /api/admin/lifecycle/count': { kind: 'read' },
  'POST /api/admin/tag-types': { kind: 'tag-type', body: { name: 'made' } },
  'POST /api/admin/tag-types/validate': { kind: 'read', body: { name: 'fresh' } },
  'POST /api/admin/features-batch/export': { kind: 'read', body: { environment: 'development', project: 'default' } },
  'POST /api/admin/features-batch/validate': { kind: 'read', body: { project: 'default', environment: 'development', data: { features: [{ name: 'm-imported' }], featureStrategies: [] } } },
  'POST /api/admin/features-batch/import': { kind: 'definition', body: { project: 'default', environment: 'development', data: { features: [{ name: 'm-imported' }], featureStrategies: [] } } },
  'GET /api/admin/tag-types/:name': { kind: 'read', params: { name: 'simple' } },
  'PUT /api/admin/tag-types/:name': { kind: 'tag-type', params: { name: 'm-type' }, body: { description: 'put' } },
  'DELETE /api/admin/tag-types/:name': { kind: 'tag-type', params: { name: 'm-doomed-type' } },
  'GET /api/admin/tags': { kind: 'read' },
  'GET /api/admin/context': { kind: 'read' },
  'POST /api/admin/context': { kind: 'definition', body: { name: 'made' } },
  'POST /api/admin/context/validate': { kind: 'read', body: { name: 'fresh' } },
  'GET /api/admin/context/:contextField': { kind: 'read', params: { contextField: 'appName' } },
  'GET /api/admin/context/:contextField/strategies': { kind: 'read', params: { contextField: 'appName' } },
  'PUT /api/admin/context/:contextField': { kind: 'definition', params: { contextField: 'm-field' }, body: { description: 'put' } },
  'DELETE /api/admin/context/:contextField': { kind: 'definition', params: { contextField: 'm-doomed-field' } },
  'POST /api/admin/context/:contextField/legal-values': { kind: 'definition', params: { contextField: 'm-field' }, body: { value: 'eu' } },
  'DELETE /api/admin/context/:contextField/legal-values/:legalValue': { kind: 'definition', params: { contextField: 'm-field', legalValue: 'eu' } },
  'GET /api/admin/strategies': { kind: 'read' },
  'POST /api/admin/strategies': { kind: 'definition', body: { name: 'made', parameters: [] } },
  'GET /api/admin/strategies/:name': { kind: 'read', params: { name: 'default' } },
  'PUT /api/admin/strategies/:name': { kind: 'definition', params: { name: 'm-strategy' }, body: { parameters: [] } },
  'DELETE /api/admin/strategies/:name': { kind: 'definition', params: { name: 'm-doomed-strategy' } },
  'POST /api/admin/strategies/:strategyName/deprecate': { kind: 'definition', params: { strategyName: 'm-strategy' } },
  'POST /api/admin/strategies/:strategyName/reactivate': { kind: 'definition', params: { strategyName: 'm-strategy' } },
  'GET /api/admin/tags/:name': { kind: 'read', params: { name: 'simple' } },
  'GET /api/admin/features/:featureName/tags': { kind: 'read' },
  'POST /api/admin/features/:featureName/tags': { kind: 'flag', body: { value: 'made' } },
  'PUT /api/admin/features/:featureName/tags': { kind: 'flag', body: { addedTags: [{ value: 'put' }], removedTags: [] } },
  'DELETE /api/admin/features/:featureName/tags/:type/:value': { kind: 'flag', params: { type: 'simple', value: 'made' } },
  [`PUT ${P}/tags`]: { kind: 'flag', body: { features: ['m-flag'], tags: { addedTags: [{ value: 'bulk' }], removedTags: [] } } },
  [`POST ${FLAG}/dependencies`]: { kind: 'flag', body: { feature: 'm-parent' } },
  [`DELETE ${FLAG}/dependencies/:parent`]: { kind: 'flag', params: { parent: 'm-parent' } },
  [`DELETE ${FLAG}/dependencies`]: { kind: 'flag' },
  [`GET ${FLAG}/parents`]: { kind: 'read' },
  [`GET ${FLAG}/parent-variants`]: { kind: 'read' },
  [`GET ${P}/dependencies`]: { kind: 'read' },
  'GET /api/admin/state': { kind: 'admin' },
  'GET /api/admin/backup': { kind: 'admin' },
  'GET /api/admin/events': { kind: 'admin', query: '?project=matrix' },
  'GET /api/admin/roles': { kind: 'read' },
  'GET /api/admin/roles/:roleId': { kind: 'read', params: { roleId: '4' } },
  'POST /api/admin/user-admin': { kind: 'admin', body: { username: 'made' } },
  'GET /api/admin/user-admin': { kind: 'admin' },
  'GET /api/admin/user-admin/:userId': { kind: 'admin' },
  'PUT /api/admin/user-admin/:userId': { kind: 'admin', params: { userId: 'victim' }, body: { rootRole: 2 } },
  'DELETE /api/admin/user-admin/:userId': { kind: 'admin', params: { userId: 'victim' } },
  'POST /api/admin/user-admin/:userId/change-password': { kind: 'admin', body: { password: 'matrix-new-pass' } },
  'POST /api/admin/user/change-password': { kind: 'self', body: { password: 'matrix-own-pass', confirmPassword: 'matrix-own-pass' } },
  'POST /api/admin/api-tokens': { kind: 'admin', body: { tokenName: 'made', type: 'client', projects: ['matrix'] } },
  'GET /api/admin/api-tokens': { kind: 'admin' },
  'DELETE /api/admin/api-tokens/:id': { kind: 'admin', params: { id: 'victimApiToken' } },
  'POST /api/admin/user-admin/:userId/tokens': { kind: 'admin', body: { description: 'made' } },
  'GET /api/admin/user-admin/:userId/tokens': { kind: 'admin' },
  'DELETE /api/admin/user-admin/:userId/tokens/:id': { kind: 'admin', params: { id: 'outsiderToken' } },
  [`GET ${P}/access`]: { kind: 'read' },
  [`POST ${MEMBERSHIP}`]: { kind: 'project', params: { roleId: String(READER) } },
  [`PUT ${MEMBERSHIP}`]: { kind: 'project', params: { roleId: String(MEMBER) } },
  [`DELETE ${MEMBERSHIP}`]: { kind: 'project', params: { roleId: String(MEMBER) } },
  'GET /api/admin/client-metrics/features/:featureName': { kind: 'read' },
  'GET /api/admin/client-metrics/features/:featureName/raw': { kind: 'read' },
  'GET /api/admin/metrics/applications': { kind: 'read' },
  'GET /api/admin/metrics/applications/:appName': { kind: 'read', params: { appName: 'matrix-app' } },
  'POST /api/client/register': { kind: 'client', body: REGISTER },
  'POST /api/client/metrics': { kind: 'client', body: METRICS },
  'POST /api/frontend/client/register': { kind: 'frontend', body: REGISTER },
  'POST /api/frontend/client/metrics': { kind: 'frontend', body: METRICS },
  'GET /api/frontend': { kind: 'frontend', query: '?userId=1&properties[plan]=pro' },
  'POST /api/frontend': { kind: 'frontend', body: { context: { appName: 'matrix-app', userId: '1' } } },
  'POST /api/admin/playground': { kind: 'read', body: { environment: 'development', projects: ['matrix'], context: { appName: 'matrix-app', userId: '1' } } },
  'GET /api/client/features': { kind: 'client' },
  'GET /api/client/features/:featureName': { kind: 'client' },
  'GET /api/client/delta': { kind: 'client' },
  'GET /api/client/streaming': { kind: 'client', stream: true },
  'POST /ofrep/v1/evaluate/flags/:key': { kind: 'client', params: { key: 'm-flag' }, body: { context: { targetingKey: '1' } } },
  'POST /ofrep/v1/evaluate/flags': { kind: 'evaluate', body: { context: { targetingKey: '1' } } },
  'GET /ofrep/v1/events': { kind: 'evaluate', stream: true, ticket: true },
  // With METRICS_REQUIRE_TOKEN=true (set for this test); without it the route answers anyone (test/faults/metrics.test.ts).
  'GET /internal-backstage/prometheus': { kind: 'admin' },
  'POST /edge/validate': { kind: 'public', body: { tokens: ['*:development.not-a-token'] } },
  'POST /api/client/metrics/bulk': { kind: 'client', body: { applications: [{ ...REGISTER, environment: 'development' }], metrics: [] } },
  'POST /api/client/metrics/edge': { kind: 'client', body: { identifier: '01J0000000000000000000000', appName: 'unleash-edge', edgeVersion: '20.4.1' } },
};

/** One fresh data directory with a caller of every kind and the things the routes act on. */
interface World {
  h: Harness;
  tokens: Record<Caller, string>;
  /** Default path parameters; a row's `params` may name one of these keys as a value. */
  values: Record<string, string>;
}

async function buildWorld(): Promise<World> {
  const h = await harness({ METRICS_REQUIRE_TOKEN: 'true' });
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await h.json(method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };
  await ok('POST', '/api/admin/environments', { name: 'staging' });
  await createProject(h, 'matrix');
  await createProject(h, 'm-doomed-project');
  for (const name of ['m-spare', 'm-doomed-env']) await ok('POST', '/api/admin/environments', { name });
  const user = async (name: string, rootRole: number, projectRole?: number) => {
    const id = await createUser(h, { username: name, rootRole });
    if (projectRole !== undefined) for (const project of ['matrix', 'm-doomed-project']) await grant(h, project, id, projectRole);
    return id;
  };
  const ids = {
    rootAdmin: await user('root-admin', 1), editor: await user('editor', 2), viewer: await user('viewer', 3),
    owner: await user('owner', 3, OWNER), member: await user('member', 3, MEMBER), reader: await user('reader', 3, READER),
    victim: await user('victim', 3, MEMBER), outsider: await user('outsider', 3),
  };
  const client = await ok('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', projects: ['matrix'], environment: 'development' });
  const frontend = await ok('POST', '/api/admin/api-tokens', { tokenName: 'web', type: 'frontend', projects: ['matrix'], environment: 'development' });
  const victimApiToken = await ok('POST', '/api/admin/api-tokens', { tokenName: 'victim', type: 'admin' });
  const outsiderToken = await ok('POST', `/api/admin/user-admin/${ids.outsider}/tokens`, { description: 'outsider' });
  for (const name of ['m-flag', 'm-doomed', 'm-archived', 'm-parent']) await ok('POST', '/api/admin/projects/matrix/features', { name });
  await ok('DELETE', '/api/admin/projects/matrix/features/m-archived');
  await ok('POST', '/api/client/register', REGISTER);
  await h.registry.usage.flush();
  const strategy = await ok('POST', '/api/admin/projects/matrix/features/m-flag/environments/development/strategies', { name: 'default' });
  const segment = await ok('POST', '/api/admin/segments', { name: 'm-segment', constraints: [] });
  const doomedSegment = await ok('POST', '/api/admin/segments', { name: 'm-doomed-segment', constraints: [] });
  for (const name of ['m-type', 'm-doomed-type']) await ok('POST', '/api/admin/tag-types', { name });
  for (const name of ['m-field', 'm-doomed-field']) await ok('POST', '/api/admin/context', { name });
  for (const name of ['m-strategy', 'm-doomed-strategy']) await ok('POST', '/api/admin/strategies', { name });
  const [addon, doomedAddon] = [await ok('POST', '/api/admin/addons', { provider: 'slack-app', parameters: { accessToken: 'xoxb-m' } }), await ok('POST', '/api/admin/addons', { provider: 'slack-app', parameters: { accessToken: 'xoxb-d' } })];
  const tokens: Record<Caller, string> = {
    'admin token': ADMIN_TOKEN,
    'client token': client.secret,
    'frontend token': frontend.secret,
    'root Admin': await personalToken(h, ids.rootAdmin),
    'root Editor': await personalToken(h, ids.editor),
    'root Viewer': await personalToken(h, ids.viewer),
    Owner: await personalToken(h, ids.owner),
    Member: await personalToken(h, ids.member),
    Reader: await personalToken(h, ids.reader),
  };
  const values = {
    projectId: 'matrix', featureName: 'm-flag', environment: 'development', strategyId: strategy.id,
    userId: String(ids.outsider), roleId: String(READER), id: victimApiToken.id,
    victim: String(ids.victim), victimApiToken: victimApiToken.id, outsiderToken: outsiderToken.id,
    segment: String(segment.id), doomedSegment: String(doomedSegment.id), addon: String(addon.id), doomedAddon: String(doomedAddon.id),
  };
  return { h, tokens, values };
}

/** The event stream path (with its ticket) of a bulk OFREP answer for `token`; without a ticket when the caller gets none. */
async function ticketPath(h: Harness, path: string, token: string): Promise<string> {
  const bulk = await h.json('POST', '/ofrep/v1/evaluate/flags', { context: {} }, { token });
  const url = bulk.status === 200 ? (bulk.body.eventStreams?.[0]?.url as string | undefined) : undefined;
  return url ? `${path}${new URL(url).search}` : path;
}

/** A GET of a stream: its status, and its body only when it is not a 2xx (a stream is cancelled unread). */
async function statusOfStream(h: Harness, path: string, token: string): Promise<{ status: number; body: any }> {
  const res = await h.req('GET', path, undefined, { token });
  if (res.status >= 200 && res.status < 300) {
    await res.body?.cancel();
    return { status: res.status, body: null };
  }
  return { status: res.status, body: await res.json() };
}

const keyOf = (route: { method: string; path: string }) => `${route.method.toUpperCase()} ${route.path}`;

/**
 * The routes this matrix calls with an `Authorization` header. Console pages authenticate by session and the
 * sign-in routes need the browser's CSRF checks: their access is tested through the console
 * (test/console/, test/http/console-pages.test.ts); the permission each declares is in docs/permissions.md.
 */
const MATRIX_ROUTES = ROUTES.filter((route) => !route.page && route.csrf === undefined);

/** Each test gets its own world, closed after it. */
const it = test.extend<{ world: World }>({
  // vitest reads what a fixture depends on from its first parameter's destructuring: `{}` is none.
  world: async ({}, use) => {
    const world = await buildWorld();
    try {
      await use(world);
    } finally {
      await world.h.close();
    }
  },
});

describe('the permission matrix', () => {
  it('has a row for every route, and no row for a route that does not exist', () => {
    const routes = MATRIX_ROUTES.map(keyOf);
    // Nothing leaves the matrix but what signs in or is a page.
    expect(ROUTES.filter((r) => !MATRIX_ROUTES.includes(r)).every((r) => r.authentication === 'none' || r.authentication === 'session')).toBe(true);
    expect(routes.filter((k) => !(k in EXPECTED)), 'routes without a row in EXPECTED').toEqual([]);
    expect(Object.keys(EXPECTED).filter((k) => !routes.includes(k)), 'rows of EXPECTED without a route').toEqual([]);
  });

  const callers = Object.keys(MAY) as Caller[];
  describe.each(callers)('%s', (caller) => {
    it('is allowed exactly where the table says, and refused with 403 naming the permission elsewhere', async ({ world }) => {
      const outcomes: string[] = [];
      for (const route of MATRIX_ROUTES) {
        const row = EXPECTED[keyOf(route)];
        if (!row) continue;
        const used: Record<string, string> = {};
        const path = route.path.replace(/:(\w+)/g, (_m, name: string) => {
          const wanted = row.params?.[name] ?? world.values[name];
          if (wanted === undefined) throw new Error(`no value for :${name} in ${keyOf(route)}`);
          used[name] = world.values[wanted] ?? wanted;
          return encodeURIComponent(used[name]);
        });
        const streamPath = row.ticket ? await ticketPath(world.h, path, world.tokens[caller]) : path;
        const res = row.stream ? await statusOfStream(world.h, streamPath, world.tokens[caller]) : await (async () => {
          const response = await world.h.req(route.method.toUpperCase(), path + (row.query ?? ''), row.body, { token: world.tokens[caller] });
          // Every answer is JSON but the Prometheus text and the backup's newline-delimited JSON.
          const text = await response.text();
          return { status: response.status, body: response.headers.get('content-type')?.startsWith('application/json') && text !== '' ? JSON.parse(text) : text };
        })();
        const allowed = MAY[caller].includes(row.kind);
        const message = String(res.body?.message);
        const ok = allowed
          ? res.status >= 200 && res.status < 300
          : row.ticket ? res.status === 401 && res.body?.name === 'AuthenticationRequired'
          : res.status === 403 && res.body?.name === 'NoAccessError' && message.includes(route.permission)
            && (used['environment'] === undefined || message.includes(`"${used['environment']}"`));
        if (!ok) outcomes.push(`${keyOf(route)}: expected ${allowed ? '2xx' : '403'}, got ${res.status} ${JSON.stringify(res.body)}`);
      }
      expect(outcomes).toEqual([]);
    });
  });
});
