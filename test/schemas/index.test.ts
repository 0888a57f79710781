import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import * as schemas from '../../src/schemas/index.js';

const exported = (Object.entries(schemas) as [string, unknown][]).filter(
  (entry): entry is [string, v.GenericSchema] => entry[0].endsWith('Schema') && typeof entry[1] === 'object',
);

describe('src/schemas/index', () => {
  it('re-exports the schemas the routes code against', () => {
    for (const name of [
      'FlagNameSchema', 'ProjectIdSchema', 'EnvironmentNameSchema', 'StrategyIdSchema', 'IntIdParamSchema',
      'FeatureParamsSchema', 'CreateFeatureSchema', 'UpdateFeatureSchema', 'FeatureRecordSchema', 'CloneFeatureSchema',
      'BatchFeaturesSchema', 'ReviveSchema', 'ConstraintSchema', 'StrategySchema', 'StrategyRecordSchema',
      'VariantSchema', 'VariantsSchema', 'VariantPatchResultSchema', 'JsonPatchSchema', 'CreateProjectSchema',
      'CreateEnvironmentSchema', 'ProjectEnvironmentSchema', 'CreateUserSchema', 'CreateApiTokenSchema',
      'CreatePersonalTokenSchema', 'MembershipBodySchema',
    ]) {
      expect(schemas, name).toHaveProperty(name);
    }
    expect(typeof schemas.formatIssues).toBe('function');
    expect(typeof schemas.distributeWeights).toBe('function');
  });

  // The OpenAPI document is generated from these schemas; checks and
  // transforms have no JSON Schema form and are skipped, the structure must stay.
  it.each(exported)('%s converts to JSON Schema', (_name, schema) => {
    expect(() => toJsonSchema(schema, { errorMode: 'ignore' })).not.toThrow();
  });

  it('keeps properties, required keys and defaults in the JSON Schema of a body', () => {
    const json = toJsonSchema(schemas.CreateFeatureSchema, { errorMode: 'ignore' });
    expect(json).toMatchObject({
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: { type: { enum: ['release', 'experiment', 'operational', 'kill-switch', 'permission', 'sunset'], default: 'release' } },
    });
  });
});
