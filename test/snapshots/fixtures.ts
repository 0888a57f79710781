import { expect } from 'vitest';
import type { Harness } from '../helpers/harness.js';

const FEATURES = '/api/admin/projects/default/features';

/** Sends a request and expects a 2xx; returns the parsed body. */
export async function ok<T = any>(h: Harness, method: string, path: string, body?: unknown): Promise<T> {
  const r = await h.json<T>(method, path, body);
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
}

/**
 * A little of everything the state holds: a second project, flags created out of name order (so the dump
 * must keep creation order), strategies, variants, a toggle, an archived flag, a default strategy.
 */
export async function populate(h: Harness): Promise<void> {
  await ok(h, 'POST', '/api/admin/projects', { id: 'beta', name: 'Beta', description: 'second project' });
  for (const name of ['zeta', 'alpha', 'mid']) await ok(h, 'POST', FEATURES, { name, description: `flag ${name}` });
  await ok(h, 'POST', `${FEATURES}/zeta/environments/development/strategies`, {
    name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: 'zeta' },
    constraints: [{ contextName: 'userId', operator: 'IN', values: ['1', '2'] }],
  });
  await ok(h, 'POST', `${FEATURES}/zeta/environments/development/on`);
  await ok(h, 'PUT', `${FEATURES}/alpha/variants`, [{ name: 'blue', weightType: 'variable', weight: 1000 }, { name: 'green', weightType: 'fix', weight: 200 }]);
  await ok(h, 'DELETE', `${FEATURES}/mid`);
  await ok(h, 'POST', '/api/admin/projects/default/environments/production/default-strategy', { name: 'default' });
  await ok(h, 'POST', '/api/admin/projects/beta/features', { name: 'b1', type: 'kill-switch' });
  // Project settings, a disabled environment and one a project let go of (its flags' entries removed).
  await ok(h, 'PUT', '/api/admin/projects/beta', { name: 'Beta', mode: 'protected', defaultStickiness: 'userId' });
  await ok(h, 'POST', '/api/admin/environments', { name: 'staging', type: 'test' });
  await ok(h, 'POST', '/api/admin/environments/staging/off');
  await ok(h, 'DELETE', '/api/admin/projects/beta/environments/production');
}
