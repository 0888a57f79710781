/**
 * The official Unleash client-specification vectors (`@unleash/client-specification`),
 * loaded and adapted to the engine's input: each file's `state` (a client-features
 * answer) becomes flag definitions and a segment lookup.
 *
 * Files listed in `index.json` that are not loaded, and why:
 * - 19-delta-api-hydration, 20-delta-api-events: their `state` is a delta stream
 *   (`{events: [...]}`), which tests how an SDK applies hydration and update events
 *   to its cache, not how a flag evaluates. Flagpole's delta endpoint is tested there.
 * - 21-regex-constraint-operators: the REGEX operator is not one of flagpole's (or
 *   Unleash 6.10's) 15 operators, so no stored flag can carry it, and its vectors pin
 *   RE2 syntax (`[[:alpha:]]`, mid-pattern `(?i)`, rejected look-ahead and
 *   back-references) that JavaScript's RegExp cannot reproduce without an RE2 engine.
 *   The engine treats REGEX as an unknown operator (false).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type {
  ConstraintDefinition,
  FlagDefinition,
  SegmentDefinition,
  SegmentLookup,
  StrategyDefinition,
  VariantDefinition,
} from '../../src/domain/evaluation/index.js';
import type { EvaluationContext } from '../../src/domain/evaluation/index.js';
import type { Payload } from '../../src/domain/types.js';

/** Spec files that are not evaluation vectors or not expressible in flagpole; see the file comment. */
export const NOT_LOADED: Readonly<Record<string, string>> = {
  '19-delta-api-hydration.json': 'delta API hydration (SDK cache behaviour, not evaluation)',
  '20-delta-api-events.json': 'delta API events (SDK cache behaviour, not evaluation)',
  '21-regex-constraint-operators.json': 'REGEX is not a flagpole operator and needs RE2 semantics',
};

/**
 * Vectors inside loaded files that the engine cannot pass, by `file: description`,
 * with the reason. Empty: every loaded vector passes.
 */
export const KNOWN_FAILURES: Readonly<Record<string, string>> = {};

interface SpecConstraint { contextName: string; operator: string; values?: string[]; value?: string; caseInsensitive?: boolean; inverted?: boolean }
interface SpecVariant { name: string; weight: number; weightType?: string; stickiness?: string; payload?: Payload; overrides?: { contextName: string; values: string[] }[] }
interface SpecStrategy { id?: string; name: string; parameters?: Record<string, unknown> | null; constraints?: SpecConstraint[] | null; segments?: number[] | null; variants?: SpecVariant[] | null }
export interface SpecFeature { name: string; enabled: boolean; impressionData?: boolean; strategies?: SpecStrategy[] | null; variants?: SpecVariant[] | null; dependencies?: { feature: string; enabled?: boolean; variants?: string[] }[] }
export interface SpecSegment { id: number; name?: string; constraints: SpecConstraint[] }

export interface SpecTest { description: string; context: EvaluationContext; toggleName: string; expectedResult: boolean }
export interface SpecVariantTest {
  description: string;
  context: EvaluationContext;
  toggleName: string;
  expectedResult: { name: string; enabled: boolean; feature_enabled: boolean; payload?: Payload };
}

export interface SpecFile {
  file: string;
  /** The file's `state` as published, for feeding the real SDK. */
  state: { features: unknown[]; segments?: unknown[] };
  definitions: FlagDefinition[];
  segments: SegmentLookup;
  tests: SpecTest[];
  variantTests: SpecVariantTest[];
}

const specDir = dirname(createRequire(import.meta.url).resolve('@unleash/client-specification/specifications/index.json'));

function constraint(c: SpecConstraint): ConstraintDefinition {
  return c;
}

function variant(v: SpecVariant): VariantDefinition {
  return v;
}

/** Parameters arrive as strings from Unleash 6.10; the spec's are strings too, but coerce to be sure. */
function strategy(s: SpecStrategy): StrategyDefinition {
  const parameters: Record<string, string> = {};
  for (const [key, value] of Object.entries(s.parameters ?? {})) parameters[key] = String(value);
  return {
    ...(s.id !== undefined ? { id: s.id } : {}),
    name: s.name,
    parameters,
    constraints: (s.constraints ?? []).map(constraint),
    segments: s.segments ?? [],
    variants: (s.variants ?? []).map(variant),
  };
}

function feature(f: SpecFeature): FlagDefinition {
  return {
    name: f.name,
    enabled: f.enabled,
    impressionData: f.impressionData ?? false,
    strategies: (f.strategies ?? []).map(strategy),
    variants: (f.variants ?? []).map(variant),
    ...(f.dependencies ? { dependencies: f.dependencies } : {}),
  };
}

/** A client-features `state` (the spec's, or any written the same way) as engine input. */
export function adaptState(state: { features: SpecFeature[]; segments?: SpecSegment[] }): { definitions: FlagDefinition[]; segments: SegmentLookup } {
  const segments = new Map<number, SegmentDefinition>(
    (state.segments ?? []).map((s) => [s.id, { id: s.id, name: s.name ?? `segment-${s.id}`, constraints: s.constraints.map(constraint) }]),
  );
  return { definitions: state.features.map(feature), segments: (id: number) => segments.get(id) };
}

/** Every spec file `index.json` lists, minus `NOT_LOADED`, adapted. */
export function loadSpecFiles(): SpecFile[] {
  const index = JSON.parse(readFileSync(join(specDir, 'index.json'), 'utf8')) as string[];
  return index
    .filter((file) => !Object.hasOwn(NOT_LOADED, file))
    .map((file) => {
      const spec = JSON.parse(readFileSync(join(specDir, file), 'utf8')) as {
        state: { features: SpecFeature[]; segments?: SpecSegment[] };
        tests?: SpecTest[];
        variantTests?: SpecVariantTest[];
      };
      return { file, state: spec.state, ...adaptState(spec.state), tests: spec.tests ?? [], variantTests: spec.variantTests ?? [] };
    });
}

/** Every file `index.json` lists, loaded or not. */
export function listedSpecFiles(): string[] {
  return JSON.parse(readFileSync(join(specDir, 'index.json'), 'utf8')) as string[];
}
