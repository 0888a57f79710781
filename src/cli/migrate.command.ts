import { readFileSync } from 'node:fs';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { MigrateError } from '../migrate/migrate-error.js';
import { isNewDirectory, migrateInto, type Report } from '../migrate/run.js';
import type { SourceData } from '../migrate/source-model.js';
import { dataDirTarget, httpTarget, type Target } from '../migrate/target.js';
import { readUnleash } from '../migrate/unleash-reader.js';
import { withAddonSecrets, type AddonSecrets } from '../migrate/addon-steps.js';
import { serviceUrl } from './backup.command.js';
import { CliCommand, type CliRun } from './cli-run.js';
import { EXIT } from './exit-codes.js';
import { progress } from './progress.js';
import { storeLocation } from './store-location.js';

interface MigrateFlags {
  from: string;
  token?: string;
  tokenFile?: string;
  dataDir?: string;
  databaseUrl?: string;
  to?: string;
  toToken?: string;
  dryRun?: boolean;
  timeout: number;
  addonSecrets?: string;
}

/**
 * `--addon-secrets FILE`: `{"<Unleash addon id>": {"<parameter>": "<value>"}}`, the secrets Unleash's API masks.
 * Messages name the file and the entry, never a value.
 */
function readAddonSecrets(file: string): AddonSecrets {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InvalidArgumentError(`cannot read --addon-secrets ${file}: ${(error as NodeJS.ErrnoException).code ?? 'not JSON'}`);
  }
  const shape = 'must be a JSON object like {"3": {"url": "https://..."}}: by Unleash addon id, parameter names to string values';
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new InvalidArgumentError(`--addon-secrets ${file} ${shape}`);
  for (const [id, values] of Object.entries(parsed)) {
    const ok = /^\d+$/.test(id) && typeof values === 'object' && values !== null && !Array.isArray(values) && Object.values(values).every((x) => typeof x === 'string');
    if (!ok) throw new InvalidArgumentError(`--addon-secrets ${file}: entry "${id.slice(0, 20)}" ${shape}`);
  }
  return parsed as AddonSecrets;
}

/** Seconds, 1 to 3600. */
function seconds(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 3600) throw new InvalidArgumentError('must be a whole number of seconds from 1 to 3600.');
  return n;
}

/** Notes printed in full up to this many; the rest counted. */
const NOTES_SHOWN = 50;

/**
 * `flagpole migrate --from URL --token T (--data-dir D | --to URL --to-token T) [--dry-run]`: copies everything
 * flagpole can hold from a running Unleash 6.x, 7.x or 8.x (docs/migration.md). Tokens are sent, never printed.
 */
