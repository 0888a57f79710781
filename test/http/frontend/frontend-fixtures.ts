/**
 * Requests the frontend API and playground tests share: tokens of each type, the toggles of a context, and a
 * world of flags covering strategies, constraints, segments, variants and a second project.
 */
import { expect } from 'vitest';
import { addStrategy, createFlag, envPath, flagPath, switchOn } from '../../helpers/flags.js';
import type { Harness } from '../../helpers/harness.js';

/** Creates an API token of `type` and returns its secret. */
export async function tokenOf(h: Harness, body: Record<string, unknown>): Promise<string> {
  const res = await h.json('POST', '/api/admin/api-tokens', { tokenName: `t-${Math.random().toString(36).slice(2)}`, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.secret as string;
}

/** A frontend token of `projects` in `environment`. */
export const frontendToken = (h: Harness, projects: string[] = ['*'], environment = 'development') => tokenOf(h, { type: 'frontend', projects, environment });

export interface Toggle {
  name: string;
  enabled: boolean;
  variant: { name: string; enabled: boolean; payload?: { type: string; value: string }; feature_enabled: boolean; featureEnabled: boolean };
  impressionData: boolean;
}

/** `POST /api/frontend` with `context`; expects 200 and returns the toggles by name. */
export async function togglesOf(h: Harness, token: string, context: Record<string, unknown>): Promise<Record<string, Toggle>> {
  const res = await h.json('POST', '/api/frontend', { context }, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Object.fromEntries((res.body.toggles as Toggle[]).map((t) => [t.name, t]));
}

/** Sets a flag's variants; expects 200. */
export async function putVariants(h: Harness, flag: string, variants: unknown[], project = 'default'): Promise<void> {
  const res = await h.json('PUT', `${flagPath(flag, project)}/variants`, variants);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Creates a segment; returns its id. */
export async function createSegment(h: Harness, name: string, constraints: unknown[]): Promise<number> {
  const res = await h.json('POST', '/api/admin/segments', { name, constraints });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

/**
 * The world most tests read, in `development` unless said:
 * - `on`: default strategy, on; impression data; a variant `blue` with a payload
 * - `off`: a strategy, switched off
 * - `only-alice`: `userWithId` alice
 * - `pro`: default strategy with the constraint `plan IN pro`
 * - `half`: flexibleRollout 50% on `userId`, with variants `a`/`b`
 * - `segmented`: default strategy with a segment `country IN no, se`
 * - `archived`: on, then archived
 * - `prod-only`: on in production only
 * - `other-on`: on, in project `other`
 */
export async function buildWorld(h: Harness): Promise<void> {
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await h.json(method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };
  await createFlag(h, 'on', { impressionData: true });
  await addStrategy(h, 'on', 'development');
  await putVariants(h, 'on', [{ name: 'blue', weightType: 'variable', weight: 1000, stickiness: 'default', payload: { type: 'string', value: 'sky' } }]);
  await switchOn(h, 'on');
  await createFlag(h, 'off');
  await addStrategy(h, 'off', 'development');
  await createFlag(h, 'only-alice');
  await addStrategy(h, 'only-alice', 'development', { name: 'userWithId', parameters: { userIds: 'alice' } });
  await switchOn(h, 'only-alice');
  await createFlag(h, 'pro');
  await addStrategy(h, 'pro', 'development', { name: 'default', constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }] });
  await switchOn(h, 'pro');
  await createFlag(h, 'half');
  await addStrategy(h, 'half', 'development', { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'userId', groupId: 'half' } });
  await putVariants(h, 'half', [
    { name: 'a', weightType: 'variable', weight: 500, stickiness: 'userId' },
    { name: 'b', weightType: 'variable', weight: 500, stickiness: 'userId' },
  ]);
  await switchOn(h, 'half');
  const segment = await createSegment(h, 'nordics', [{ contextName: 'country', operator: 'IN', values: ['no', 'se'] }]);
  await createFlag(h, 'segmented');
  await addStrategy(h, 'segmented', 'development', { name: 'default', segments: [segment] });
  await switchOn(h, 'segmented');
  await createFlag(h, 'archived');
  await addStrategy(h, 'archived', 'development');
  await switchOn(h, 'archived');
  await ok('DELETE', flagPath('archived'));
  await createFlag(h, 'prod-only');
  await addStrategy(h, 'prod-only', 'production');
  await ok('POST', `${envPath('prod-only', 'production')}/on`);
  await ok('POST', '/api/admin/projects', { id: 'other', name: 'Other' });
  await createFlag(h, 'other-on', {}, 'other');
  await addStrategy(h, 'other-on', 'development', { name: 'default' }, 'other');
  await switchOn(h, 'other-on', 'development', 'other');
}
