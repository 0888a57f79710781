/**
 * Seeds a running Unleash (6.x, OSS) with flags to migrate, for measuring `flagpole migrate` by hand
 * (docs/migration.md "Measured"). Everything it creates is named with the prefix (default `mg-`), so it
 * shares an Unleash with other work; it changes nothing else. Idempotent: what exists is left as it is.
 *
 *   UNLEASH_TOKEN='*:*.…' npx tsx scripts/seed-unleash.ts --url http://127.0.0.1:4243 --flags 3000
 *
 * OSS Unleash has one project (`default`), so the flags go there; tag type, context field, custom strategy,
 * segments and users carry the prefix too.
 */
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { url: { type: 'string', default: 'http://127.0.0.1:4243' }, flags: { type: 'string', default: '3000' }, prefix: { type: 'string', default: 'mg-' }, project: { type: 'string', default: 'default' }, concurrency: { type: 'string', default: '8' } } });
const base = values.url!.replace(/\/$/, '');
const token = process.env['UNLEASH_TOKEN'];
if (!token) throw new Error('set UNLEASH_TOKEN to an admin token of the Unleash');
const P = values.prefix!;
const project = values.project!;
const count = Number(values.flags);

async function call(method: string, path: string, body?: unknown, okStatuses: number[] = []): Promise<any> {
  const response = await fetch(`${base}${path}`, { method, headers: { authorization: token!, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok && !okStatuses.includes(response.status)) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** Runs `work` over `items`, `limit` at a time. */
async function pool<T>(items: T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  }));
}

const started = Date.now();
await call('POST', '/api/admin/tag-types', { name: `${P}team`, description: 'team owning the flag', icon: 'group' }, [409]);
await call('POST', '/api/admin/tag-types', { name: `${P}area`, description: 'product area' }, [409]);
await call('POST', '/api/admin/context', { name: `${P}region`, description: 'deployment region', stickiness: true, legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }, { value: 'ap', description: 'Asia Pacific' }] }, [409]);
await call('POST', '/api/admin/context', { name: `${P}plan`, description: 'subscription plan' }, [409]);
await call('POST', '/api/admin/strategies', { name: `${P}custom`, description: 'a custom strategy', parameters: [{ name: 'percent', type: 'percentage', description: 'share', required: true }, { name: 'hosts', type: 'list', description: '', required: false }] }, [409]);
const segmentIds: number[] = [];
const existing = (await call('GET', '/api/admin/segments')).segments as { id: number; name: string }[];
for (const [name, constraints] of [
  [`${P}beta-testers`, [{ contextName: 'userId', operator: 'IN', values: ['1', '2', '3'] }]],
  [`${P}europe`, [{ contextName: `${P}region`, operator: 'IN', values: ['eu'] }]],
  [`${P}new-users`, [{ contextName: 'currentTime', operator: 'DATE_AFTER', value: '2026-01-01T00:00:00.000Z' }]],
] as const) {
  const found = existing.find((s) => s.name === name);
  segmentIds.push(found ? found.id : (await call('POST', '/api/admin/segments', { name, description: `segment ${name}`, project: null, constraints })).id);
}
for (let i = 1; i <= 3; i++) {
  await call('POST', '/api/admin/user-admin', { email: `${P}user-${i}@example.com`, name: `${P}user ${i}`, rootRole: i === 1 ? 2 : 3, sendEmail: false }, [400, 409]);
}
await call('POST', '/api/admin/api-tokens', { tokenName: `${P}sdk`, type: 'client', projects: [project], environment: 'development' }, [400, 409]);

const TYPES = ['release', 'experiment', 'operational', 'kill-switch', 'permission'];
const names = Array.from({ length: count }, (_, i) => `${P}flag-${String(i).padStart(5, '0')}`);
const have = new Set(((await call('GET', `/api/admin/projects/${project}/features`)).features as { name: string }[]).map((f) => f.name));
const F = (name: string) => `/api/admin/projects/${project}/features/${name}`;
let done = 0;
await pool(names, Number(values.concurrency), async (name, i) => {
  if (have.has(name)) return;
  // 409: it exists (archived flags are not in the list above).
  const created = await call('POST', `/api/admin/projects/${project}/features`, { name, type: TYPES[i % TYPES.length], description: `seeded flag ${i}`, impressionData: i % 4 === 0 }, [409]);
  if (created?.name === 'NameExistsError') return;
  await call('POST', `${F(name)}/environments/development/strategies`, {
    name: 'flexibleRollout', title: i % 2 === 0 ? `rollout ${i}` : undefined,
    parameters: { rollout: String(i % 101), stickiness: 'default', groupId: name },
    constraints: i % 3 === 0 ? [{ contextName: `${P}region`, operator: 'IN', values: ['eu', 'us'], caseInsensitive: false, inverted: false }] : [],
    segments: i % 5 === 0 ? [segmentIds[i % segmentIds.length]] : [],
    variants: i % 7 === 0 ? [{ name: 'a', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'A' } }, { name: 'b', weight: 500, weightType: 'variable', stickiness: 'default' }] : [],
  });
  await call('POST', `${F(name)}/environments/production/strategies`, { name: 'default', constraints: [{ contextName: 'appName', operator: 'STR_STARTS_WITH', values: ['web'], caseInsensitive: true, inverted: false }], parameters: {} });
  if (i % 11 === 0) await call('POST', `${F(name)}/environments/production/strategies`, { name: 'userWithId', parameters: { userIds: '1,2,3' }, disabled: true });
  if (i % 50 === 0) await call('POST', `${F(name)}/environments/development/strategies`, { name: `${P}custom`, parameters: { percent: '30', hosts: 'a,b' } });
  if (i % 3 === 0) {
    await call('PUT', `${F(name)}/variants`, [
      { name: 'control', weight: 0, weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: '{"color":"blue"}' } },
      { name: 'treatment', weight: 0, weightType: 'variable', stickiness: 'default', overrides: [{ contextName: 'userId', values: ['7'] }] },
    ]);
  }
  if (i % 2 === 0) await call('POST', `${F(name)}/environments/development/on`);
  if (i % 3 === 0) await call('POST', `${F(name)}/environments/production/on`);
  if (i % 2 === 0) await call('POST', `/api/admin/features/${name}/tags`, { type: `${P}team`, value: `team-${i % 7}` });
  if (i % 9 === 0) await call('POST', `/api/admin/features/${name}/tags`, { type: 'simple', value: 'seeded' });
  if (i % 10 === 0) await call('POST', `/api/admin/projects/${project}/stale`, { features: [name], stale: true });
  done++;
  if (done % 250 === 0) process.stderr.write(`${done} flags\n`);
});
// Dependencies after every flag exists: every 20th flag (not the first) depends on the flag before it.
await pool(names.filter((_, i) => i % 20 === 1), Number(values.concurrency), async (name) => {
  const parent = names[names.indexOf(name) - 1]!;
  await call('POST', `${F(name)}/dependencies`, { feature: parent, enabled: true }, [400, 409]);
});
// Archived last (an archived flag takes no change): every 25th.
await pool(names.filter((_, i) => i % 25 === 24), Number(values.concurrency), async (name) => {
  await call('DELETE', F(name), undefined, [404]);
});
process.stderr.write(`seeded ${names.length} flags (${done} new) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
