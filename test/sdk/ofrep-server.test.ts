/**
 * The real OpenFeature server SDK (`@openfeature/server-sdk`) with the generic OFREP provider
 * (`@openfeature/ofrep-provider`) against flagpole on a socket: a boolean, userId targeting through
 * `targetingKey`, a json payload variant, number and string payloads, an unknown flag and a type mismatch
 * answered with the caller's default and the OpenFeature error code, and a wrong token.
 */
import { ErrorCode, OpenFeature } from '@openfeature/server-sdk';
import { OFREPProvider } from '@openfeature/ofrep-provider';
import { expect } from 'vitest';
import { servedTest } from '../http/client/stream-fixtures.js';
import { apiToken, buildOfrepWorld } from '../http/ofrep/ofrep-fixtures.js';

const test = servedTest();

/** An OpenFeature client of its own domain (the SDK's registry is per process), through the OFREP provider. */
async function clientOf(base: string, token: string, domain: string) {
  await OpenFeature.setProviderAndWait(domain, new OFREPProvider({ baseUrl: base, headers: { Authorization: token } }));
  return OpenFeature.getClient(domain);
}

test('flags, targeting, payloads and errors through the OFREP server provider', async ({ h, base, seen }) => {
  await buildOfrepWorld(h);
  const client = await clientOf(base, await apiToken(h, 'client'), 'ofrep-server-flags');
  expect(await client.getBooleanValue('dark-mode', false)).toBe(true);
  expect(await client.getBooleanDetails('off-flag', true)).toMatchObject({ value: false, reason: 'DISABLED' });
  // userId targeting: targetingKey is the userId.
  expect(await client.getBooleanValue('beta', false, { targetingKey: 'alice' })).toBe(true);
  expect(await client.getBooleanValue('beta', true, { targetingKey: 'bob' })).toBe(false);
  // A variant with a json payload: the parsed object, the variant's name, reason SPLIT.
  expect(await client.getObjectDetails('theme', {})).toMatchObject({ value: { color: 'teal', sizes: [1, 2, 3] }, variant: 'teal', reason: 'SPLIT', flagMetadata: { project: 'default' } });
  expect(await client.getNumberValue('limit', 0)).toBe(42);
  expect(await client.getStringValue('greeting', '')).toBe('hello, world');
  // An unknown flag: the default, FLAG_NOT_FOUND.
  expect(await client.getBooleanDetails('no-such-flag', true)).toMatchObject({ value: true, errorCode: ErrorCode.FLAG_NOT_FOUND, reason: 'ERROR' });
  // The wrong type: the default, TYPE_MISMATCH.
  expect(await client.getNumberDetails('dark-mode', 7)).toMatchObject({ value: 7, errorCode: ErrorCode.TYPE_MISMATCH });
  // Hostile context keys are refused by the server, answered as the default.
  const hostile = await client.getBooleanDetails('dark-mode', false, { targetingKey: 'k', nested: { deep: true } });
  expect(hostile).toMatchObject({ value: false, errorCode: ErrorCode.INVALID_CONTEXT });
  expect(seen.filter((r) => r.path.startsWith('/ofrep')).every((r) => r.status < 500)).toBe(true);
});

test('a frontend token cannot use single evaluation; an unknown token gets the default', async ({ h, base }) => {
  await buildOfrepWorld(h);
  const frontend = await clientOf(base, await apiToken(h, 'frontend'), 'ofrep-server-frontend');
  const refused = await frontend.getBooleanDetails('dark-mode', false);
  expect(refused.value).toBe(false);
  expect(refused.errorCode).toBeDefined();
  const unknown = await clientOf(base, 'default:development.not-a-real-token', 'ofrep-server-unknown');
  const details = await unknown.getBooleanDetails('dark-mode', false);
  expect(details.value).toBe(false);
  expect(details.errorCode).toBeDefined();
});
