/** The variants rows of the flag page's forms: rows to the API's body, overrides as lines, messages to fields. */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { variantDraftOf, variantDraftsFromForm, variantFieldOf, variantsBodyOf } from '../../../src/http/console/variant-form-fields.js';
import { formatIssues } from '../../../src/schemas/issues.js';
import { VariantsSchema } from '../../../src/schemas/variant.schema.js';

const form = (fields: Record<string, string>) => Object.assign(Object.create(null) as Record<string, string>, fields);

describe('the variants rows', () => {
  it('become the API\'s list: percent weights, overrides from lines, removed and empty new rows left out', () => {
    const rows = variantDraftsFromForm(form({
      'variants.0.name': 'blue', 'variants.0.weightType': 'fix', 'variants.0.weight': '33.3', 'variants.0.stickiness': '', 'variants.0.payloadType': 'string', 'variants.0.payloadValue': ' b ', 'variants.0.overrides': 'userId: 7, 12\nappName:web',
      'variants.1.name': 'gone', 'variants.1.weightType': 'variable', 'variants.1.remove': 'on',
      'variants.2.name': 'green', 'variants.2.weightType': 'variable', 'variants.2.weight': '',
      'variants.3.name': '', 'variants.3.new': 'true', 'variants.3.weightType': 'variable',
    }));
    const parsed = v.parse(VariantsSchema, variantsBodyOf(rows));
    expect(parsed).toMatchObject([
      { name: 'blue', weightType: 'fix', weight: 333, stickiness: 'default', payload: { type: 'string', value: ' b ' }, overrides: [{ contextName: 'userId', values: ['7', '12'] }, { contextName: 'appName', values: ['web'] }] },
      { name: 'green', weightType: 'variable', weight: 0, overrides: [] },
    ]);
    expect(variantDraftOf(parsed[0]!).overrides).toBe('userId: 7, 12\nappName: web');
    expect(variantsBodyOf(rows, false)[0]).not.toHaveProperty('overrides');
  });

  it('names the field of the API\'s message', () => {
    const result = v.safeParse(VariantsSchema, variantsBodyOf(variantDraftsFromForm(form({ 'variants.0.name': 'a', 'variants.0.weightType': 'variable', 'variants.0.payloadType': 'json', 'variants.0.payloadValue': '{' }))));
    expect(result.success).toBe(false);
    expect(variantFieldOf(formatIssues(result.issues!).message)).toBe('variants.0.payloadValue');
    expect(variantFieldOf('"variants.2.overrides.0.contextName": must be ...')).toBe('variants.2.overrides');
    expect(variantFieldOf('"1.weight": must be ...')).toBe('variants.1.weight');
  });
});
