/**
 * Bodies and paths of the context field and strategy definition routes (docs/api-decisions.md "Context fields
 * and strategy definitions"; Unleash 6.10's `createContextFieldSchema`, `updateContextFieldSchema`,
 * `createStrategySchema`, `updateStrategySchema`). The read-only fields Unleash answers (`createdAt`, usage
 * counts, `editable`, `deprecated`, `displayName`) are accepted and ignored, so an answer can be sent back.
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import { boundedString, integerIn, looseObject, nonEmptyString, notReserved, strictBoolean, strictObject } from './common.schema.js';
import { isUrlFriendly } from './formats.js';
import { mustBe } from './messages.js';

const { legalValues: maxLegalValues, definitionParameters, definitionDescription, constraintValue } = SHAPE_LIMITS;

/**
 * A context field or strategy definition name: 1 to 100 characters, URL-friendly, not reserved.
 *
 * @example v.parse(DefinitionNameSchema, 'region') // 'region'
 */
export const DefinitionNameSchema = v.pipe(
  nonEmptyString(SHAPE_LIMITS.name),
  v.check(isUrlFriendly, "must be URL-friendly (letters, digits and - _ . ! ~ * ' ( ) only, not . or ..)"),
  notReserved(),
);

const Description = v.optional(v.nullable(boundedString(definitionDescription)), null);
/** Ignored read-only fields of an answer sent back as a body. */
const ignored = { createdAt: v.optional(v.unknown()), usedInFeatures: v.optional(v.unknown()), usedInProjects: v.optional(v.unknown()) };

/** A legal value: `value` 1 to 100 characters (as Unleash), `description` optional. */
export const LegalValueSchema = v.pipe(
  strictObject({ value: nonEmptyString(constraintValue), description: v.optional(v.nullable(boundedString(definitionDescription))) }),
  v.transform(({ value, description }) => (description ? { value, description } : { value })),
);

const LegalValuesSchema = v.pipe(
  v.optional(v.nullable(v.array(LegalValueSchema, mustBe('an array of {value, description}'))), []),
  v.transform((values) => values ?? []),
  v.maxLength(maxLegalValues, `must hold at most ${maxLegalValues} legal values`),
  v.check((values) => new Set(values.map((l) => l.value)).size === values.length, 'must not list a value twice'),
);

/** The fields of a context field body besides its name (the import's context fields add Unleash 8's `project`). */
export const contextFieldEntries = {
  description: Description,
  legalValues: LegalValuesSchema,
  stickiness: v.optional(strictBoolean(), false),
  sortOrder: v.optional(integerIn(-1_000_000, 1_000_000)),
  ...ignored,
};

/** Body of `POST /api/admin/context` (and `/validate`, which reads only `name`). */
export const CreateContextFieldSchema = strictObject({ name: DefinitionNameSchema, ...contextFieldEntries });

/** Body of `PUT /api/admin/context/:contextField`: a `name` must equal the path's (checked by the route). */
export const UpdateContextFieldSchema = strictObject({ name: v.optional(v.string(mustBe('a string'))), ...contextFieldEntries });

/** Body of `POST /api/admin/context/validate`: `{name}`. */
export const ContextFieldNameBodySchema = strictObject({ name: DefinitionNameSchema });

export const ContextFieldParamsSchema = looseObject({ contextField: DefinitionNameSchema });

/** `/api/admin/context/:contextField/legal-values/:legalValue` */
export const LegalValueParamsSchema = looseObject({ contextField: DefinitionNameSchema, legalValue: nonEmptyString(constraintValue) });

/** The parameter types Unleash's UI offers. */
export const PARAMETER_TYPES = ['string', 'percentage', 'list', 'number', 'boolean'] as const;

/** One parameter of a strategy definition. */
export const StrategyParameterSchema = v.pipe(
  strictObject({
    name: DefinitionNameSchema,
    type: v.picklist(PARAMETER_TYPES, `must be one of ${PARAMETER_TYPES.map((t) => `"${t}"`).join(', ')}`),
    description: v.optional(v.nullable(boundedString(definitionDescription)), ''),
    required: v.optional(strictBoolean(), false),
  }),
  v.transform((p) => ({ ...p, description: p.description ?? '' })),
);

const strategyDefinitionEntries = {
  title: v.optional(v.nullable(boundedString(SHAPE_LIMITS.name)), null),
  description: Description,
  parameters: v.pipe(
    v.optional(v.array(StrategyParameterSchema, mustBe('an array of parameters')), []),
    v.maxLength(definitionParameters, `must hold at most ${definitionParameters} parameters`),
    v.check((ps) => new Set(ps.map((p) => p.name)).size === ps.length, 'must not name a parameter twice'),
  ),
  editable: v.optional(v.unknown()),
  deprecated: v.optional(v.unknown()),
  displayName: v.optional(v.unknown()),
};

/** Body of `POST /api/admin/strategies`. */
export const CreateStrategyDefinitionSchema = strictObject({ name: DefinitionNameSchema, ...strategyDefinitionEntries });

/** Body of `PUT /api/admin/strategies/:name`: a `name` must equal the path's (checked by the route). */
export const UpdateStrategyDefinitionSchema = strictObject({ name: v.optional(v.string(mustBe('a string'))), ...strategyDefinitionEntries });

export const StrategyDefinitionParamsSchema = looseObject({ name: DefinitionNameSchema });
export const StrategyDefinitionActionParamsSchema = looseObject({ strategyName: DefinitionNameSchema });
