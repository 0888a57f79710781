/**
 * `runFlagpole` (src/cli/run-flagpole.ts), the function the bin runs, over the environment and streams it is
 * given: an option's variable is read from that environment alone (not the process's), help and errors go to
 * its streams, and the exit code is returned, the process's own left as it was.
 */
import { PassThrough, Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { expect, onTestFinished, test } from 'vitest';
import { runFlagpole } from '../../src/cli/run-flagpole.js';

/** Runs `args` over `env` with fresh streams; resolves with the exit code and both outputs. */
async function run(args: string[], env: NodeJS.ProcessEnv) {
  const [stdout, stderr] = [new PassThrough(), new PassThrough()];
  const code = await runFlagpole(args, { env, stdin: Readable.from([]), stdout, stderr });
  stdout.end();
  stderr.end();
  return { code, stdout: await text(stdout), stderr: await text(stderr) };
}

test("an option's environment variable comes from the run's environment, not the process's", async () => {
  // Set on the process for this test only (no other test of this file runs meanwhile).
  const before = process.env['FLAGPOLE_URL'];
  process.env['FLAGPOLE_URL'] = 'http://127.0.0.1:1';
  onTestFinished(() => {
    if (before === undefined) delete process.env['FLAGPOLE_URL'];
    else process.env['FLAGPOLE_URL'] = before;
  });
  const exitCode = process.exitCode;
  const without = await run(['backup', '--out', 'x.backup'], {});
  expect([without.code, without.stderr]).toEqual([2, expect.stringContaining("required option '--url <url>' not specified")]);
  const given = await run(['backup', '--out', 'x.backup'], { FLAGPOLE_URL: 'ftp://127.0.0.1/' });
  expect([given.code, given.stderr]).toEqual([2, expect.stringContaining("'--url <url>' must be an http:// or https:// URL")]);
  const conflict = await run(['backup', '--url', 'http://127.0.0.1:1', '--out', 'x.backup', '--token-file', 't'], { FLAGPOLE_TOKEN: 'secret' });
  expect(conflict.stderr).toContain("option '--token-file <file>' cannot be used with environment variable 'FLAGPOLE_TOKEN'");
  expect(process.exitCode).toBe(exitCode);
});

test('help goes to the run\'s standard output, with exit code 0; nothing to its standard error', async () => {
  const help = await run(['dump', '--help'], {});
  expect(help).toEqual({ code: 0, stdout: expect.stringContaining('Usage: flagpole dump [options]'), stderr: '' });
});
