/**
 * The frontend API, the playground and the engine agree: for random contexts (seeded, so a failure repeats),
 * the toggles `/api/frontend` answers are exactly the flags the playground calls enabled, with the same
 * variants, and both equal `evaluate` over flags compiled straight from the stored definitions.
 */
import { expect } from 'vitest';
import { compileFlags, evaluate, flagDefinition } from '../../../src/domain/evaluation/index.js';
import { harnessTest } from '../../helpers/fixtures.js';
import { addStrategy, createFlag, switchOn } from '../../helpers/flags.js';
import type { Harness } from '../../helpers/harness.js';
import { buildWorld, frontendToken, putVariants, togglesOf, type Toggle } from './frontend-fixtures.js';

/** A small seeded generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function arrange(h: Harness): Promise<void> {
  await buildWorld(h);
  await createFlag(h, 'by-session');
  await addStrategy(h, 'by-session', 'development', { name: 'flexibleRollout', parameters: { rollout: '30', stickiness: 'sessionId', groupId: 's' } });
  await addStrategy(h, 'by-session', 'development', {
    name: 'flexibleRollout', parameters: { rollout: '60', stickiness: 'default', groupId: 'd' },
    constraints: [{ contextName: 'version', operator: 'SEMVER_GT', value: '1.2.0' }],
    variants: [{ name: 'x', weightType: 'variable', weight: 300, stickiness: 'default' }, { name: 'y', weightType: 'variable', weight: 700, stickiness: 'default' }],
  });
  await putVariants(h, 'by-session', [
    { name: 'p', weightType: 'variable', weight: 200, stickiness: 'default', overrides: [{ contextName: 'userId', values: ['u3'] }] },
    { name: 'q', weightType: 'variable', weight: 800, stickiness: 'default' },
  ]);
  await switchOn(h, 'by-session');
  await createFlag(h, 'by-address');
  await addStrategy(h, 'by-address', 'development', { name: 'remoteAddress', parameters: { IPs: '10.0.0.0/8, 192.168.1.1' } });
  await switchOn(h, 'by-address');
}

const test = harnessTest({ arrange });

test('frontend API, playground and engine agree for 150 random contexts', async ({ h }) => {
  const token = await frontendToken(h, ['default']);
  const state = h.registry.project('default')!.state;
  const segments = h.registry.service.state.segments;
  const engine = compileFlags([...state.flags.values()].filter((f) => !f.archived).map((f) => flagDefinition(f, 'development')), (id) => segments[String(id)]);
  const next = random(20261123);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  let enabledSeen = 0;
  for (let i = 0; i < 150; i++) {
    const context = {
      appName: 'agreement',
      userId: `u${Math.floor(next() * 40)}`,
      sessionId: String(Math.floor(next() * 1e6)),
      remoteAddress: pick(['10.1.2.3', '192.168.1.1', '172.16.0.1', '::1']),
      properties: { plan: pick(['pro', 'free']), country: pick(['no', 'se', 'dk']), version: pick(['1.0.0', '1.2.1', '2.0.0']) },
    };
    const frontend = await togglesOf(h, token, context);
    const played = await h.json('POST', '/api/admin/playground', { environment: 'development', projects: ['default'], context });
    expect(played.status).toBe(200);
    const fromPlayground: Record<string, Toggle['variant']> = {};
    for (const f of played.body.features as { name: string; isEnabled: boolean; variant: Toggle['variant'] }[]) if (f.isEnabled) fromPlayground[f.name] = f.variant;
    const fromEngine: Record<string, Toggle['variant']> = {};
    for (const flag of engine.values()) {
      const result = evaluate(flag, context, engine);
      if (result.enabled) fromEngine[flag.name] = { ...result.variant };
    }
    const fromFrontend = Object.fromEntries(Object.values(frontend).map((t) => [t.name, t.variant]));
    expect(fromFrontend, JSON.stringify(context)).toEqual(fromEngine);
    expect(fromPlayground, JSON.stringify(context)).toEqual(fromEngine);
    enabledSeen += Object.keys(fromEngine).length;
  }
  expect(enabledSeen).toBeGreaterThan(150);
});
