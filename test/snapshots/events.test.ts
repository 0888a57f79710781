import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { ROOT_EDITOR } from '../../src/domain/roles.js';
import type { StoredToken } from '../../src/domain/service-state.js';
import { test } from '../helpers/fixtures.js';
import type { Harness } from '../helpers/harness.js';
import { ok } from './fixtures.js';

const F = '/api/admin/projects/default/features';
const BY = 'admin-token:init-admin-token-1';

/** Stores a token straight through the service actor (the token routes are not what this tests). */
async function storeToken(h: Harness, secret: string, type: StoredToken['type'], userId: number | null = null): Promise<void> {
  const token: StoredToken = { id: randomUUID(), hash: h.tokenHasher.hash(secret), tokenName: `t-${type}`, type, projects: ['*'], environment: '*', createdAt: new Date().toISOString(), expiresAt: null, userId };
  const decision = await h.registry.service.send({ type: 'token.create', token }, 'system');
  expect(decision.ok).toBe(true);
}

const history = async (h: Harness, query: string) => {
  const r = await h.json('GET', `/api/admin/events?${query}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { events: any[]; offset: number; limit: number; hasMore: boolean };
};

describe('GET /api/admin/events', () => {
  test('lists the changes of the commands sent, newest first, with who, when, before and after', async ({ h }) => {
    const sent = Date.now();
    await ok(h, 'POST', F, { name: 'f1' });
    const strategy = await ok(h, 'POST', `${F}/f1/environments/development/strategies`, { name: 'default' });
    await ok(h, 'POST', `${F}/f1/environments/development/on`);
    await ok(h, 'POST', F, { name: 'f2' });
    await ok(h, 'PUT', `${F}/f2`, { name: 'f2', description: 'now described' });
    await ok(h, 'POST', `${F}/f1/environments/development/off`);
    await ok(h, 'DELETE', `${F}/f2`);
    // Refused and no-op commands change nothing, so they are not history.
    expect((await h.json('POST', F, { name: 'f1' })).status).toBe(409);
    await ok(h, 'POST', `${F}/f1/environments/development/off`);

    const page = await history(h, 'project=default');
    expect(page.hasMore).toBe(false);
    expect(page.events.map((e) => [e.seq, e.type, e.feature, e.environment, e.by])).toEqual([
      [8, 'flag.archived', 'f2', null, BY],
      [7, 'flag.disabled', 'f1', 'development', BY],
      [6, 'flag.updated', 'f2', null, BY],
      [5, 'flag.created', 'f2', null, BY],
      [4, 'flag.enabled', 'f1', 'development', BY],
      [3, 'strategy.added', 'f1', 'development', BY],
      [2, 'flag.created', 'f1', null, BY],
      [1, 'project.created', null, null, 'system'],
    ]);
    for (const e of page.events) {
      expect(e.project).toBe('default');
      expect(Date.parse(e.at)).toBeGreaterThanOrEqual(sent - 60_000);
      expect(Object.keys(e)).toEqual(['seq', 'type', 'project', 'feature', 'environment', 'by', 'at', 'before', 'after', 'environmentEnabled']);
    }
    const [archived, disabled, updated, created, enabled, added] = page.events;
    expect(archived.before.archived).toBe(false);
    expect(archived.after.archived).toBe(true);
    expect([disabled.before.enabled, disabled.after.enabled, disabled.environmentEnabled]).toEqual([true, false, false]);
    expect([updated.before.description, updated.after.description]).toEqual(['', 'now described']);
    expect(created.before).toBeNull();
    expect(created.after.name).toBe('f2');
    expect([enabled.before.enabled, enabled.after.enabled, enabled.environmentEnabled]).toEqual([false, true, true]);
    // A strategy event shows the strategy itself, as Unleash's events carry data and preData.
    expect(added.before).toBeNull();
    expect(added.after.id).toBe(strategy.id);
    expect(added.environmentEnabled).toBe(false);
  });

  test('filters by feature and pages with offset and limit', async ({ h }) => {
    for (const name of ['a', 'b']) await ok(h, 'POST', F, { name });
    for (let i = 0; i < 3; i += 1) {
      await ok(h, 'PUT', `${F}/a`, { name: 'a', description: `a${i}` });
      await ok(h, 'PUT', `${F}/b`, { name: 'b', description: `b${i}` });
    }
    const onlyA = await history(h, 'project=default&feature=a');
    expect(onlyA.events.map((e) => e.after.description)).toEqual(['a2', 'a1', 'a0', '']);
    expect(onlyA.events.every((e) => e.feature === 'a')).toBe(true);

    const all = (await history(h, 'project=default')).events;
    expect(all).toHaveLength(9);
    const pages = [];
    for (let offset = 0; ; offset += 2) {
      const page = await history(h, `project=default&offset=${offset}&limit=2`);
      expect(page.offset).toBe(offset);
      expect(page.limit).toBe(2);
      pages.push(...page.events);
      if (!page.hasMore) break;
      expect(page.events).toHaveLength(2);
    }
    expect(pages).toEqual(all);
    const second = await history(h, 'project=default&feature=b&offset=1&limit=1');
    expect(second.events.map((e) => e.after.description)).toEqual(['b1']);
    expect(second.hasMore).toBe(true);
  });

  test('validates its query and answers unknown projects with 404', async ({ h }) => {
    const bad = async (query: string, property: string) => {
      const r = await h.json('GET', `/api/admin/events?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body.name).toBe('ValidationError');
      expect(r.body.message).toContain(`"${property}"`);
    };
    await bad('', 'project');
    await bad('project=default&limit=1001', 'limit');
    await bad('project=default&limit=0', 'limit');
    await bad('project=default&offset=-1', 'offset');
    await bad('project=default&offset=1.5', 'offset');
    await bad('project=default&feature=a%20b', 'feature');
    expect((await history(h, 'project=default&limit=1000')).limit).toBe(1000);
    const missing = await h.json('GET', '/api/admin/events?project=nope');
    expect(missing.status).toBe(404);
    expect(missing.body.name).toBe('NotFoundError');
  });
});

describe('admin only', () => {
  test('the state and events routes need the ADMIN permission', async ({ h }) => {
    await storeToken(h, 'default:development.client-secret', 'client');
    const editor = await h.registry.service.send({ type: 'user.create', user: { name: 'ed', email: 'ed@example.com', username: null, rootRole: ROOT_EDITOR } }, 'system');
    expect(editor.ok).toBe(true);
    const editorId = (editor as { reply: { id: number } }).reply.id;
    await storeToken(h, 'user:editor-secret', 'personal', editorId);
    for (const path of ['/api/admin/state', '/api/admin/state?project=default', '/api/admin/events?project=default']) {
      expect((await h.json('GET', path, undefined, { token: null })).status, path).toBe(401);
      expect((await h.json('GET', path, undefined, { token: 'default:development.client-secret' })).status, path).toBe(403);
      const asEditor = await h.json('GET', path, undefined, { token: 'user:editor-secret' });
      expect(asEditor.status, path).toBe(403);
      expect(asEditor.body.message).toContain('ADMIN');
      expect((await h.json('GET', path)).status, path).toBe(200);
    }
  });

  test('GET /api/admin/state: 404 for an unknown project, 400 for a bad id', async ({ h }) => {
    expect((await h.json('GET', '/api/admin/state?project=nope')).status).toBe(404);
    const bad = await h.json('GET', '/api/admin/state?project=a%20b');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('"project"');
  });
});
