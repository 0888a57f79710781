/** @jsxImportSource hono/jsx */
/** Moments as the history pages show and ask for them: in UTC, readable, with the exact time in `datetime`. */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/**
 * An ISO time as a person reads it: `27 Nov 2026, 15:20:31 UTC`.
 *
 * @example readableTime('2026-11-27T15:20:31.120Z') // '27 Nov 2026, 15:20:31 UTC'
 */
export function readableTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} UTC`;
}

/**
 * The value of a `datetime-local` input for an ISO time (UTC, to the millisecond when it has one), or '' for none.
 *
 * @example inputTime('2026-11-27T15:20:31.120Z') // '2026-11-27T15:20:31.120'
 */
export function inputTime(iso: string | undefined): string {
  if (!iso) return '';
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const text = new Date(time).toISOString().slice(0, -1);
  return text.endsWith('.000') ? text.slice(0, -4) : text;
}

/** A `<time>` element: the readable text, the exact moment in `datetime`. */
export function Time({ iso }: { iso: string }) {
  return <time datetime={iso}>{readableTime(iso)}</time>;
}

/** A labelled `datetime-local` input in UTC, with seconds. */
export function MomentInput({ id, name, label, value, required }: { id: string; name: string; label: string; value: string | undefined; required?: boolean }) {
  return (
    <div class="field">
      <label for={id}>{label} <span class="muted">(UTC)</span></label>
      <input type="datetime-local" id={id} name={name} step="0.001" value={inputTime(value)} required={required} />
    </div>
  );
}
