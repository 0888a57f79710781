/**
 * `flagpole migrate` against a fake Unleash serving answers recorded from a real Unleash 6.10.1
 * (test/cli/fake-unleash.ts): into a data directory and into a running flagpole, a dry run, a second run that
 * changes nothing, Unleash 7 and 8, and every refusal (bad arguments exit 2; an unreachable, refusing, failing
 * or malformed Unleash exit 1), never a token printed. The command runs in the test's process through the
 * function the bin runs (`flagpoleInProcess`); the compiled bin as a child process once for each exit code
 * (0, 1, 2), its output checked for secrets. A running flagpole is a harness's app on a socket (`served`),
 * and a real `flagpole start` where only another process shows it (the lock on its data directory).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, onTestFinished } from 'vitest';
import { test } from '../helpers/fixtures.js';
import { ADMIN_TOKEN, type Harness } from '../helpers/harness.js';
import { freePort } from '../helpers/net.js';
import { fakeUnleash, forVersion, recordedAnswers, UNLEASH_TOKEN, type Answers, type Fault } from './fake-unleash.js';
import { call, flagpole, flagpoleInProcess, served, startFlagpole, type Ran } from './run-flagpole.js';
import { CHILD_PROCESS_TEST_MS } from '../helpers/wait.js';
import { dumpDataDir, stableStringify } from '../../src/tools/dump.js';

/** A fake Unleash closed after the test. */
async function unleash(answers?: Answers, faults?: Fault[]) {
  const fake = await fakeUnleash(answers, faults);
  onTestFinished(() => fake.close());
  return fake;
}

/** `flagpole migrate args` in the test's process. */
const migrate = (args: string[], env: Record<string, string> = { UNLEASH_TOKEN }): Promise<Ran> => flagpoleInProcess(['migrate', ...args], { env });

/** `flagpole migrate args`, the compiled bin as a process of its own. */
const migrateBin = (args: string[], env: Record<string, string> = { UNLEASH_TOKEN }): Promise<Ran> => flagpole(['migrate', ...args], { env });

/** A flagpole on a socket for `--to` (a harness's app, request lines logged), closed after the test. */
async function runningFlagpole(openHarnessOverTempDir: (env?: Record<string, string>) => Promise<Harness>): Promise<{ base: string; h: Harness }> {
  const h = await openHarnessOverTempDir({ LOG_LEVEL: 'info' });
  return { base: await served(h), h };
}

/** The summary table's row of `kind` as numbers: found, created, updated, unchanged, skipped, failed. */
function row(out: string, kind: string): number[] {
  const line = out.split('\n').find((l) => l.startsWith(`${kind}  `) || l.startsWith(`${kind} `));
  expect(line, `row ${kind} in\n${out}`).toBeDefined();
  return line!.slice(kind.length).trim().split(/\s+/).map(Number);
}

/** No secret anywhere in what the command printed. */
function expectNoSecret(ran: Ran): void {
  for (const secret of [UNLEASH_TOKEN, ADMIN_TOKEN, 'unleash-bench-token']) expect(ran.stdout + ran.stderr).not.toContain(secret);
}

/**
 * The dump of a data directory (the service and the command stopped) as `flagpole dump` prints it, made here by
 * the same code (`src/tools/dump.ts`): what a migration wrote is read, not the dump command run again (a process
 * of its own costs ~0.5 s of CPU; test/snapshots/dump-restore.test.ts runs the command).
 */
async function dumpText(dataDir: string): Promise<string> {
  return `${stableStringify(await dumpDataDir(dataDir))}\n`;
}

/** The dump of a data directory, parsed. */
async function dumpOf(dataDir: string): Promise<any> {
  return JSON.parse(await dumpText(dataDir));
}

/** A flag without what the target assigns (strategy ids, archive time). */
/** A flag without what flagpole alone keeps: ids, when it was archived, its lifecycle stages (not carried from Unleash). */
const canonicalFlag = (flag: any) => JSON.parse(JSON.stringify(flag, (key, value) => (key === 'id' || key === 'archivedAt' || key === 'stages' ? undefined : value)));

const flagOf = (dump: any, name: string) => dump.projects.find((p: any) => p.id === 'default').flags.find((f: any) => f.name === name);

