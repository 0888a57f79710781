import * as v from 'valibot';

/**
 * The kinds of environment variable the configuration reads, as valibot schemas over the raw text (absent or
 * empty: the default; an absent key is read as empty, since an object schema skips the pipe of a missing key). Each is made for one variable, whose name its message carries, so a bad value stops
 * the start with a sentence naming the variable and what it takes.
 */

/** A variable's schema: the raw text (or undefined) in, the setting out. */
export type Var<T> = v.GenericSchema<string | undefined, T>;

const unset = (raw: string | undefined): raw is undefined | '' => raw === undefined || raw === '';

/** Text of `raw` fit for a message: at most `max` characters. */
const shown = (raw: unknown, max = 50): string => String(raw).slice(0, max);

/**
 * An integer from `min` to `max`; `fallback` when unset.
 *
 * @example integerVar('PORT', 4242, 0, 65535) // "PORT must be an integer from 0 to 65535, got "eighty""
 */
export function integerVar(name: string, fallback: number, min: number, max: number): Var<number> {
  const fits = (n: number) => Number.isInteger(n) && n >= min && n <= max;
  return v.pipe(
    v.optional(v.string(), ''),
    v.check((raw) => unset(raw) || fits(Number(raw)), (issue) => `${name} must be an integer from ${min} to ${max}, got "${shown(issue.input, 200)}"`),
    v.transform((raw) => (unset(raw) ? fallback : Number(raw))),
  );
}

/** `true`/`false` (also `1`/`0`); `fallback` when unset. */
export function booleanVar(name: string, fallback: boolean): Var<boolean> {
  return v.pipe(
    v.optional(v.string(), ''),
    v.check((raw) => unset(raw) || ['true', '1', 'false', '0'].includes(raw), (issue) => `${name} must be "true" or "false", got "${shown(issue.input)}"`),
    v.transform((raw) => (unset(raw) ? fallback : raw === 'true' || raw === '1')),
  );
}

/** A positive number of `unit`s (decimals allowed, so a test can ask for seconds) up to 1,000,000, as milliseconds. */
export function durationVar(name: string, fallback: number, unitMs: number): Var<number> {
  return v.pipe(
    v.optional(v.string(), ''),
    v.check((raw) => {
      const n = Number(raw);
      return unset(raw) || (Number.isFinite(n) && n > 0 && n <= 1_000_000);
    }, (issue) => `${name} must be a positive number up to 1000000, got "${shown(issue.input)}"`),
    v.transform((raw) => (unset(raw) ? fallback * unitMs : Math.max(1, Math.round(Number(raw) * unitMs)))),
  );
}

/** One of `choices`; `fallback` when unset (a function: a default that depends on where the process runs). */
export function choiceVar<const C extends string>(name: string, choices: readonly C[], fallback: C | (() => C), normalize: (raw: string) => string = (raw) => raw): Var<C> {
  const listed = choices.length === 2 ? `"${choices[0]}" or "${choices[1]}"` : `one of ${choices.join(', ')}`;
  return v.pipe(
    v.optional(v.string(), ''),
    v.check((raw) => unset(raw) || (choices as readonly string[]).includes(normalize(raw)), (issue) => `${name} must be ${listed}, got "${shown(issue.input, 200)}"`),
    v.transform((raw) => (unset(raw) ? (typeof fallback === 'function' ? fallback() : fallback) : normalize(raw) as C)),
  );
}

/** Comma-separated items, trimmed, empty ones dropped; `fallback` when the variable is absent. */
export function listVar(fallback = ''): Var<string[]> {
  return v.pipe(
    v.optional(v.string(), fallback),
    v.transform((raw) => raw.split(',').map((s) => s.trim()).filter((s) => s.length > 0)),
  );
}

/** Text, `fallback` when unset. */
export function textVar(fallback: string): Var<string> {
  return v.pipe(v.optional(v.string(), ''), v.transform((raw) => (unset(raw) ? fallback : raw)));
}

/** Text as given, or undefined when absent (empty text is kept: some variables tell empty from absent). */
export function optionalVar(): Var<string | undefined> {
  return v.optional(v.string());
}

/** The first issue of a failed parse, as the start's message. */
export function firstIssue(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues[0]?.message ?? 'the configuration is not valid';
}
