import { spawn } from 'node:child_process';
import { BUILT_CLI, ROOT } from '../helpers/built.js';
import { killAfterTest } from '../helpers/children.js';

export { ROOT };

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the compiled `flagpole` command (what `npm run dump` and `npm run restore` run) as its own node
 * process, feeding `input` on stdin, and collects its output.
 *
 * @example const r = await runCli(['dump', '--data-dir', dir]);
 */
export function runCli(args: string[], input?: string, env: Record<string, string> = {}): Promise<CliResult> {
  return run(process.execPath, [BUILT_CLI, ...args], input, env);
}

/** Runs `npm` with `args` in the repository root, as an operator would. */
export const npm = (args: string[], input?: string): Promise<CliResult> => run('npm', args, input);

function run(command: string, args: string[], input?: string, env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    killAfterTest(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** `flagpole dump args` (what `npm run dump -- args` runs). */
export const dumpCli = (args: string[]) => runCli(['dump', ...args]);

/** `flagpole restore args < input` (what `npm run restore -- args` runs). */
export const restoreCli = (args: string[], input: string) => runCli(['restore', ...args], input);
