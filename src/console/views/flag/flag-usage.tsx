/** @jsxImportSource hono/jsx */
/**
 * Usage from the metrics SDKs send: per environment, when the flag was last seen and its yes/no counts of the
 * last 48 hours as a small bar chart (an SVG image with a text summary), with the hourly figures in a table.
 */
import type { FlagPageModel, UsageHour } from './flag-model.js';
import { When } from '../form-parts.js';

const HOURS = 48;
const HOUR = 3_600_000;
const BAR = 10;
const HEIGHT = 48;

interface Series {
  environment: string;
  lastSeenAt: string | null;
  /** Oldest first, one entry per hour (zeros where nothing was reported). */
  hours: { at: number; yes: number; no: number }[];
  yes: number;
  no: number;
}

/** The hourly counts of one environment over the last 48 hours ending with the current hour. */
function seriesOf(usage: UsageHour[], environment: string, lastSeenAt: string | null, now: number): Series {
  const end = Math.floor(now / HOUR) * HOUR;
  const byHour = new Map<number, { yes: number; no: number }>();
  for (const h of usage) if (h.environment === environment) byHour.set(Date.parse(h.hour), { yes: h.yes, no: h.no });
  const hours = Array.from({ length: HOURS }, (_, i) => {
    const at = end - (HOURS - 1 - i) * HOUR;
    return { at, ...(byHour.get(at) ?? { yes: 0, no: 0 }) };
  });
  return { environment, lastSeenAt, hours, yes: hours.reduce((n, h) => n + h.yes, 0), no: hours.reduce((n, h) => n + h.no, 0) };
}

function Chart({ series }: { series: Series }) {
  const top = Math.max(1, ...series.hours.map((h) => h.yes + h.no));
  const scale = (n: number) => Math.round((n / top) * HEIGHT * 10) / 10;
  const label = `${series.environment}: ${series.yes} yes and ${series.no} no in the last 48 hours`;
  return (
    <svg class="usage-chart" viewBox={`0 0 ${HOURS * BAR} ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label={label}>
      <line x1="0" y1={HEIGHT - 0.5} x2={HOURS * BAR} y2={HEIGHT - 0.5} class="axis" />
      {series.hours.map((h, i) => {
        const yes = scale(h.yes);
        const no = scale(h.no);
        return (
          <g>
            {h.no > 0 ? <rect x={i * BAR + 1} y={HEIGHT - no} width={BAR - 2} height={no} class="bar-no" /> : null}
            {h.yes > 0 ? <rect x={i * BAR + 1} y={HEIGHT - no - yes} width={BAR - 2} height={yes} class="bar-yes" /> : null}
          </g>
        );
      })}
    </svg>
  );
}

function Figures({ series }: { series: Series }) {
  const reported = series.hours.filter((h) => h.yes + h.no > 0);
  if (reported.length === 0) return null;
  return (
    <details class="figures">
      <summary>Hourly figures for {series.environment}</summary>
      <div class="table-wrap">
        <table class="mini-table">
          <thead><tr><th scope="col">Hour (UTC)</th><th scope="col">Yes</th><th scope="col">No</th></tr></thead>
          <tbody>{reported.map((h) => <tr><td><When at={new Date(h.at).toISOString()} /></td><td>{h.yes}</td><td>{h.no}</td></tr>)}</tbody>
        </table>
      </div>
    </details>
  );
}

/** The usage section. */
export function FlagUsage({ model, now = Date.now() }: { model: FlagPageModel; now?: number }) {
  const all = model.environments.map((e) => seriesOf(model.usage, e.name, e.lastSeenAt, now));
  return (
    <section class="card" aria-labelledby="usage-title">
      <h2 id="usage-title">Usage</h2>
      <p class="muted">What SDKs reported in the last 48 hours: <span class="key key-yes">yes</span> and <span class="key key-no">no</span> per hour.</p>
      <ul class="usage-list" role="list">
        {all.map((s) => (
          <li class="usage">
            <div class="usage-head">
              <h3>{s.environment}</h3>
              <p class="muted">last seen <When at={s.lastSeenAt} /> · <strong>{s.yes}</strong> yes · <strong>{s.no}</strong> no</p>
            </div>
            {s.yes + s.no > 0 ? <Chart series={s} /> : <p class="muted">No evaluations reported.</p>}
            <Figures series={s} />
          </li>
        ))}
      </ul>
    </section>
  );
}
