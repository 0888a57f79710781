import { Registry } from './actors/registry.js';
import { createApp } from './app.js';
import { ChangeRequestScheduler } from './scheduling/change-request-scheduler.js';
import { SYSTEM_CLOCK } from './scheduling/clock.js';
import { serveApp } from './http/server.js';
import { ensureAdminPassword, ensureAdminTokens, ensureClientTokens, ensureFrontendTokens } from './bootstrap-tokens.js';
import { loadTokenHasher, tokenKeyFingerprint } from './auth/token-key.js';
import { readConfig } from './config.js';
import { createLogger, flushLogSync } from './log.js';
import { processMetrics } from './metrics/service-metrics.js';

/** Reads the configuration, recovers every project from the store (LevelDB, or PostgreSQL with DATABASE_URL), and serves the admin API. */
async function main(): Promise<void> {
  const config = readConfig();
  const log = createLogger({ level: config.logLevel, format: config.logFormat });
  const started = Date.now();
  // Before the data directory: a bad key setting stops the start without touching it.
  const tokenKey = loadTokenHasher(config);
  for (const warning of tokenKey.warnings) log.warn(warning);
  const registry = await Registry.open({
    dataDir: config.dataDir, database: config.database ?? undefined, initEnvironments: config.initEnvironments,
    snapshotEvery: config.snapshotEvery, logRetention: config.logRetention, log, limits: config.limits,
    usageFlushMs: config.metricsFlushSeconds * 1000, feedHistory: config.clientDeltaHistory, writeTimeoutMs: config.writeTimeoutMs, contactTimeoutMs: config.nodes.contactTimeoutMs,
    sessions: { idleMs: config.console.sessionIdleMs, maxMs: config.console.sessionMaxMs }, pastViewCheckpointBytes: config.console.pastViewCheckpointBytes,
    tokenKeyFingerprint: tokenKeyFingerprint(tokenKey.hasher),
    addons: config.addons,
  });
  processMetrics();
  for (const notice of registry.notices) log.warn({ key: notice.key }, `recovery: ${notice.message}`);
  for (const [id, error] of registry.unavailable) log.error({ project: id }, `project "${id}" NOT recovered and answers 503: ${error.message}`);
  // The registry has logged why (an error line); the start goes on, serving the service read-only.
  const serviceReadOnly = registry.service.readOnlyReason;
  if (tokenKey.created) {
    const stored = Object.keys(registry.service.state.tokens).length;
    // Keep this file with (but apart from) the data directory: without it no keyed token authenticates.
    if (stored === 0) log.info({ file: tokenKey.created }, 'created the token key file (32 random bytes, mode 0600); back it up with the data directory, but store it apart');
    else log.warn({ file: tokenKey.created, tokens: stored }, 'created a new token key file for a data directory that already holds tokens: tokens from before keyed hashes still work (and are re-stored on first use); tokens hashed under a lost key do not: restore that key file, or re-create them (INIT_ADMIN_API_TOKENS lets an admin in)');
  }
  if (config.authType === 'none') log.warn('AUTH_TYPE=none: every request is let through as an admin, without a token; run it only behind another gate');
  if (config.authType === 'api-token' && serviceReadOnly !== null) {
    log.warn('the INIT_*_API_TOKENS were not stored and no admin token was generated: the service log is read-only');
  } else if (config.authType === 'api-token') {
    const generated = await ensureAdminTokens(registry, tokenKey.hasher, config.initAdminApiTokens);
    await ensureFrontendTokens(registry, tokenKey.hasher, config.initFrontendApiTokens);
    await ensureClientTokens(registry, tokenKey.hasher, config.initClientApiTokens);
    const first = await ensureAdminPassword(registry);
    // The only secrets ever printed: on the terminal, once, outside the log stream (docs/api-decisions.md "Running the service").
    if (generated) process.stdout.write(`\n[flagpole] created an admin API token (shown once, stored only as a hash):\n\n    ${generated}\n\n`);
    if (first) process.stdout.write(`\n[flagpole] sign in to the console at /login as "${first.username}" with this password (shown once, stored only as a hash; change it after signing in):\n\n    ${first.password}\n\n`);
  }
  // Work one node does: here; on several nodes sharing a database, the holder of each lease.
  registry.deliveries.start(registry.node.singletonWork());
  // Scheduled change requests: applied when due, and at once those that fell due while the service was stopped.
  new ChangeRequestScheduler({ registry, log, clock: SYSTEM_CLOCK }).start(registry.node.singletonWork());
  const app = createApp({ registry, config, log, tokenHasher: tokenKey.hasher });
  await app.prepare();
  // A slow client holds a connection only so long: the headers within HEADERS_TIMEOUT_MS, the whole request
  // within REQUEST_TIMEOUT_MS; past MAX_CONNECTIONS open connections, new ones are refused.
  const serverOptions = {
    headersTimeout: config.headersTimeoutMs, requestTimeout: config.requestTimeoutMs,
    // Node checks both timeouts on this interval (30 s by default): check often enough to honour them.
    connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs),
  };
  // Hono serves every route; the SDK poll, its stream and the browser read are answered by Node before it (serveApp).
  const server = serveApp(app, { port: config.port, hostname: config.host, serverOptions }, (info) => {
    log.info({ address: info.address, port: info.port, store: registry.storeLabel, projects: registry.projectIds().length, recoveredMs: Date.now() - started }, `listening on http://${info.address}:${info.port}`);
    void app.warm();
  });

  server.maxConnections = config.maxConnections;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // The whole stop is bounded: past SHUTDOWN_TIMEOUT_MS (a stuck disk, a client that never reads) the
    // process exits anyway, with 1, after saying so; every acknowledged write is on disk already.
    // Not unref'd: a stop stuck on a promise that holds no handle still ends here, with 1, rather than exit 0 unseen.
    setTimeout(() => {
      log.error(`${signal}: shutdown did not finish within ${config.shutdownTimeoutMs} ms (SHUTDOWN_TIMEOUT_MS); exiting without a final snapshot (the log holds every acknowledged write)`);
      flushLogSync(log);
      process.exit(1);
    }, config.shutdownTimeoutMs);
    log.info(`${signal}: finishing requests in flight and writing snapshots`);
    // End every SDK stream first (cleanly: the SDKs reconnect to the next server and resume), so they do not
    // hold the server open for the grace period.
    registry.feed.close();
    // Stop accepting, let requests in flight be answered (idle keep-alive connections are closed at once),
    // then close the connections that are left (streams, slow clients) at half the budget, so the snapshots
    // have the other half.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    if ('closeIdleConnections' in server) server.closeIdleConnections();
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, config.shutdownTimeoutMs / 2).unref())]);
    if ('closeAllConnections' in server) server.closeAllConnections();
    await registry.close();
    log.info(`${signal}: stopped`);
    flushLogSync(log);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`[flagpole] failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
