/**
 * `/api/frontend`'s body is written from JSON made once per flag and per variant (`frontendBody`): it must be
 * the very text `JSON.stringify({toggles})` of the evaluated toggles gives, for every user, with variants and
 * payloads, names that need escaping, impression data, flags of several projects merged in name order.
 */
import { expect } from 'vitest';
import { EvaluationQuery } from '../../../src/queries/sdk/evaluation.query.js';
import { harnessTest } from '../../helpers/fixtures.js';
import { addStrategy, createFlag, switchOn } from '../../helpers/flags.js';
import type { Harness } from '../../helpers/harness.js';

async function seed(h: Harness): Promise<void> {
  expect((await h.json('POST', '/api/admin/projects', { id: 'second', name: 'second' })).status).toBe(201);
  for (const [name, project, fields] of [
    ['zeta', 'default', {}], ['alpha', 'second', { impressionData: true }], ['m-1', 'default', {}], ['b.2', 'second', {}], ['a_0', 'default', { description: 'x' }],
  ] as const) {
    await createFlag(h, name, fields, project);
    await addStrategy(h, name, 'development', {
      name: 'flexibleRollout', parameters: { rollout: '60', stickiness: 'default', groupId: name },
      ...(name === 'm-1' ? { variants: [{ name: 'sv', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: '{"a":"\\"q\\""}' } }] } : {}),
    }, project);
    await switchOn(h, name, 'development', project);
  }
  expect((await h.json('PUT', '/api/admin/projects/default/features/zeta/variants', [
    { name: 'red', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'r "ed"\n' } },
    { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default' },
  ])).status).toBe(200);
}

const test = harnessTest({ arrange: seed });

test('the body equals JSON.stringify of the evaluated toggles, for 300 users, one project and several', async ({ h }) => {
  const query = new EvaluationQuery(h.registry);
  let enabledSeen = 0;
  for (const scope of [{ projects: '*' as const, environment: 'development' }, { projects: ['default'], environment: 'development' }, { projects: ['second', 'default'], environment: 'development' }]) {
    for (let u = 0; u < 300; u += 1) {
      const context = { userId: `user-${u}`, sessionId: String(u), properties: {} };
      const expected = JSON.stringify({ toggles: query.frontend(scope, context) });
      expect(query.frontendBody(scope, context).toString()).toBe(expected);
      enabledSeen += (JSON.parse(expected) as { toggles: unknown[] }).toggles.length;
    }
  }
  // The rollout enables some flags for some users and not others: both branches were taken.
  expect(enabledSeen).toBeGreaterThan(300);
  expect(enabledSeen).toBeLessThan(3 * 300 * 5);
});

test('bodies stay as answered after many more (none is written twice); the ETag is one per body', async ({ h }) => {
  const query = new EvaluationQuery(h.registry);
  const kept: { body: Buffer; text: string; etag: string }[] = [];
  const scope = { projects: '*' as const, environment: 'development' };
  for (let u = 0; u < 1000; u += 1) {
    const context = { userId: `user-${u}`, sessionId: String(u), properties: {} };
    const { body, etag } = query.frontendAnswer(scope, context);
    kept.push({ body, text: JSON.stringify({ toggles: query.frontend(scope, context) }), etag });
  }
  for (const { body, text } of kept) expect(body.toString()).toBe(text);
  const bodyOf = new Map<string, string>();
  const tagOf = new Map<string, string>();
  for (const { text, etag } of kept) {
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(bodyOf.get(etag) ?? text).toBe(text);
    expect(tagOf.get(text) ?? etag).toBe(etag);
    bodyOf.set(etag, text);
    tagOf.set(text, etag);
  }
  // Many users share an answer (5 flags at 60%): fewer bodies than users, more than one.
  expect(bodyOf.size).toBeGreaterThan(4);
  expect(bodyOf.size).toBeLessThan(kept.length);
});

test('over HTTP with a frontend token: the answer is that body, and the same user gets the same bytes again', async ({ h }) => {
  const token = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'browser', type: 'frontend', projects: ['*'], environment: 'development' });
  expect(token.status).toBe(201);
  const secret = (token.body as { secret: string }).secret;
  const query = new EvaluationQuery(h.registry);
  const path = '/api/frontend?userId=user-7&sessionId=7&properties[x]=1';
  const first = await h.req('GET', path, undefined, { token: secret });
  const text = await first.text();
  expect(first.status).toBe(200);
  expect(JSON.parse(text).toggles.length).toBeGreaterThan(0);
  expect(text).toBe(query.frontendBody({ projects: ['*'], environment: 'development' }, { userId: 'user-7', sessionId: '7', properties: { x: '1' } }).toString());
  const again = await h.req('GET', path, undefined, { token: secret });
  expect(await again.text()).toBe(text);
});