export const migrateCommand = (run: CliRun): Command => new CliCommand('migrate', run)
  .description('copy projects, environments, flags, segments, tags, context fields, strategy definitions, users and addons from a RUNNING Unleash (6.x to 8.x)')
  .addOption(new Option('--from <url>', 'base URL of the Unleash, e.g. http://unleash.example.com').env('UNLEASH_URL').makeOptionMandatory())
  .addOption(new Option('--token <token>', "an admin API token of the Unleash (visible in the process list: prefer UNLEASH_TOKEN or --token-file)").env('UNLEASH_TOKEN'))
  .addOption(new Option('--token-file <file>', "read the Unleash's admin API token from this file").conflicts('token'))
  .addOption(new Option('--data-dir <dir>', 'write into this flagpole data directory (the service stopped; created when missing)').conflicts('to'))
  .addOption(new Option('--database-url <url>', 'write into this PostgreSQL database (the service stopped; default: DATABASE_URL when no other target is given)').conflicts(['to', 'dataDir']))
  .addOption(new Option('--to <url>', 'write into this RUNNING flagpole, e.g. http://127.0.0.1:4242'))
  .addOption(new Option('--to-token <token>', "an admin API token of the flagpole given with --to (prefer FLAGPOLE_TOKEN)").env('FLAGPOLE_TOKEN'))
  .option('--dry-run', 'read and plan, print what would be done, write nothing')
  .addOption(new Option('--timeout <seconds>', 'longest wait for one answer').default(30).argParser(seconds))
  .option('--addon-secrets <file>', 'the secrets of the Unleash\'s addons, which its API masks: {"<addon id>": {"<parameter>": "<value>"}} (docs/migration.md)')
  .action(async (options: MigrateFlags, command: Command) => {
    const usage = (message: string): never => command.error(`error: ${message}`, { exitCode: EXIT.usage, code: 'flagpole.migrate' });
    const url = (flag: string, value: string): URL => {
      try {
        return serviceUrl(value);
      } catch (error) {
        // Not commander's argParser: its message would repeat the value, which may hold a secret.
        return usage(`option '${flag}' ${(error as Error).message}`);
      }
    };
    const from = url('--from <url>', options.from);
    let token = options.token;
    if (options.tokenFile !== undefined) {
      try {
        token = readFileSync(options.tokenFile, 'utf8').trim();
      } catch (error) {
        usage(`cannot read --token-file ${options.tokenFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
    }
    if (!token) usage("the Unleash's admin token is missing: give UNLEASH_TOKEN, --token-file or --token");
    const targets = [options.dataDir, options.databaseUrl, options.to].filter((t) => t !== undefined).length;
    const fromEnv = targets === 0 && Boolean(run.env['DATABASE_URL'] || run.env['DATABASE_URL_FILE']);
    if (targets !== 1 && !fromEnv) usage('give the target: --data-dir D (a data directory), --database-url URL or DATABASE_URL (a PostgreSQL database), or --to URL (a running flagpole)');
    const database = options.databaseUrl !== undefined || fromEnv ? storeLocation({ databaseUrl: options.databaseUrl }, usage, run.env) : undefined;
    const to = options.to === undefined ? undefined : url('--to <url>', options.to);
    if (to && !options.toToken) usage("the flagpole's admin token is missing: give FLAGPOLE_TOKEN or --to-token");
    let secrets: AddonSecrets = {};
    if (options.addonSecrets !== undefined) {
      try {
        secrets = readAddonSecrets(options.addonSecrets);
      } catch (error) {
        usage((error as Error).message);
      }
    }

    const bar = progress('flags', run.stderr);
    let target: Target | null = null;
    try {
      const source = withAddonSecrets(await readUnleash({ url: from, token: token!, timeoutMs: options.timeout * 1000 }, (done, total) => bar.update(done, total)), secrets);
      bar.stop();
      run.say(`read Unleash ${source.version} at ${from.origin}: ${describe(source)}`);
      if (to) target = httpTarget(to, options.toToken!, options.timeout * 1000);
      else if (database) target = await dataDirTarget(database, run.env);
      else if (!options.dryRun || !await isNewDirectory(options.dataDir!)) target = await dataDirTarget(options.dataDir!, run.env);
      const writing = progress('flags written', run.stderr);
      const report = await migrateInto(source, target, {
        dryRun: options.dryRun ?? false, env: run.env,
        onProgress: (what, done, total) => { if (what === 'flags') writing.update(done, total); },
      });
      writing.stop();
      run.stdout.write(render(report, source, options.dryRun ?? false, target?.label ?? options.dataDir!));
      run.exitCode = report.failures.length > 0 ? EXIT.failure : EXIT.ok;
    } catch (error) {
      bar.stop();
      run.say(`migrate failed: ${error instanceof MigrateError ? error.message : (error as Error).stack ?? String(error)}`);
      run.exitCode = EXIT.failure;
    } finally {
      await target?.close();
    }
  });

function describe(source: SourceData): string {
  const archived = source.flags.filter((f) => f.archived).length;
  return `${source.projects.length} projects, ${source.flags.length} flags (${archived} archived), ${source.segments.length} segments, ${source.users.length} users, ${source.tokens.length} API tokens, ${source.addons.length} addons`;
}

/** The summary table, the notes, the tokens to re-create and the failures (standard output). */
export function render(report: Report, source: SourceData, dryRun: boolean, targetLabel: string): string {
  const lines: string[] = [];
  if (dryRun) {
    lines.push(`dry run: nothing was written to ${targetLabel}; it would do:`);
    lines.push(...(report.plan.length ? report.plan.map((l) => `  ${l}`) : ['  nothing: the target holds all of it already']), '');
  }
  const head = ['kind', 'found', 'created', 'updated', 'unchanged', 'skipped', 'failed'];
  const table = [head, ...report.rows.map((r) => [r.kind, r.found, r.created, r.updated, r.unchanged, r.skipped, r.failed].map(String))];
  const widths = head.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  for (const row of table) lines.push(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
  const notes = report.notes;
  if (notes.length) {
    lines.push('', 'notes (skipped, and what a flag could not carry as it was):');
    lines.push(...notes.slice(0, NOTES_SHOWN).map((n) => `  ${n}`));
    if (notes.length > NOTES_SHOWN) lines.push(`  ... and ${notes.length - NOTES_SHOWN} more`);
  }
  if (source.tokens.length) {
    lines.push('', `API tokens to re-create (skipped: their secrets cannot be read back), ${source.tokens.length}:`);
    for (const t of source.tokens) lines.push(`  ${JSON.stringify(t.tokenName)} type ${t.type}, projects ${t.projects.join(',') || '-'}, environment ${t.environment}`);
  }
  if (report.failures.length) {
    lines.push('', `failed (${report.failures.length}):`);
    lines.push(...report.failures.slice(0, NOTES_SHOWN).map((f) => `  ${f}`));
    if (report.failures.length > NOTES_SHOWN) lines.push(`  ... and ${report.failures.length - NOTES_SHOWN} more`);
  }
  return `${lines.join('\n')}\n`;
}
