import { expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';

export const FEATURES = '/api/client/features';

/** Creates a client token through the admin API; expects 201 and returns its secret. */
export async function clientToken(h: Harness, projects: string[], environment: string, type = 'client'): Promise<string> {
  const r = await h.json('POST', '/api/admin/api-tokens', { tokenName: `sdk-${projects.join('-')}-${environment}`, type, projects, environment });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.secret as string;
}

/** `GET /api/client/features` with `token`, a spec header (null: none) and more headers. */
export function features(h: Harness, token: string, query = '', headers: Record<string, string> = {}, spec: string | null = '5.1.0') {
  return h.json('GET', `${FEATURES}${query}`, undefined, { token, headers: { ...(spec === null ? {} : { 'unleash-client-spec': spec }), ...headers } });
}

/** The names of the flags an answer holds, sorted. */
export const names = (body: { features: { name: string }[] }): string[] => body.features.map((f) => f.name).sort();
