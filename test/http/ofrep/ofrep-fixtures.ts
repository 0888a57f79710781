/**
 * What the OFREP tests share: tokens of each type, a world of flags covering every kind of OFREP value, and
 * the evaluation requests.
 */
import { expect } from 'vitest';
import { addStrategy, createFlag, flagPath, switchOn } from '../../helpers/flags.js';
import type { Harness } from '../../helpers/harness.js';

export const BULK = '/ofrep/v1/evaluate/flags';
export const single = (key: string): string => `${BULK}/${encodeURIComponent(key)}`;

/** Creates an API token (`type` client, frontend or admin) and returns its secret. */
export async function apiToken(h: Harness, type: 'client' | 'frontend' | 'admin', projects: string[] = ['default'], environment = 'development'): Promise<string> {
  const body = type === 'admin' ? { tokenName: `ofrep-${type}`, type } : { tokenName: `ofrep-${type}-${projects.join('-')}-${environment}`, type, projects, environment };
  const res = await h.json('POST', '/api/admin/api-tokens', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.secret as string;
}

/** Sets a flag's variants; expects 200. */
export async function putVariants(h: Harness, flag: string, variants: unknown[], project = 'default'): Promise<void> {
  const res = await h.json('PUT', `${flagPath(flag, project)}/variants`, variants);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const variant = (name: string, payload?: { type: string; value: string }) => ({ name, weightType: 'variable', weight: 1000, stickiness: 'default', ...(payload ? { payload } : {}) });

/**
 * The world, in `development` of project `default` unless said:
 * - `dark-mode`: on for everyone, no variant; `off-flag`: a strategy, switched off
 * - `beta`: on for `userWithId` alice only
 * - `theme`: on, variant `teal` with a json payload; `limit`: variant `big`, number payload 42;
 *   `greeting`: variant `hello`, string payload; `tagged`: variant `plain` without payload
 * - `gone`: archived; `prod-only`: on in production only; `elsewhere`: on, in project `other`
 */
export async function buildOfrepWorld(h: Harness): Promise<void> {
  const on = async (name: string, strategy: Record<string, unknown> = { name: 'default' }, project = 'default', environment = 'development') => {
    await createFlag(h, name, {}, project);
    await addStrategy(h, name, environment, strategy, project);
    await switchOn(h, name, environment, project);
  };
  await on('dark-mode');
  await createFlag(h, 'off-flag');
  await addStrategy(h, 'off-flag', 'development');
  await on('beta', { name: 'userWithId', parameters: { userIds: 'alice' } });
  await on('theme');
  await putVariants(h, 'theme', [variant('teal', { type: 'json', value: '{"color":"teal","sizes":[1,2,3]}' })]);
  await on('limit');
  await putVariants(h, 'limit', [variant('big', { type: 'number', value: '42' })]);
  await on('greeting');
  await putVariants(h, 'greeting', [variant('hello', { type: 'string', value: 'hello, world' })]);
  await on('tagged');
  await putVariants(h, 'tagged', [variant('plain')]);
  await on('gone');
  expect((await h.req('DELETE', flagPath('gone'))).status).toBe(202);
  await on('prod-only', { name: 'default' }, 'default', 'production');
  expect((await h.json('POST', '/api/admin/projects', { id: 'other', name: 'Other' })).status).toBe(201);
  await on('elsewhere', { name: 'default' }, 'other');
}

/** `POST /ofrep/v1/evaluate/flags` with `context`; the parsed answer. */
export function bulk(h: Harness, token: string | null, context: unknown = {}, headers: Record<string, string> = {}) {
  return h.json('POST', BULK, { context }, { token, headers });
}

/** The flags of a bulk answer by key. */
export const byKey = (body: { flags: { key: string }[] }): Record<string, any> => Object.fromEntries(body.flags.map((f) => [f.key, f]));
