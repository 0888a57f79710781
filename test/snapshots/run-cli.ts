import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root: the CLIs run from there, as `npm run dump` runs them. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a TypeScript entry point as its own node process (through tsx, as the npm scripts do), feeding
 * `input` on stdin, and collects its output.
 *
 * @example const r = await runTs('src/cli.ts', ['dump', '--data-dir', dir]);
 */
export function runTs(entry: string, args: string[], input?: string, env: Record<string, string> = {}): Promise<CliResult> {
  return run(process.execPath, ['--import', 'tsx', entry, ...args], input, env);
}

/** Runs `npm` with `args` in the repository root, as an operator would. */
export const npm = (args: string[], input?: string): Promise<CliResult> => run('npm', args, input);

function run(command: string, args: string[], input?: string, env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** `flagpole dump args` (what `npm run dump -- args` runs), from the source. */
export const dumpCli = (args: string[]) => runTs('src/cli.ts', ['dump', ...args]);

/** `flagpole restore args < input` (what `npm run restore -- args` runs), from the source. */
export const restoreCli = (args: string[], input: string) => runTs('src/cli.ts', ['restore', ...args], input);
