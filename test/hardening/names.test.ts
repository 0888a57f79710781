/**
 * No name is special: the names of Object.prototype members are refused with a 400 everywhere a name is
 * given (docs/limits.md "Reserved names"), and nothing is written. Before, an environment named `toString`
 * made older flags answer 500, `/on` stored a strategy named `toString`, and a default strategy for
 * `__proto__` was acknowledged and gone after a restart.
 */
import { describe, expect, test } from 'vitest';
import { readConfig } from '../../src/config.js';
import { expectError, expectNoChange, expectInheritsNothing } from '../helpers/expect.js';
import { harness } from '../helpers/harness.js';

const RESERVED = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'prototype'];
const P = '/api/admin/projects/default';

describe.each(RESERVED)('the reserved name %s', (name) => {
  test('is refused as an environment, project, flag, variant, parameter, context field, stickiness, username and token name; nothing changes', async () => {
    const h = await harness();
    try {
      expect((await h.json('POST', `${P}/features`, { name: 'f' })).status).toBe(201);
      const raw = (body: string) => body.replaceAll('NAME', name);
      await expectNoChange(h, async () => {
        const cases: [string, string, string][] = [
          ['POST', '/api/admin/environments', raw('{"name":"NAME"}')],
          ['POST', '/api/admin/projects', raw('{"id":"NAME","name":"x"}')],
          ['POST', `${P}/features`, raw('{"name":"NAME"}')],
          ['POST', `${P}/features/f/clone`, raw('{"name":"NAME"}')],
          ['PUT', `${P}/features/f/variants`, raw('[{"name":"NAME","weightType":"variable","weight":1}]')],
          ['PUT', `${P}/features/f/variants`, raw('[{"name":"a","weightType":"variable","weight":1,"stickiness":"NAME"}]')],
          ['PUT', `${P}/features/f/variants`, raw('[{"name":"a","weightType":"variable","weight":1,"overrides":[{"contextName":"NAME","values":["x"]}]}]')],
          ['POST', `${P}/features/f/environments/development/strategies`, raw('{"name":"default","parameters":{"NAME":"x"}}')],
          ['POST', `${P}/features/f/environments/development/strategies`, raw('{"name":"default","constraints":[{"contextName":"NAME","operator":"IN","values":["a"]}]}')],
          ['POST', `${P}/environments/development/default-strategy`, raw('{"name":"default","parameters":{"NAME":"x"}}')],
          ['POST', '/api/admin/user-admin', raw('{"username":"NAME"}')],
          ['POST', '/api/admin/api-tokens', raw('{"tokenName":"NAME","type":"admin"}')],
          ['POST', '/api/admin/user-admin/1/tokens', raw('{"description":"NAME"}')],
        ];
        for (const [method, path, body] of cases) {
          const r = await h.json(method, path, body);
          expectError(r, 400, 'ValidationError');
          expect(r.body.message, `${method} ${path} ${body}`).toMatch(/reserved/);
        }
        // As a path segment: the flag, the project, the environment.
        for (const path of [`${P}/features/${encodeURIComponent(name)}`, `/api/admin/projects/${encodeURIComponent(name)}`, `${P}/features/f/environments/${encodeURIComponent(name)}/on`]) {
          const method = path.endsWith('/on') ? 'POST' : 'GET';
          expectError(await h.json(method, path), 400, 'ValidationError', /reserved/);
        }
      });
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    } finally {
      await h.close();
    }
  });
});

test('INIT_ENVIRONMENTS with a reserved name stops the start', () => {
  expect(() => readConfig({ INIT_ENVIRONMENTS: 'development,toString' })).toThrow(/INIT_ENVIRONMENTS/);
});

test('names that merely contain a reserved word work like any other', async () => {
  const h = await harness();
  try {
    for (const name of ['toString2', 'my-constructor', '__proto__x']) {
      expect((await h.json('POST', '/api/admin/environments', { name })).status).toBe(201);
      expect((await h.json('POST', `${P}/environments`, { environment: name })).status).toBe(200);
      expect((await h.json('POST', `${P}/features`, { name })).status).toBe(201);
      expect((await h.json('POST', `${P}/environments/${name}/default-strategy`, { name: 'default' })).status).toBe(200);
      expect((await h.json('POST', `${P}/features/${name}/environments/${name}/on`)).status).toBe(200);
    }
    await h.restart();
    for (const name of ['toString2', 'my-constructor', '__proto__x']) {
      const flag = await h.json('GET', `${P}/features/${name}`);
      expect(flag.body.environments.find((e: { name: string }) => e.name === name)).toMatchObject({ enabled: true, strategies: [{ name: 'default' }] });
    }
  } finally {
    await h.close();
  }
});

test.each([['snapshots at shutdown', {}], ['a snapshot after every command', { SNAPSHOT_EVERY: '1' }]])('maps keyed by names inherit nothing, as decided and as recovered (%s)', async (_how, env) => {
  const h = await harness(env);
  try {
    expect((await h.json('POST', `${P}/features`, { name: 'f' })).status).toBe(201);
    expect((await h.json('POST', `${P}/features/f/environments/development/strategies`, { name: 'flexibleRollout', parameters: { rollout: 5 } })).status).toBe(200);
    expect((await h.json('POST', `${P}/environments/production/default-strategy`, { name: 'default', parameters: { a: 'b' } })).status).toBe(200);
    expect((await h.json('POST', `${P}/features/f/clone`, { name: 'g' })).status).toBe(201);
    const maps = () => {
      const state = h.registry.project('default')!.state;
      const flag = state.flags.get('f')!;
      const clone = state.flags.get('g')!;
      return [
        flag.environments, flag.environments['development']!.strategies[0]!.parameters, clone.environments,
        clone.environments['development']!.strategies[0]!.parameters, state.meta.defaultStrategies, state.meta.members,
        state.meta.defaultStrategies['production']!.parameters!,
      ];
    };
    for (const map of maps()) expectInheritsNothing(map);
    await h.restart();
    for (const map of maps()) expectInheritsNothing(map);
  } finally {
    await h.close();
  }
});