/** What the recorded Unleash holds, checked in a migrated dump. */
function expectMigrated(dump: any, archivedType = 'permission'): void {
  const state = dump.service.state;
  expect(state.environments.map((e: any) => e.name)).toEqual(expect.arrayContaining(['default', 'development', 'production']));
  expect(state.tagTypes.find((t: any) => t.name === 'mg-team')).toMatchObject({ description: 'team owning the flag', icon: 'group' });
  expect(state.contextFields.find((f: any) => f.name === 'mg-region')).toMatchObject({ stickiness: true, legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }, { value: 'ap', description: 'Asia Pacific' }] });
  expect(state.strategyDefinitions.find((d: any) => d.name === 'mg-custom')).toMatchObject({ editable: true, parameters: [{ name: 'percent', type: 'percentage', required: true }, { name: 'hosts', type: 'list', required: false }] });
  const segments = Object.values(state.segments) as any[];
  const beta = segments.find((s) => s.name === 'mg-beta-testers');
  expect(beta.constraints).toEqual([{ contextName: 'userId', operator: 'IN', values: ['1', '2', '3'], caseInsensitive: false, inverted: false }]);
  expect((Object.values(state.users) as any[]).map((u) => u.email)).toEqual(expect.arrayContaining(['mg-user-1@example.com', 'mg-user-2@example.com', 'mg-user-3@example.com']));
  expect((Object.values(state.users) as any[]).find((u) => u.email === 'mg-user-1@example.com').rootRole).toBe(2);

  const zero = flagOf(dump, 'mg-flag-00000');
  expect(zero).toMatchObject({ type: 'release', description: 'seeded flag 0', stale: true, impressionData: true, archived: false });
  const dev = zero.environments.development;
  expect(dev.enabled).toBe(true);
  // The Unleash's sort order: the rollout first, then the custom strategy.
  expect(dev.strategies.map((s: any) => [s.name, s.sortOrder])).toEqual([['flexibleRollout', 0], ['mg-custom', 1]]);
  expect(dev.strategies[0]).toMatchObject({
    title: 'rollout 0', disabled: false, parameters: { groupId: 'mg-flag-00000', rollout: '0', stickiness: 'default' },
    constraints: [{ contextName: 'mg-region', operator: 'IN', values: ['eu', 'us'], caseInsensitive: false, inverted: false }],
    segments: [beta.id], variants: [{ name: 'a', weight: 500, weightType: 'variable', payload: { type: 'string', value: 'A' } }, { name: 'b', weight: 500 }],
  });
  const prod = zero.environments.production;
  expect(prod.strategies.map((s: any) => [s.name, s.disabled])).toEqual([['default', false], ['userWithId', true]]);
  expect(prod.strategies[0].constraints[0]).toMatchObject({ operator: 'STR_STARTS_WITH', caseInsensitive: true, values: ['web'] });
  expect(zero.variants.map((v: any) => [v.name, v.weight])).toEqual([['control', 500], ['treatment', 500]]);
  expect(zero.variants[1].overrides).toEqual([{ contextName: 'userId', values: ['7'] }]);
  expect(zero.tags).toEqual(expect.arrayContaining([{ type: 'mg-team', value: 'team-0' }, { type: 'simple', value: 'seeded' }]));
  expect(flagOf(dump, 'mg-flag-00001').dependencies).toMatchObject([{ feature: 'mg-flag-00000', enabled: true }]);
  expect(flagOf(dump, 'mg-flag-00001').environments.development.enabled).toBe(false);
  expect(flagOf(dump, 'mg-flag-00024')).toMatchObject({ archived: true, type: archivedType });
  expect(flagOf(dump, 'mg-flag-00024').environments.production.strategies.map((s: any) => s.name)).toEqual(['default']);
}


/**
 * The recorded answers with more to carry: a disabled `mg-staging` environment (type staging, sort order 5)
 * that a second project `mg-proj` (mode private, sticky on sessionId, no flags) has, and the `default`
 * project in mode protected, sticky on userId. The recorded `default` environment is off (Unleash 6's).
 */
function withEnvironmentsAndProjects(answers: Answers = recordedAnswers()): Answers {
  (answers['GET /api/admin/environments']!.body as any).environments.push({ name: 'mg-staging', type: 'staging', sortOrder: 5, enabled: false, protected: false });
  (answers['GET /api/admin/projects']!.body as any).projects.push({ id: 'mg-proj', name: 'MG project', description: 'moved with its settings', mode: 'private', archivedAt: null });
  Object.assign(answers['GET /api/admin/projects/default/overview']!.body as any, { mode: 'protected', defaultStickiness: 'userId' });
  answers['GET /api/admin/projects/mg-proj/overview'] = { status: 200, body: {
    name: 'MG project', description: 'moved with its settings', mode: 'private', defaultStickiness: 'sessionId',
    environments: [{ environment: 'production' }, { environment: 'mg-staging' }],
  } };
  answers['GET /api/admin/projects/mg-proj/features'] = { status: 200, body: { version: 2, features: [] } };
  answers['GET /api/admin/search/features?project=IS:mg-proj&archived=IS:true&offset=0&limit=100'] = { status: 200, body: { features: [], total: 0 } };
  return answers;
}

