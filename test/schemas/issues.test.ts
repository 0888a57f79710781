import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { formatIssues } from '../../src/schemas/issues.js';
import { CreateFeatureSchema } from '../../src/schemas/feature.schema.js';
import { StrategySchema } from '../../src/schemas/strategy.schema.js';
import { VariantsSchema } from '../../src/schemas/variant.schema.js';

const issuesOf = (schema: v.GenericSchema, input: unknown) => {
  const result = v.safeParse(schema, input);
  if (result.success) throw new Error('expected a failure');
  return result.issues;
};

describe('formatIssues', () => {
  it('names the property of a single issue', () => {
    expect(formatIssues(issuesOf(CreateFeatureSchema, { name: 'a b' }))).toEqual({
      message: `"name": must be URL-friendly (letters, digits and - _ . ! ~ * ' ( ) only, not . or ..)`,
      details: [{ message: `"name": must be URL-friendly (letters, digits and - _ . ! ~ * ' ( ) only, not . or ..)` }],
    });
  });

  it('names nested properties with a dot path', () => {
    const { message } = formatIssues(
      issuesOf(StrategySchema, { name: 'default', constraints: [{ contextName: 'u', operator: 'IN', values: [] }] }),
    );
    expect(message).toBe('"constraints.0.values": operator IN needs at least one non-empty value');
  });

  it('leaves rules about the whole input unprefixed', () => {
    const { message } = formatIssues(issuesOf(VariantsSchema, [{ name: 'a', weightType: 'fix', weight: 10 }]));
    expect(message).toBe('a non-empty variant list needs at least one variant with weightType "variable"');
  });

  it('lists every issue in details and the first three in the message', () => {
    const result = formatIssues(issuesOf(CreateFeatureSchema, { name: 1, description: 2, type: 3, impressionData: 4, extra: 5 }));
    expect(result.details.map((d) => d.message)).toEqual([
      '"name": must be a string, got 1',
      '"description": must be a string, got 2',
      '"type": must be one of release, experiment, operational, kill-switch, permission, got 3',
      '"impressionData": must be a boolean, got 4',
      '"extra": is not a known property',
    ]);
    expect(result.message).toBe(
      '"name": must be a string, got 1; "description": must be a string, got 2; ' +
        '"type": must be one of release, experiment, operational, kill-switch, permission, got 3; and 2 more',
    );
  });

  it('says each thing once', () => {
    const issue = issuesOf(CreateFeatureSchema, {})[0]!;
    expect(formatIssues([issue, issue]).details).toHaveLength(1);
  });

  it('still answers something for no issues', () => {
    expect(formatIssues([])).toEqual({ message: 'invalid input', details: [] });
  });
});
