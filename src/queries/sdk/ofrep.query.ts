/**
 * OFREP evaluation (docs/client-contract.md "OpenFeature (OFREP)"): the flags of a scope, evaluated for a context by the
 * same compiled flags and engine as the frontend API (`EvaluationQuery`), in OFREP's answer shape.
 */
import { evaluate, type CompiledFlag, type Evaluation, type EvaluationContext } from '../../domain/evaluation/index.js';
import type { EvaluationQuery, EvaluationScope } from './evaluation.query.js';

/** The OpenFeature reasons flagpole answers. */
export type OfrepReason = 'DISABLED' | 'TARGETING_MATCH' | 'SPLIT';

/** One flag's OFREP evaluation (`EvaluationSuccessResponse`). */
export interface OfrepResolution {
  key: string;
  value: boolean | string | number | object;
  reason: OfrepReason;
  variant?: string;
  /** Flag metadata: primitives only, as OpenFeature's `FlagMetadata` wants. */
  metadata: { project: string; impressionData: boolean };
}

/**
 * The value of an evaluation: off → `false` (`DISABLED`); on without a variant → `true` (`TARGETING_MATCH`);
 * on with a variant → its payload typed (`json` parsed, `number` a number, `string` and `csv` as text), or
 * `true` when it has none, `variant` its name, reason `SPLIT`.
 *
 * @example resolutionOf(flag, { enabled: true, variant: { name: 'blue', enabled: true, payload: { type: 'number', value: '3' }, ... } }, 'default') // value 3, variant 'blue'
 */
export function resolutionOf(flag: CompiledFlag, result: Evaluation, project: string): OfrepResolution {
  const metadata = { project, impressionData: flag.impressionData };
  if (!result.enabled) return { key: flag.name, value: false, reason: 'DISABLED', metadata };
  const variant = result.variant;
  if (!variant.enabled) return { key: flag.name, value: true, reason: 'TARGETING_MATCH', metadata };
  return { key: flag.name, value: variant.payload ? payloadValue(variant.payload) : true, reason: 'SPLIT', variant: variant.name, metadata };
}

/** A payload as a typed value (payloads are checked on write: a json one parses, a number one is numeric). */
function payloadValue(payload: { type: string; value: string }): string | number | object {
  if (payload.type === 'json') {
    try {
      return JSON.parse(payload.value) as object;
    } catch {
      return payload.value;
    }
  }
  if (payload.type === 'number') {
    const n = Number(payload.value);
    return Number.isFinite(n) ? n : payload.value;
  }
  return payload.value;
}

export class OfrepQuery {
  constructor(private readonly evaluation: EvaluationQuery) {}

  /** Every active flag of the scope, evaluated for `context`, sorted by key. */
  bulk(scope: EvaluationScope, context: EvaluationContext): OfrepResolution[] {
    const resolutions: OfrepResolution[] = [];
    for (const project of this.evaluation.projectsOf(scope)) {
      const flags = this.evaluation.flagsOf(project, scope.environment);
      if (!flags) continue;
      for (const flag of flags.values()) resolutions.push(resolutionOf(flag, evaluate(flag, context, flags), project));
    }
    return resolutions.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** One flag of the scope evaluated for `context`; undefined when no active flag of the scope has that name. */
  one(scope: EvaluationScope, context: EvaluationContext, key: string): OfrepResolution | undefined {
    for (const project of this.evaluation.projectsOf(scope)) {
      const flags = this.evaluation.flagsOf(project, scope.environment);
      const flag = flags?.get(key);
      if (flag) return resolutionOf(flag, evaluate(flag, context, flags), project);
    }
    return undefined;
  }
}
