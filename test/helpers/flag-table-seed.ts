/**
 * A large project for the flag table's tests and bench (`bench/console-table.ts`), built through the real
 * code path: flags created through the project's actor in batches, then tags, stale marks, archival and
 * switches through the bulk use cases.
 */
import type { Registry } from '../../src/actors/registry.js';
import type { Principal } from '../../src/auth/permissions.js';
import { archiveFlags, markFlagsStale, toggleFlags } from '../../src/use-cases/bulk-flags.use-cases.js';
import { changeTags, createTagType } from '../../src/use-cases/tags.use-cases.js';

/** The types flags are given in turn. */
export const TYPES = ['release', 'experiment', 'operational', 'kill-switch', 'permission'] as const;
/** The words descriptions start with in turn; tag values are their lower-case forms. */
export const WORDS = ['checkout', 'search', 'billing', 'login', 'profile', 'cart', 'export', 'Banner', 'pricing', 'onboarding'];
const BATCH = 2000;
/** The principal the seed's use cases run as. */
export const ADMIN: Principal = { kind: 'admin', name: 'bench' };

/** `flag-000042`: names sort as they were made. */
export const seededName = (k: number): string => `flag-${String(k).padStart(6, '0')}`;

/**
 * Creates `count` flags in `project` through its actor, in batches (types and description words in turn),
 * then through the bulk use cases tags every 10th from the second (`team:<word>`), marks every 20th stale,
 * archives every 50th and switches every 3rd on in `development` (with its default strategy).
 */
export async function seedTable(registry: Registry, project: string, count: number): Promise<void> {
  const actor = registry.project(project)!;
  for (let from = 0; from < count; from += BATCH) {
    const sends = Array.from({ length: Math.min(BATCH, count - from) }, (_, j) => {
      const k = from + j;
      return actor.send({ type: 'flag.create', name: seededName(k), description: `${WORDS[k % WORDS.length]} flag number ${k}`, flagType: TYPES[k % TYPES.length]!, impressionData: false }, 'bench');
    });
    for (const decision of await Promise.all(sends)) if (!decision.ok) throw new Error(decision.error.message);
  }
  const every = (n: number, start = 0) => Array.from({ length: Math.ceil((count - start) / n) }, (_, i) => seededName(start + i * n));
  const expectOk = (r: { ok: boolean }) => { if (!r.ok) throw new Error(JSON.stringify(r)); };
  if (!registry.service.state.tagTypes.some((t) => t.name === 'team')) {
    expectOk(await createTagType(registry, { name: 'team', description: '', icon: null, color: null }, ADMIN));
  }
  for (let w = 0; w < WORDS.length; w += 1) {
    const features = every(10, 1).filter((_, i) => i % WORDS.length === w);
    if (features.length > 0) expectOk(await changeTags(registry, { projectId: project, features, added: [{ type: 'team', value: WORDS[w]!.toLowerCase() }], removed: [] }, ADMIN));
  }
  expectOk(await markFlagsStale(registry, { projectId: project, features: every(20), stale: true }, ADMIN));
  expectOk(await archiveFlags(registry, { projectId: project, features: every(50) }, ADMIN));
  // Switching on without a strategy adds the environment's default strategy (as the console offers to).
  expectOk(await actor.send({ type: 'default-strategy.set', environment: 'development', strategy: { name: 'default' } }, 'bench'));
  const on = every(3).filter((_, i) => (i * 3) % 50 !== 0);
  for (let i = 0; i < on.length; i += BATCH) expectOk(await toggleFlags(registry, { projectId: project, features: on.slice(i, i + BATCH), environment: 'development', enabled: true }, ADMIN));
}

