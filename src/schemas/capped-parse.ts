/**
 * Validation whose cost on bad input is bounded. valibot collects every issue: a 1 MiB body of a
 * third of a million junk array items costs it about a second and as many issue objects, of which an
 * error body shows ten. `abortEarly` stops at the first issue, which shows one. This stops after a hundred.
 */
import * as v from 'valibot';

/**
 * Most issues one validation collects: at least ten distinct ones to show (valibot consults the limit once
 * per issue and once per array or object level it passes through, so a deep schema stops a few issues
 * short of it), at most a fraction of a millisecond of work.
 */
export const ISSUES_COLLECTED_MAX = 100;

/** A `v.safeParse` result, and whether issues were left uncollected. */
export type CappedParseResult<S extends v.GenericSchema> = v.SafeParseResult<S> & { capped: boolean };

/**
 * `v.safeParse` that stops once it has collected `max` issues; the issues it gives are the first ones a
 * full parse would give, in the same order, and a valid input parses exactly as with `v.safeParse`.
 *
 * It relies on valibot reading `config.abortEarly` each time it records an issue and each time an array,
 * object or pipe decides whether to go on after one (valibot 1.x does; test/hardening/capped-parse.test.ts
 * holds it to that): the getter below turns `abortEarly` on once the count passes `max`. It calls the
 * schema's `~run`, which is what `v.safeParse` does with a plain config object.
 *
 * @example
 * const r = safeParseCapped(BatchFeaturesSchema, { features: Array(500_000).fill(1) });
 * // r.success === false, r.issues.length <= 100, r.capped === true, in well under a millisecond
 */
export function safeParseCapped<const S extends v.GenericSchema>(schema: S, input: unknown, max: number = ISSUES_COLLECTED_MAX): CappedParseResult<S> {
  const global = v.getGlobalConfig<v.InferIssue<S>>();
  let seen = 0;
  const config: v.Config<v.InferIssue<S>> = {
    lang: global.lang,
    message: global.message,
    abortPipeEarly: global.abortPipeEarly,
    get abortEarly() {
      seen += 1;
      return global.abortEarly === true || seen > max;
    },
  };
  const dataset = schema['~run']({ value: input }, config);
  const result = { typed: dataset.typed, success: !dataset.issues, output: dataset.value, issues: dataset.issues } as v.SafeParseResult<S>;
  return { ...result, capped: seen > max };
}