/** What `withEnvironmentsAndProjects` holds, checked in a target's dump. */
function expectEnvironmentsAndProjects(dump: any): void {
  const environments = Object.fromEntries(dump.service.state.environments.map((e: any) => [e.name, [e.type, e.sortOrder, e.enabled]]));
  expect(environments).toEqual({
    default: ['production', 1, false], development: ['development', 2, true], production: ['production', 3, true], 'mg-staging': ['staging', 5, false],
  });
  const meta = (id: string) => dump.projects.find((p: any) => p.id === id).meta;
  expect(meta('default')).toMatchObject({ mode: 'protected', defaultStickiness: 'userId' });
  expect(meta('mg-proj')).toMatchObject({ name: 'MG project', description: 'moved with its settings', mode: 'private', defaultStickiness: 'sessionId' });
  expect([...meta('mg-proj').environments].sort()).toEqual(['mg-staging', 'production']);
}

// Some tests run the command as child processes: long on a loaded machine.
describe('flagpole migrate', { timeout: CHILD_PROCESS_TEST_MS }, () => {
  test('into a data directory: everything moves, tokens are listed to re-create, and a second run changes nothing', async ({ tempDir }) => {
    const fake = await unleash();
    const dir = join(tempDir('mg-data'), 'data');
    // The bin as a process: its argv, its exit code 0, its output streams without a secret.
    const first = await migrateBin(['--from', fake.url, '--data-dir', dir]);
    expect(first.code, first.stderr + first.stdout).toBe(0);
    expect(first.stderr).toMatch(/^read Unleash 6\.10\.1 at http:\/\/127\.0\.0\.1:\d+: 1 projects, \d+ flags \(\d+ archived\), \d+ segments, \d+ users, 2 API tokens, 0 addons\n/);
    const flags = row(first.stdout, 'flags');
    expect(flags[0]).toBeGreaterThanOrEqual(30);
    expect(flags.slice(1)).toEqual([flags[0], 0, 0, 0, 0]);
    expect(row(first.stdout, 'segments')[1]).toBeGreaterThanOrEqual(3);
    expect(row(first.stdout, 'project roles')).toEqual([1, 0, 0, 0, 1, 0]);
    expect(first.stdout).toContain('this Unleash has no project access API (open source)');
    expect(row(first.stdout, 'api tokens')).toEqual([2, 0, 0, 0, 2, 0]);
    expect(first.stdout).toContain('"mg-sdk" type client, projects default, environment development');
    expectNoSecret(first);
    const before = await dumpText(dir);
    expectMigrated(JSON.parse(before));

    const second = await migrate(['--from', fake.url, '--data-dir', dir]);
    expect(second.code, second.stdout).toBe(0);
    for (const kind of ['environments', 'tag types', 'context fields', 'strategy definitions', 'projects', 'segments', 'users', 'flags', 'dependencies']) {
      const [found, created, updated, unchanged, , failed] = row(second.stdout, kind);
      expect([kind, created, updated, failed, unchanged]).toEqual([kind, 0, 0, 0, found]);
    }
    // Nothing written: the dump (log positions included) is the same.
    expect(await dumpText(dir)).toBe(before);
  });

  test('addons: created with the secrets --addon-secrets gives, the others skipped with the reason; a second run changes nothing', async ({ tempDir }) => {
    const answers = recordedAnswers();
    const addon = (id: number, provider: string, parameters: Record<string, string>) => ({ id, provider, description: `addon ${id}`, enabled: true, parameters, events: ['feature-created'], projects: [], environments: ['production'], createdAt: '2026-11-28T00:00:00.000Z' });
    answers['GET /api/admin/addons'] = { status: 200, body: { providers: [], addons: [
      addon(3, 'webhook', { url: '*****', authorization: '*****', contentType: 'application/json' }),
      addon(4, 'slack-app', { accessToken: '*****', defaultChannels: 'ops' }),
      addon(5, 'slack', { url: '*****', defaultChannel: 'ops' }),
      addon(6, 'servicenow', { url: '*****' }),
    ] } };
    const fake = await unleash(answers);
    const dir = join(tempDir('mg-addons'), 'data');
    const secretsFile = join(tempDir('mg-secrets'), 'secrets.json');
    const { writeFileSync } = await import('node:fs');
    // A receiver on the machine: the data directory is checked as the service checks it, with its allow-list.
    writeFileSync(secretsFile, JSON.stringify({ 3: { url: 'http://127.0.0.1:9/hooks/T0/B1/xyz-secret', authorization: 'Bearer migrated-secret' } }));
    const env = { UNLEASH_TOKEN, UNLEASH_ALLOW_LIST_INTEGRATION: '127.0.0.1' };
    const first = await migrate(['--from', fake.url, '--data-dir', dir, '--addon-secrets', secretsFile], env);
    expect(first.code, first.stderr + first.stdout).toBe(0);
    expect(row(first.stdout, 'addons')).toEqual([4, 1, 0, 0, 3, 0]);
    expect(first.stdout).toContain('addons #4 (slack-app: addon 4): skipped: Unleash\'s API masks its secrets (accessToken): give them with --addon-secrets FILE, {"4": {"accessToken": "..."}}');
    expect(first.stdout).toContain('addons #5 (slack: addon 5): skipped: "slack" is deprecated');
    expect(first.stdout).toContain('addons #6 (servicenow: addon 6): skipped: flagpole has no "servicenow" integration');
    for (const secret of ['xyz-secret', 'migrated-secret']) expect(first.stdout + first.stderr).not.toContain(secret);
    const dump = await dumpOf(dir);
    expect(Object.values(dump.service.state.addons)).toEqual([expect.objectContaining({
      provider: 'webhook', description: 'addon 3', environments: ['production'], parameters: { url: '*****', authorization: '*****', contentType: 'application/json' },
    })]);
    const second = await migrate(['--from', fake.url, '--data-dir', dir, '--addon-secrets', secretsFile], env);
    expect(row(second.stdout, 'addons')).toEqual([4, 0, 0, 1, 3, 0]);
    const bad = await migrate(['--from', fake.url, '--data-dir', dir, '--addon-secrets', join(dir, 'missing.json')]);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('cannot read --addon-secrets')]);
  }, 90_000);

  test('--dry-run prints the plan and writes nothing; against a migrated directory it has nothing to do', async ({ tempDir }) => {
    const fake = await unleash();
    const dir = join(tempDir('mg-dry'), 'data');
    const dry = await migrate(['--from', fake.url, '--data-dir', dir, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`dry run: nothing was written to ${dir}; it would do:`);
    expect(dry.stdout).toMatch(/\+ flags default\/mg-flag-00000: \d+ requests/);
    expect(dry.stdout).toContain('+ segments mg-beta-testers: 1 request');
    expect(row(dry.stdout, 'flags')[1]).toBeGreaterThanOrEqual(30);
    expect(existsSync(dir)).toBe(false);

    expect((await migrate(['--from', fake.url, '--data-dir', dir])).code).toBe(0);
    const before = await dumpText(dir);
    const again = await migrate(['--from', fake.url, '--data-dir', dir, '--dry-run']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing: the target holds all of it already');
    expect(await dumpText(dir)).toBe(before);
    // Only reads reached the Unleash.
    expect(fake.seen.every((r) => r.startsWith('GET ') || r.startsWith('POST /api/admin/features-batch/export'))).toBe(true);
  });

  test('into a running flagpole (--to): the same result, through its admin API; a second run changes nothing', async ({ openHarnessOverTempDir }) => {
    const fake = await unleash();
    const service = await runningFlagpole(openHarnessOverTempDir);
    const env = { UNLEASH_TOKEN, FLAGPOLE_TOKEN: ADMIN_TOKEN };
    const first = await migrate(['--from', fake.url, '--to', service.base], env);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expectNoSecret(first);
    const state = await call(service.base, 'GET', '/api/admin/state');
    expectMigrated(state.body);
    const second = await migrate(['--from', fake.url, '--to', service.base], env);
    expect(second.code).toBe(0);
    expect(row(second.stdout, 'flags').slice(1, 3)).toEqual([0, 0]);
    expect((await call(service.base, 'GET', '/api/admin/state')).body).toEqual(state.body);
    expect(service.h.logs().length).toBeGreaterThan(0);
    expect(JSON.stringify(service.h.logs())).not.toContain(UNLEASH_TOKEN);
    // A wrong flagpole token: refused, said, exit 1.
    const refused = await migrate(['--from', fake.url, '--to', service.base], { UNLEASH_TOKEN, FLAGPOLE_TOKEN: '*:*.wrong' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the flagpole refused the token (401)');
    expectNoSecret(refused);
  });

  test('changes made in flagpole after a migration are brought back to the Unleash\'s state, and then nothing changes', async ({ openHarnessOverTempDir }) => {
    const fake = await unleash();
    const service = await runningFlagpole(openHarnessOverTempDir);
    const env = { UNLEASH_TOKEN, FLAGPOLE_TOKEN: ADMIN_TOKEN };
    expect((await migrate(['--from', fake.url, '--to', service.base], env)).code).toBe(0);
    const migrated = (await call(service.base, 'GET', '/api/admin/state')).body;
    const F = '/api/admin/projects/default/features';
    const dev = flagOf(migrated, 'mg-flag-00000').environments.development.strategies;
    // Drift: a strategy changed and one deleted, variants, tags, metadata, on/off, an archived flag revived and an active one archived.
    const drift: [string, string, unknown?][] = [
      ['PUT', `${F}/mg-flag-00000/environments/development/strategies/${dev[0].id}`, { name: 'flexibleRollout', parameters: { rollout: '99', stickiness: 'default', groupId: 'x' } }],
      ['DELETE', `${F}/mg-flag-00000/environments/development/strategies/${dev[1].id}`],
      ['PUT', `${F}/mg-flag-00000/variants`, [{ name: 'only', weightType: 'variable', weight: 1000 }]],
      ['PUT', '/api/admin/features/mg-flag-00000/tags', { addedTags: [{ type: 'simple', value: 'drift' }], removedTags: [{ type: 'mg-team', value: 'team-0' }] }],
      ['PUT', `${F}/mg-flag-00002`, { name: 'mg-flag-00002', description: 'changed', type: 'operational', stale: true }],
      ['POST', `${F}/mg-flag-00002/environments/development/off`],
      ['POST', '/api/admin/projects/default/revive', { features: ['mg-flag-00024'] }],
      ['DELETE', `${F}/mg-flag-00003`],
      ['DELETE', `${F}/mg-flag-00001/dependencies`],
    ];
    for (const [method, path, body] of drift) {
      const answer = await call(service.base, method, path, body);
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
    }
    const back = await migrate(['--from', fake.url, '--to', service.base], env);
    expect(back.code, back.stdout).toBe(0);
    const [, created, updated, , , failed] = row(back.stdout, 'flags');
    expect([created, updated, failed]).toEqual([0, 4, 0]);
    expect(back.stdout).toMatch(/flags default\/mg-flag-00002: metadata; on in development/);
    expect(back.stdout).toMatch(/flags default\/mg-flag-00000: strategies in development; variants; tags/);
    expect(back.stdout).toMatch(/flags default\/mg-flag-00003: revived/);
    expect(row(back.stdout, 'dependencies').slice(1, 3)).toEqual([1, 0]);
    const restored = (await call(service.base, 'GET', '/api/admin/state')).body;
    expectMigrated(restored);
    for (const name of ['mg-flag-00002', 'mg-flag-00003']) {
      const { version: _a, ...now } = flagOf(restored, name);
      const { version: _b, ...before } = flagOf(migrated, name);
      expect(canonicalFlag(now)).toEqual(canonicalFlag(before));
    }
    const third = await migrate(['--from', fake.url, '--to', service.base], env);
    expect(row(third.stdout, 'flags').slice(1, 3)).toEqual([0, 0]);
    expect(row(third.stdout, 'dependencies').slice(1, 3)).toEqual([0, 0]);
  });

  for (const version of ['7.4.1', '8.2.0']) {
    test(`reads Unleash ${version} (variants per environment, no flag-level variants route) and says so`, async ({ tempDir }) => {
      const fake = await unleash(forVersion(recordedAnswers(), version));
      const dir = join(tempDir('mg-v'), 'data');
      const ran = await migrate(['--from', fake.url, '--data-dir', dir]);
      expect(ran.code, ran.stderr + ran.stdout).toBe(0);
      expect(ran.stderr).toContain(`read Unleash ${version} at`);
      expect(fake.seen.some((r) => r.endsWith('/variants'))).toBe(false);
      const dump = await dumpOf(dir);
      // 8.x: the sunset flag type moves as it is.
      expectMigrated(dump, version.startsWith('8.') ? 'sunset' : 'permission');
      // 7.4+: a project's own context field is read (`?include=project`) and held service-wide.
      expect(dump.service.state.contextFields.find((f: any) => f.name === 'mg-tenant')).toMatchObject({ legalValues: [{ value: 'acme' }] });
      const again = await migrate(['--from', fake.url, '--data-dir', dir]);
      expect(again.code, again.stdout).toBe(0);
      expect(row(again.stdout, 'flags').slice(1, 3)).toEqual([0, 0]);
    });
  }

  test('variants that differ per environment (Unleash 7+): the first environment\'s list is taken and the flag named', async ({ tempDir }) => {
    const answers = forVersion(recordedAnswers(), '7.4.1');
    const production = Object.keys(answers).find((k) => k.startsWith('POST /api/admin/features-batch/export') && k.includes('"mg-flag-00003"') && k.endsWith('"environment":"production"}'))!;
    const entry = (answers[production]!.body as any).featureEnvironments.find((e: any) => e.featureName === 'mg-flag-00003');
    entry.variants = [{ name: 'prod-only', weight: 1000, weightType: 'variable', stickiness: 'default' }];
    const fake = await unleash(answers);
    const dir = join(tempDir('mg-variants'), 'data');
    const ran = await migrate(['--from', fake.url, '--data-dir', dir]);
    expect(ran.code, ran.stdout).toBe(0);
    expect(ran.stdout).toContain("flags default/mg-flag-00003: variants differ per environment; flagpole holds one list: took development's");
    expect(flagOf(await dumpOf(dir), 'mg-flag-00003').variants.map((v: any) => v.name)).toEqual(['control', 'treatment']);
    const again = await migrate(['--from', fake.url, '--data-dir', dir]);
    expect(row(again.stdout, 'flags').slice(1, 3)).toEqual([0, 0]);
  });

  test('a project\'s default strategies, with a segment, move and stay unchanged after', async ({ tempDir }) => {
    const answers = recordedAnswers();
    const overview = answers['GET /api/admin/projects/default/overview']!.body as any;
    const segmentId = (answers['GET /api/admin/segments']!.body as any).segments.find((s: any) => s.name === 'mg-europe').id;
    overview.environments = [
      { environment: 'development', defaultStrategy: { name: 'flexibleRollout', parameters: { rollout: '25', stickiness: 'default', groupId: '' }, constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }], segments: [segmentId] } },
      { environment: 'production' },
    ];
    const fake = await unleash(answers);
    const dir = join(tempDir('mg-default-strategy'), 'data');
    const ran = await migrate(['--from', fake.url, '--data-dir', dir]);
    expect(ran.code, ran.stdout).toBe(0);
    expect(row(ran.stdout, 'default strategies')).toEqual([1, 1, 0, 0, 0, 0]);
    const dump = await dumpOf(dir);
    const europe = (Object.values(dump.service.state.segments) as any[]).find((s) => s.name === 'mg-europe');
    expect(dump.projects.find((p: any) => p.id === 'default').meta.defaultStrategies.development).toMatchObject({
      name: 'flexibleRollout', parameters: { rollout: '25' }, segments: [europe.id], constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }],
    });
    const again = await migrate(['--from', fake.url, '--data-dir', dir]);
    expect(row(again.stdout, 'default strategies')).toEqual([1, 0, 0, 1, 0, 0]);
  });

  test('project roles where the Unleash has the access route (Enterprise): Owner, Member, Reader granted by name, a custom role skipped', async ({ tempDir }) => {
    const answers = recordedAnswers();
    answers['GET /api/admin/projects/default/access'] = { status: 200, body: {
      roles: [{ id: 4, name: 'Owner' }, { id: 5, name: 'Member' }, { id: 21, name: 'Release manager' }],
      users: [{ id: 3, roles: [5] }, { id: 4, roles: [21] }], groups: [],
    } };
    const fake = await unleash(answers);
    const dir = join(tempDir('mg-roles'), 'data');
    const ran = await migrate(['--from', fake.url, '--data-dir', dir]);
    expect(ran.code, ran.stdout).toBe(0);
    expect(row(ran.stdout, 'project roles')).toEqual([2, 1, 0, 0, 1, 0]);
    expect(ran.stdout).toContain('project roles default/mg-user-3@example.com: skipped: custom project role "Release manager"');
    const dump = await dumpOf(dir);
    const user2 = (Object.values(dump.service.state.users) as any[]).find((u) => u.email === 'mg-user-2@example.com');
    expect(dump.projects.find((p: any) => p.id === 'default').meta.members[String(user2.id)]).toBe(5);
    const again = await migrate(['--from', fake.url, '--data-dir', dir]);
    expect(row(again.stdout, 'project roles')).toEqual([2, 0, 0, 1, 1, 0]);
  });

  test('environments (type, sort order, on/off) and project mode and stickiness: a dry run lists them, they move, a second run changes nothing', async ({ tempDir }) => {
    const fake = await unleash(withEnvironmentsAndProjects());
    const dir = join(tempDir('mg-envs'), 'data');
    const dry = await migrate(['--from', fake.url, '--data-dir', dir, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('+ environments default (type production, sort order 1, off): 2 requests');
    expect(dry.stdout).toContain('+ environments mg-staging (type staging, sort order 5, off): 2 requests');
    expect(dry.stdout).toContain('~ environments development (sort order 1 → 2): 1 request');
    expect(dry.stdout).toContain('~ environments production (sort order 2 → 3): 1 request');
    expect(dry.stdout).toContain('+ projects mg-proj: 2 requests');
    expect(dry.stdout).toMatch(/~ projects default \(name, description, mode, defaultStickiness\): 1 request/);
    expect(existsSync(dir)).toBe(false);

    const first = await migrate(['--from', fake.url, '--data-dir', dir]);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(row(first.stdout, 'environments')).toEqual([4, 2, 2, 0, 0, 0]);
    expect(row(first.stdout, 'projects')).toEqual([2, 1, 1, 0, 0, 0]);
    const before = await dumpText(dir);
    const dump = JSON.parse(before);
    expectEnvironmentsAndProjects(dump);
    expectMigrated(dump);
    // Migrate never connects an environment twice (409): only reads, creates and the connections it lacked.
    expect(first.stdout).not.toMatch(/^failed \(/m);

    const second = await migrate(['--from', fake.url, '--data-dir', dir]);
    expect(second.code, second.stdout).toBe(0);
    expect(row(second.stdout, 'environments')).toEqual([4, 0, 0, 4, 0, 0]);
    expect(row(second.stdout, 'projects')).toEqual([2, 0, 0, 2, 0, 0]);
    expect(await dumpText(dir)).toBe(before);
    const again = await migrate(['--from', fake.url, '--data-dir', dir, '--dry-run']);
    expect(again.stdout).toContain('nothing: the target holds all of it already');
  });

  test('environments and projects changed in flagpole after a migration are brought back (an environment off in both that a project lost is turned on to connect it, then off), then nothing changes', async ({ openHarnessOverTempDir }) => {
    const fake = await unleash(withEnvironmentsAndProjects());
    const service = await runningFlagpole(openHarnessOverTempDir);
    const env = { UNLEASH_TOKEN, FLAGPOLE_TOKEN: ADMIN_TOKEN };
    expect((await migrate(['--from', fake.url, '--to', service.base], env)).code).toBe(0);
    const migrated = (await call(service.base, 'GET', '/api/admin/state')).body;
    expectEnvironmentsAndProjects(migrated);
    const drift: [string, string, unknown?][] = [
      ['PUT', '/api/admin/environments/update/production', { type: 'development' }],
      ['PUT', '/api/admin/environments/sort-order', { development: 9 }],
      ['POST', '/api/admin/environments/default/on'],
      ['DELETE', '/api/admin/projects/mg-proj/environments/mg-staging'],
      ['PUT', '/api/admin/projects/mg-proj', { name: 'renamed', mode: 'open', defaultStickiness: 'default' }],
    ];
    for (const [method, path, body] of drift) {
      const answer = await call(service.base, method, path, body);
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
    }
    const back = await migrate(['--from', fake.url, '--to', service.base], env);
    expect(back.code, back.stdout + back.stderr).toBe(0);
    expect(row(back.stdout, 'environments')).toEqual([4, 0, 4, 0, 0, 0]);
    expect(row(back.stdout, 'projects')).toEqual([2, 0, 1, 1, 0, 0]);
    const restored = (await call(service.base, 'GET', '/api/admin/state')).body;
    expectEnvironmentsAndProjects(restored);
    expect(restored.service.state.environments).toEqual(migrated.service.state.environments);
    const third = await migrate(['--from', fake.url, '--to', service.base], env);
    expect(third.code).toBe(0);
    for (const kind of ['environments', 'projects', 'flags']) {
      const [found, created, updated, unchanged, , failed] = row(third.stdout, kind);
      expect([kind, created, updated, failed, unchanged]).toEqual([kind, 0, 0, 0, found]);
    }
  });

  test('the command line: a bad URL, no token, no target or two targets are usage errors (exit 2) and touch nothing', async ({ tempDir }) => {
    const dir = join(tempDir('mg-usage'), 'data');
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['--from', 'ftp://x', '--data-dir', dir], { UNLEASH_TOKEN }, /--from <url>' must be an http/],
      [['--from', 'http://u:secret-pass@127.0.0.1:1', '--data-dir', dir], { UNLEASH_TOKEN }, /must not hold a user or password/],
      [['--from', 'http://127.0.0.1:1', '--data-dir', dir], {}, /admin token is missing/],
      [['--from', 'http://127.0.0.1:1'], { UNLEASH_TOKEN }, /give the target/],
      [['--from', 'http://127.0.0.1:1', '--data-dir', dir, '--to', 'http://127.0.0.1:2'], { UNLEASH_TOKEN }, /cannot be used with/],
      [['--from', 'http://127.0.0.1:1', '--to', 'http://127.0.0.1:2'], { UNLEASH_TOKEN }, /flagpole's admin token is missing/],
      [['--from', 'http://127.0.0.1:1', '--data-dir', dir, '--timeout', '0'], { UNLEASH_TOKEN }, /whole number of seconds/],
    ];
    // Independent runs: side by side. The one with a password in its URL through the bin as a process: exit 2,
    // and the password on neither of its output streams.
    const runs = await Promise.all(cases.map(([args, env], i) => (i === 1 ? migrateBin : migrate)(args, env)));
    for (const [i, [args, , message]] of cases.entries()) {
      const ran = runs[i]!;
      expect([args.join(' '), ran.code]).toEqual([args.join(' '), 2]);
      expect(ran.stderr).toMatch(message);
      expect(ran.stderr).not.toContain('secret-pass');
      expectNoSecret(ran);
    }
    expect(existsSync(dir)).toBe(false);
  });

  test('a wrong token, an unreachable Unleash, a 500, a malformed or non-JSON answer, an unsupported version: a clear message, exit 1, nothing written', async ({ tempDir }) => {
    const port = await freePort();
    const broken = (faults: Fault[]) => unleash(recordedAnswers(), faults);
    const cases: [string, Record<string, string>, RegExp][] = [
      [(await unleash()).url, { UNLEASH_TOKEN: '*:*.not-the-token' }, /the Unleash refused the token \(401\) on GET \/api\/admin\/ui-config/],
      [`http://127.0.0.1:${port}`, { UNLEASH_TOKEN }, /cannot reach the Unleash at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/],
      [(await broken([{ prefix: 'POST /api/admin/features-batch/export', status: 500, body: { name: 'InternalError', message: 'db down' } }])).url, { UNLEASH_TOKEN }, /the Unleash failed on POST \/api\/admin\/features-batch\/export \(500: db down\)/],
      [(await broken([{ prefix: 'GET /api/admin/segments', status: 200, body: { segments: [{ id: 'x', name: 3 }] } }])).url, { UNLEASH_TOKEN }, /answer to \/api\/admin\/segments is not what migrate reads: segments\.0\.id/],
      [(await broken([{ prefix: 'GET /api/admin/projects', status: 200, raw: '<html>login</html>' }])).url, { UNLEASH_TOKEN }, /answer to GET \/api\/admin\/projects is not JSON/],
      [(await broken([{ prefix: 'GET /api/admin/ui-config', status: 200, body: { version: '5.12.0' } }])).url, { UNLEASH_TOKEN }, /the Unleash is version 5\.12\.0: migrate reads Unleash 6\.x, 7\.x and 8\.x/],
      [(await broken([{ prefix: 'GET /api/admin/tag-types', status: 404, body: {} }])).url, { UNLEASH_TOKEN }, /the Unleash has no \/api\/admin\/tag-types \(404\)/],
      [(await broken([{ prefix: 'GET /api/admin/segments', status: 200, raw: '{"segments":[', contentLength: 300 * 1024 * 1024 }])).url, { UNLEASH_TOKEN }, /the Unleash's answer to GET \/api\/admin\/segments is larger than 268435456 bytes/],
      [(await broken([{ prefix: 'GET /api/admin/environments', status: 200, raw: '{"environments":[', contentLength: 1000 }])).url, { UNLEASH_TOKEN }, /the Unleash's answer to GET \/api\/admin\/environments broke off/],
    ];
    // Independent runs, each into a directory of its own: side by side.
    const dirs = cases.map(() => join(tempDir('mg-fail'), 'data'));
    // The refused token through the bin as a process: exit 1, no token on its output streams.
    const runs = await Promise.all(cases.map(([url, env], i) => (i === 0 ? migrateBin : migrate)(['--from', url, '--data-dir', dirs[i]!], env)));
    for (const [i, [, , message]] of cases.entries()) {
      const [ran, dir] = [runs[i]!, dirs[i]!];
      expect([message.source, ran.code]).toEqual([message.source, 1]);
      expect(ran.stderr).toMatch(message);
      expect(ran.stderr).not.toMatch(/\n\s+at /);
      expectNoSecret(ran);
      expect(existsSync(dir)).toBe(false);
    }
  });

  test('a data directory a running flagpole holds is refused with the reason; a write the target refuses fails its step, exit 1', async ({ tempDir }) => {
    const fake = await unleash();
    const dir = tempDir('mg-locked');
    const service = await startFlagpole(dir);
    onTestFinished(async () => void (await service.stop()));
    const locked = await migrate(['--from', fake.url, '--data-dir', dir]);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toContain(`cannot open the data directory ${dir}`);

    // A segment limit of 1: the others are refused by flagpole; the migration goes on and says which failed.
    const limited = join(tempDir('mg-limit'), 'data');
    const ran = await migrate(['--from', fake.url, '--data-dir', limited], { UNLEASH_TOKEN, LIMIT_SEGMENTS: '1' });
    expect(ran.code).toBe(1);
    expect(row(ran.stdout, 'segments')[5]).toBeGreaterThanOrEqual(2);
    expect(ran.stdout).toMatch(/failed \(\d+\):\n {2}segments \S+: POST \/api\/admin\/segments answered 400: /);
    expect(row(ran.stdout, 'tag types')[5]).toBe(0);
  });
});
