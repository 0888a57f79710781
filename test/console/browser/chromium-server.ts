/**
 * The run's one chromium (Debian's, through playwright-core), started by test/global-setup.ts and shared by every
 * browser file: each file connects to it (`useBrowser`, browser.ts) and gets contexts of its own. A launch costs
 * ~0.9 s of CPU and a second or more of wall time, which each of the 21 files paid when it launched its own.
 * Playwright's server runs in a node process of its own beside chromium, not in vitest's main process, which
 * answers the workers.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's chromium (test/global-setup.ts), or '' when it is not installed. */
    chromiumEndpoint: string;
  }
}

/** Where chromium is (Debian's package; `.ci/run` installs it when missing). */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Launches the server, prints its endpoint, and closes chromium when its standard input ends (the run's end, or vitest gone). */
const SERVER = `
import { chromium } from 'playwright-core';
const server = await chromium.launchServer(JSON.parse(process.argv[1]));
process.stdout.write(server.wsEndpoint() + '\\n');
process.stdin.on('end', async () => { await server.close(); process.exit(0); });
process.stdin.resume();
`;

/** A running chromium's endpoint and how to stop it; the endpoint is '' when chromium is not installed. */
export interface ChromiumServer {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * Launches chromium as a server the browser files connect to, or nothing when {@link CHROMIUM} is missing (the
 * browser files then fail, saying where chromium was looked for; the other tests run).
 *
 * @example const server = await startChromium(); const browser = await chromium.connect(server.endpoint);
 */
export async function startChromium(): Promise<ChromiumServer> {
  try {
    accessSync(CHROMIUM, constants.X_OK);
  } catch {
    return { endpoint: '', stop: async () => undefined };
  }
  const options = { executablePath: CHROMIUM, args: ARGS, headless: true };
  const child = spawn(process.execPath, ['--input-type=module', '-e', SERVER, JSON.stringify(options)], {
    cwd: resolve(import.meta.dirname, '../../..'), stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const endpoint = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout! }).once('line', done);
    void exited.then(() => fail(new Error(`chromium's server exited with ${child.exitCode} before it listened`)));
  });
  return {
    endpoint,
    async stop() {
      child.stdin!.end();
      await exited;
    },
  };
}
