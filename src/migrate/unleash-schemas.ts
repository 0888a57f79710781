/**
 * The shapes `flagpole migrate` relies on in Unleash's admin API answers (6.x, 7.x, 8.x). Loose: fields it
 * does not use are let through and ignored; a field it uses with the wrong type makes the answer malformed
 * (a clear message naming the route and the property, exit 1), never a crash further on.
 */
import * as v from 'valibot';

const str = v.string();
const optStr = v.optional(v.nullable(v.string()));
const optBool = v.optional(v.nullable(v.boolean()));

export const UiConfigSchema = v.looseObject({
  version: v.optional(v.string()),
  versionInfo: v.optional(v.looseObject({ current: v.optional(v.looseObject({ oss: v.optional(v.string()), enterprise: v.optional(v.string()) })) })),
});

export const EnvironmentsSchema = v.looseObject({
  environments: v.array(v.looseObject({ name: str, type: v.optional(str), sortOrder: v.optional(v.number()), enabled: optBool, protected: optBool })),
});

export const ProjectsSchema = v.looseObject({
  projects: v.array(v.looseObject({ id: str, name: str, description: optStr, mode: optStr, archivedAt: optStr })),
});

export const ConstraintSchema = v.looseObject({
  contextName: str, operator: str, values: v.optional(v.nullable(v.array(str))), value: v.optional(v.nullable(v.union([str, v.number()]))),
  caseInsensitive: optBool, inverted: optBool,
});

const PayloadSchema = v.looseObject({ type: str, value: str });
export const VariantSchema = v.looseObject({
  name: str, weight: v.optional(v.number()), weightType: optStr, stickiness: optStr, payload: v.optional(v.nullable(PayloadSchema)),
  overrides: v.optional(v.nullable(v.array(v.looseObject({ contextName: str, values: v.array(str) })))),
});

export const StrategySchema = v.looseObject({
  name: str, title: optStr, disabled: optBool, sortOrder: v.optional(v.nullable(v.number())),
  parameters: v.optional(v.nullable(v.record(str, v.union([str, v.number(), v.boolean()])))),
  constraints: v.optional(v.nullable(v.array(ConstraintSchema))),
  variants: v.optional(v.nullable(v.array(VariantSchema))),
  segments: v.optional(v.nullable(v.array(v.number()))),
});

export const OverviewSchema = v.looseObject({
  name: v.optional(str), description: optStr, mode: optStr, defaultStickiness: optStr,
  environments: v.optional(v.array(v.looseObject({ environment: str, defaultStrategy: v.optional(v.nullable(StrategySchema)) }))),
});

/** The flag detail, read for the order of strategies only. */
export const DetailSchema = v.looseObject({
  environments: v.optional(v.array(v.looseObject({ name: str, strategies: v.optional(v.array(v.looseObject({ id: str, sortOrder: v.optional(v.nullable(v.number())) }))) }))),
});

export const FeatureListSchema = v.looseObject({ features: v.array(v.looseObject({ name: str, environments: v.optional(v.array(v.looseObject({ name: str, enabled: optBool }))) })) });
export const SearchSchema = v.looseObject({ features: v.array(v.looseObject({ name: str, project: v.optional(str) })), total: v.optional(v.number()) });

/** `POST /api/admin/features-batch/export` for one environment: present in 6.x, 7.x and 8.x. */
export const ExportSchema = v.looseObject({
  features: v.array(v.looseObject({ name: str, description: optStr, type: optStr, project: v.optional(str), stale: optBool, impressionData: optBool, archived: optBool })),
  featureStrategies: v.optional(v.array(v.intersect([StrategySchema, v.looseObject({ featureName: str })])), []),
  featureEnvironments: v.optional(v.array(v.looseObject({ featureName: v.optional(str), name: v.optional(str), enabled: optBool, variants: v.optional(v.nullable(v.array(VariantSchema))) })), []),
  featureTags: v.optional(v.array(v.looseObject({ featureName: str, tagType: str, tagValue: str })), []),
  dependencies: v.optional(v.array(v.looseObject({ feature: str, dependencies: v.array(v.looseObject({ feature: str, enabled: optBool, variants: v.optional(v.nullable(v.array(str))) })) })), []),
});

export const SegmentsSchema = v.looseObject({
  segments: v.array(v.looseObject({ id: v.number(), name: str, description: optStr, project: optStr, constraints: v.optional(v.nullable(v.array(ConstraintSchema))) })),
});

export const TagTypesSchema = v.looseObject({ tagTypes: v.array(v.looseObject({ name: str, description: optStr, icon: optStr, color: optStr })) });

export const ContextFieldsSchema = v.array(v.looseObject({
  name: str, description: optStr, stickiness: optBool, sortOrder: v.optional(v.nullable(v.number())), project: optStr,
  legalValues: v.optional(v.nullable(v.array(v.looseObject({ value: str, description: optStr })))),
}));

export const StrategyDefinitionsSchema = v.looseObject({
  strategies: v.array(v.looseObject({
    name: str, title: optStr, displayName: optStr, description: optStr, editable: optBool, deprecated: optBool,
    parameters: v.optional(v.nullable(v.array(v.looseObject({ name: str, type: str, description: optStr, required: optBool })))),
  })),
});

export const UsersSchema = v.looseObject({
  users: v.array(v.looseObject({ id: v.number(), name: optStr, email: optStr, username: optStr, rootRole: v.optional(v.nullable(v.number())), isAPI: optBool })),
  rootRoles: v.optional(v.array(v.looseObject({ id: v.number(), name: str }))),
});

/** Enterprise's project access (`GET /api/admin/projects/:projectId/access`); OSS answers 404. */
export const AccessSchema = v.looseObject({
  roles: v.optional(v.array(v.looseObject({ id: v.number(), name: str }))),
  users: v.optional(v.array(v.looseObject({ id: v.number(), roleId: v.optional(v.number()), roles: v.optional(v.array(v.number())) }))),
});

/** API tokens: only what a listing for re-creation needs is kept; the secret Unleash answers is never read into the model. */
export const TokensSchema = v.looseObject({
  tokens: v.array(v.looseObject({ tokenName: v.optional(str), username: v.optional(str), type: str, projects: v.optional(v.array(str)), project: v.optional(str), environment: v.optional(str) })),
});

export type UnleashStrategy = v.InferOutput<typeof StrategySchema>;
export type UnleashVariant = v.InferOutput<typeof VariantSchema>;
export type UnleashConstraint = v.InferOutput<typeof ConstraintSchema>;

/** `GET /api/admin/addons` (its `addons`; sensitive parameters come masked, `*****`). */
export const AddonsSchema = v.looseObject({
  addons: v.array(v.looseObject({
    id: v.number(), provider: str, description: optStr, enabled: optBool,
    parameters: v.optional(v.record(v.string(), v.union([v.string(), v.number(), v.boolean()]))),
    events: v.optional(v.array(str)), projects: v.optional(v.array(str)), environments: v.optional(v.array(str)),
  })),
});
