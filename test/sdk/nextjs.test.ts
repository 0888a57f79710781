/**
 * The real `@unleash/nextjs` SDK (1.6.x, as a Next.js app's server code calls it) against flagpole on a socket:
 * its server-side mode (`getDefinitions` reads `GET /api/client/features` with a client token and revalidates
 * with the `ETag`, `evaluateFlags` evaluates the definitions locally for a context, `flagsClient` answers from
 * the result) and its frontend-API mode (`getFrontendFlags`: the browser SDK over `/api/frontend` with a frontend
 * token). Each reads the flag on for the targeted user, then off once it is switched off in flagpole.
 */
import { evaluateFlags, flagsClient, getDefinitions, getFrontendFlags } from '@unleash/nextjs';
import { expect } from 'vitest';
import { addStrategy, createFlag, envPath, switchOn } from '../helpers/flags.js';
import type { Harness } from '../helpers/harness.js';
import { clientToken } from '../http/client/client-fixtures.js';
import { servedTest } from '../http/client/stream-fixtures.js';

const test = servedTest();
const APP = 'flagpole-nextjs-test';

/** `checkout`, on in development for the user `alice` only (`userWithId`). */
async function checkoutForAlice(h: Harness): Promise<void> {
  await createFlag(h, 'checkout');
  await addStrategy(h, 'checkout', 'development', { name: 'userWithId', parameters: { userIds: 'alice' } });
  await switchOn(h, 'checkout', 'development');
}

const switchOff = async (h: Harness) =>
  expect((await h.req('POST', `${envPath('checkout', 'development')}/off`)).status).toBe(200);

const names = (toggles: { name: string }[]) => toggles.map((t) => t.name);

test('server side: definitions fetched with a client token, evaluated locally per user, revalidated with the ETag; off once switched off', async ({ h, url, seen }) => {
  await checkoutForAlice(h);
  const config = { url: `${url}client/features`, token: await clientToken(h, ['*'], 'development'), appName: APP };

  const definitions = await getDefinitions(config);
  expect(definitions.features.map((f) => f.name)).toEqual(['checkout']);
  const alice = evaluateFlags(definitions, { userId: 'alice' });
  expect(names(alice.toggles)).toEqual(['checkout']);
  expect(names(evaluateFlags(definitions, { userId: 'bob' }).toggles)).toEqual([]);
  expect(flagsClient(alice.toggles, { url: `${url}frontend`, appName: APP, clientKey: 'unused' }).isEnabled('checkout')).toBe(true);

  // Nothing changed: the SDK presents the ETag, gets a 304 and keeps its definitions.
  expect(evaluateFlags(await getDefinitions(config), { userId: 'alice' }).toggles).toHaveLength(1);
  const polls = () => seen.filter((r) => r.path === '/api/client/features');
  expect(polls().map((r) => r.status)).toEqual([200, 304]);
  expect(polls()[1]!.ifNoneMatch).toEqual(expect.stringMatching(/^".+"$/));

  await switchOff(h);
  const after = await getDefinitions(config);
  expect(polls().map((r) => r.status)).toEqual([200, 304, 200]);
  const off = evaluateFlags(after, { userId: 'alice' });
  expect(names(off.toggles)).toEqual([]);
  expect(flagsClient(off.toggles, { url: `${url}frontend`, appName: APP, clientKey: 'unused' }).isEnabled('checkout')).toBe(false);
});

test('frontend-API mode: getFrontendFlags reads the flags evaluated by flagpole for the context; off once switched off', async ({ h, url }) => {
  await checkoutForAlice(h);
  const config = { url: `${url}frontend`, clientKey: await clientToken(h, ['*'], 'development', 'frontend'), appName: APP };

  const alice = await getFrontendFlags({ ...config, context: { userId: 'alice' } });
  expect(alice.toggles).toEqual([expect.objectContaining({ name: 'checkout', enabled: true })]);
  expect((await getFrontendFlags({ ...config, context: { userId: 'bob' } })).toggles).toEqual([]);

  await switchOff(h);
  expect((await getFrontendFlags({ ...config, context: { userId: 'alice' } })).toggles).toEqual([]);
});
