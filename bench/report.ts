import os from 'node:os';
import type { LoadResult } from './load.js';
import type { ScaleRow } from './scale.js';
import type { Goal } from './scenarios.js';

/** Result of one scenario on flagpole, and on the `--vs` server when there is one. */
export interface ScenarioRow {
  name: string;
  goal: Goal | undefined;
  flagpole: LoadResult;
  other: LoadResult | undefined;
}

/** Everything a report is made of. */
export interface Report {
  date: Date;
  options: Record<string, unknown>;
  scenarios: ScenarioRow[];
  scale: ScaleRow[];
  /** The streaming phase (bench/streams.ts); absent or empty when skipped. */
  streams?: ScaleRow[];
  /** The PostgreSQL phase: writes on PostgreSQL beside LevelDB (`--store pg`). */
  stores?: ScaleRow[];
  /** The console phase (bench/console-table.ts, bench/console-history.ts); absent or empty when skipped. */
  console?: ScaleRow[];
  notes: string[];
}

const ms = (value: number): string => (Number.isFinite(value) ? value.toFixed(2) : 'n/a');
const rps = (value: number): string => Math.round(value).toLocaleString('en-US');
const yesNo = (met: boolean | undefined): string => (met === undefined ? '' : met ? 'yes' : '**no**');

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Whether a run meets its goal: enough req/s, p99 low enough, and no non-2xx answer at all. */
export function meetsGoal(result: LoadResult, goal: Goal | undefined): boolean | undefined {
  if (goal === undefined) return result.failures === 0 ? undefined : false;
  return result.rps >= goal.minRps && result.p99Ms <= goal.maxP99Ms && result.failures === 0;
}

/** The main table: one line per scenario, flagpole's figures against its goal. */
export function scenarioTable(rows: ScenarioRow[]): string {
  return table(
    ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'server CPU µs/req', 'target', 'met?'],
    rows.map((row) => [
      row.name,
      rps(row.flagpole.rps),
      ms(row.flagpole.p50Ms),
      ms(row.flagpole.p99Ms),
      String(row.flagpole.failures),
      row.flagpole.serverCpuUs === undefined ? 'n/a' : row.flagpole.serverCpuUs.toFixed(0),
      row.goal ? `≥ ${rps(row.goal.minRps)} req/s, p99 ≤ ${row.goal.maxP99Ms} ms` : '',
      yesNo(meetsGoal(row.flagpole, row.goal)),
    ]),
  );
}

/**
 * The side-by-side table of a `--vs` or `--against` run; ratio is flagpole's req/s over the other server's, and
 * the CPU ratio its server CPU per request over the other's (when both were measured: `--against`).
 */
export function comparisonTable(rows: ScenarioRow[], otherLabel: string): string {
  const cpu = (result: LoadResult) => (result.serverCpuUs === undefined ? 'n/a' : result.serverCpuUs.toFixed(0));
  return table(
    ['scenario', 'flagpole req/s', `${otherLabel} req/s`, 'ratio', 'flagpole p50 / p99 ms', `${otherLabel} p50 / p99 ms`, 'non-2xx (flagpole / other)', 'server CPU µs/req (flagpole / other)', 'CPU ratio'],
    rows.flatMap((row) => {
      const other = row.other;
      if (other === undefined) return [];
      const ratio = other.rps > 0 ? `${(row.flagpole.rps / other.rps).toFixed(2)}×` : 'n/a';
      const cpuRatio = row.flagpole.serverCpuUs !== undefined && other.serverCpuUs ? `${(row.flagpole.serverCpuUs / other.serverCpuUs).toFixed(2)}×` : 'n/a';
      return [[
        row.name,
        rps(row.flagpole.rps),
        rps(other.rps),
        ratio,
        `${ms(row.flagpole.p50Ms)} / ${ms(row.flagpole.p99Ms)}`,
        `${ms(other.p50Ms)} / ${ms(other.p99Ms)}`,
        `${row.flagpole.failures} / ${other.failures}`,
        `${cpu(row.flagpole)} / ${cpu(other)}`,
        cpuRatio,
      ]];
    }),
  );
}

/** The scale table: memory, disk, restart, and large list / overview reads. */
export function scaleTable(rows: ScaleRow[]): string {
  return table(['measure', 'value', 'target', 'met?'], rows.map((row) => [row.measure, row.value, row.goal, yesNo(row.met)]));
}

/** The machine the run happened on, as the report states it. */
export function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ` +
    `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

/** The whole report as markdown: what `npm run bench` prints and writes to `bench/results.md`. */
export function renderReport(report: Report, otherLabel: string): string {
  const parts = [
    '# flagpole benchmark results',
    '',
    `- date: ${report.date.toISOString()}`,
    `- machine: ${machine()}`,
    `- options: ${JSON.stringify(report.options)}`,
    '- load generator: autocannon, on the same machine; latencies are of 2xx answers',
  ];
  if (report.scenarios.length > 0) parts.push('', '## Request rate', '', scenarioTable(report.scenarios));
  if (report.scenarios.some((row) => row.other !== undefined)) {
    parts.push('', `## Side by side with ${otherLabel}`, '', comparisonTable(report.scenarios, otherLabel));
  }
  if (report.scale.length > 0) parts.push('', '## Scale', '', scaleTable(report.scale));
  if (report.streams && report.streams.length > 0) {
    parts.push('', '## Streaming (SSE clients in separate load processes)', '', scaleTable(report.streams));
  }
  if (report.stores && report.stores.length > 0) {
    parts.push('', '## Writes on PostgreSQL beside LevelDB (same machine, alternately)', '', scaleTable(report.stores));
  }
  if (report.console && report.console.length > 0) {
    parts.push('', '## Console (pages and history queries, in process)', '', scaleTable(report.console));
  }
  if (report.notes.length > 0) parts.push('', '## Notes', '', ...report.notes.map((note) => `- ${note}`));
  return `${parts.join('\n')}\n`;
}
