/**
 * The flag requests most HTTP tests start from, over a harness: paths, create, add a strategy, switch on,
 * read one environment of a flag. Each asserts its own success, so a broken step fails where it happened.
 *
 * @example
 * ```ts
 * await createFlag(h, 'f');
 * const s = await addStrategy(h, 'f', 'development');
 * await switchOn(h, 'f', 'development');
 * expect((await environmentOf(h, 'f', 'development')).strategies).toEqual([s]);
 * ```
 */
import { expect } from 'vitest';
import type { Strategy } from '../../src/domain/types.js';
import type { Harness } from './harness.js';

/** The flag list of a project. */
export const featuresPath = (project = 'default'): string => `/api/admin/projects/${project}/features`;

/** One flag of a project. */
export const flagPath = (name: string, project = 'default'): string => `${featuresPath(project)}/${name}`;

/** One environment of a flag (append `/on`, `/off` or `/strategies`). */
export const envPath = (flag: string, environment: string, project = 'default'): string =>
  `${flagPath(flag, project)}/environments/${environment}`;

/** The strategies of a flag in one environment. */
export const strategiesPath = (flag: string, environment: string, project = 'default'): string =>
  `${envPath(flag, environment, project)}/strategies`;

/** One environment of a flag as the flag detail shows it. */
export interface EnvironmentView {
  name: string;
  type: string;
  sortOrder: number;
  enabled: boolean;
  strategies: Strategy[];
}

/** Creates flag `name` (with `fields` in the body) and expects 201; returns the answer. */
export async function createFlag(h: Harness, name: string, fields: Record<string, unknown> = {}, project = 'default') {
  const r = await h.json('POST', featuresPath(project), { name, ...fields });
  expect(r.status, `create ${name}: ${JSON.stringify(r.body)}`).toBe(201);
  return r;
}

/** Adds a strategy (the `default` strategy unless `body` says otherwise) and expects 200; returns the stored strategy. */
export async function addStrategy(h: Harness, flag: string, environment: string, body: Record<string, unknown> = { name: 'default' }, project = 'default'): Promise<Strategy> {
  const r = await h.json('POST', strategiesPath(flag, environment, project), body);
  expect(r.status, `add strategy to ${flag}/${environment}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body as Strategy;
}

/** `/on` and expects 200. */
export async function switchOn(h: Harness, flag: string, environment = 'development', project = 'default'): Promise<void> {
  expect((await h.req('POST', `${envPath(flag, environment, project)}/on`)).status).toBe(200);
}

/** The entry of `environment` in the flag's detail. */
export async function environmentOf(h: Harness, flag: string, environment: string, project = 'default'): Promise<EnvironmentView> {
  const detail = (await h.json('GET', flagPath(flag, project))).body;
  return detail.environments.find((e: { name: string }) => e.name === environment) as EnvironmentView;
}
