/**
 * The real Node SDK (`unleash-client`) polling a real server socket: it reads what the client API serves,
 * evaluates it as Unleash would, and sees changes made through the admin API within its poll interval.
 */
import type { ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import { serveApp } from '../../../src/http/server.js';
import type { AppEnv } from '../../../src/http/route.js';
import { initialize, type Unleash } from 'unleash-client';
import { expect, vi } from 'vitest';
import { test } from '../../helpers/fixtures.js';
import { addStrategy, createFlag, envPath, flagPath, switchOn } from '../../helpers/flags.js';
import { freePort } from '../../helpers/net.js';
import { clientToken } from './client-fixtures.js';
import { untilState } from '../../helpers/wait.js';

const WAIT = untilState(50);

/** Serves `app` as `npm start` does (`serveApp`: its 304s answered by Node) on a free port of 127.0.0.1; resolves once it listens. */
async function listen(app: Hono<AppEnv>): Promise<{ port: number; server: ServerType }> {
  const port = await freePort();
  return new Promise((resolve) => {
    const server = serveApp(app, { port, hostname: '127.0.0.1' }, () => resolve({ port, server }));
  });
}

test('the Node SDK polls the client API: rollouts, variants, toggles, archived flags and segments', async ({ h }) => {
  await createFlag(h, 'rolled-out');
  await addStrategy(h, 'rolled-out', 'development', { name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: 'rolled-out' } });
  await switchOn(h, 'rolled-out');
  await createFlag(h, 'switched-off');
  await addStrategy(h, 'switched-off', 'development');
  await createFlag(h, 'coloured');
  await addStrategy(h, 'coloured', 'development');
  await switchOn(h, 'coloured');
  expect((await h.req('PUT', `${flagPath('coloured')}/variants`, [
    { name: 'blue', weightType: 'variable', weight: 1000, stickiness: 'default', payload: { type: 'string', value: 'b' } },
  ])).status).toBe(200);
  const segment = await h.json('POST', '/api/admin/segments', { name: 'beta', constraints: [{ contextName: 'userId', operator: 'IN', values: ['7'] }] });
  expect(segment.status).toBe(201);
  await createFlag(h, 'segmented');
  await addStrategy(h, 'segmented', 'development', { name: 'default', segments: [segment.body.id] });
  await switchOn(h, 'segmented');
  await createFlag(h, 'doomed');
  await addStrategy(h, 'doomed', 'development');
  await switchOn(h, 'doomed');
  const token = await clientToken(h, ['default'], 'development');

  const { port, server } = await listen(h.app);
  let client: Unleash | undefined;
  try {
    client = initialize({ url: `http://127.0.0.1:${port}/api/`, appName: 'flagpole-sdk-test', customHeaders: { Authorization: token }, refreshInterval: 200, disableMetrics: true });
    const errors: unknown[] = [];
    client.on('error', (error) => errors.push(error));
    await vi.waitFor(() => expect(client!.isSynchronized()).toBe(true), WAIT);
    const sdk = client;

    expect(sdk.isEnabled('rolled-out', { userId: '1' })).toBe(true);
    expect(sdk.isEnabled('switched-off', { userId: '1' })).toBe(false);
    expect(sdk.getVariant('coloured', { userId: '1' })).toMatchObject({ name: 'blue', enabled: true, payload: { type: 'string', value: 'b' } });
    expect(sdk.isEnabled('segmented', { userId: '7' })).toBe(true);
    expect(sdk.isEnabled('segmented', { userId: '8' })).toBe(false);

    expect((await h.req('POST', `${envPath('switched-off', 'development')}/on`)).status).toBe(200);
    await vi.waitFor(() => expect(sdk.isEnabled('switched-off', { userId: '1' })).toBe(true), WAIT);
    expect((await h.req('POST', `${envPath('rolled-out', 'development')}/off`)).status).toBe(200);
    await vi.waitFor(() => expect(sdk.isEnabled('rolled-out', { userId: '1' })).toBe(false), WAIT);

    expect((await h.req('DELETE', flagPath('doomed'))).status).toBe(202);
    await vi.waitFor(() => expect(sdk.getFeatureToggleDefinitions().map((f) => f.name)).not.toContain('doomed'), WAIT);
    expect(sdk.isEnabled('doomed', { userId: '1' })).toBe(false);
    expect(errors).toEqual([]);
  } finally {
    client?.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
