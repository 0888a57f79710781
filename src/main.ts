import { serve } from '@hono/node-server';
import { Registry } from './actors/registry.js';
import { createApp } from './app.js';
import { ensureAdminTokens } from './auth/bootstrap.js';
import { readConfig } from './config.js';

/** How long a stop waits for requests in flight before closing the store anyway. */
const SHUTDOWN_GRACE_MS = 3000;

/** Reads the configuration, recovers every project from LevelDB, and serves the admin API. */
async function main(): Promise<void> {
  const config = readConfig();
  const started = Date.now();
  const registry = await Registry.open({
    dataDir: config.dataDir, initEnvironments: config.initEnvironments,
    snapshotEvery: config.snapshotEvery, logRetention: config.logRetention,
  });
  for (const notice of registry.notices) console.warn(`[flagpole] recovery: ${notice.key}: ${notice.message}`);
  for (const [id, error] of registry.unavailable) {
    console.error(`[flagpole] project "${id}" NOT recovered and answers 503: ${error.message}`);
  }
  if (config.authType === 'api-token') {
    const generated = await ensureAdminTokens(registry, config.initAdminApiTokens);
    if (generated) {
      console.log(`[flagpole] created an admin API token (shown once, stored only as a hash):\n\n    ${generated}\n`);
    }
  }
  const app = createApp({ registry, config });
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    console.log(`[flagpole] listening on http://${info.address}:${info.port} (data ${config.dataDir}, ${registry.projectIds().length} projects, recovered in ${Date.now() - started} ms)`);
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[flagpole] ${signal}: finishing requests in flight and writing snapshots`);
    // Stop accepting, let requests in flight be answered (idle keep-alive connections are closed at once),
    // but never wait more than a few seconds for a slow client.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    if ('closeIdleConnections' in server) server.closeIdleConnections();
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS))]);
    await registry.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('[flagpole] failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
