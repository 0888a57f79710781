import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { DETAILS_MAX, ISSUE_TEXT_MAX, formatIssues } from '../../src/schemas/issues.js';
import { BatchFeaturesSchema } from '../../src/schemas/feature.schema.js';
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
      details: [{ message: `"name": must be URL-friendly (letters, digits and - _ . ! ~ * ' ( ) only, not . or ..)`, path: 'name' }],
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
      '"type": must be one of release, experiment, operational, kill-switch, permission, sunset, got 3',
      '"impressionData": must be a boolean, got 4',
      '"extra": is not a known property',
    ]);
    expect(result.message).toBe(
      '"name": must be a string, got 1; "description": must be a string, got 2; ' +
        '"type": must be one of release, experiment, operational, kill-switch, permission, sunset, got 3; and 2 more',
    );
  });

  it('says each thing once', () => {
    const issue = issuesOf(CreateFeatureSchema, {})[0]!;
    expect(formatIssues([issue, issue]).details).toHaveLength(1);
  });

  it('still answers something for no issues', () => {
    expect(formatIssues([])).toEqual({ message: 'invalid input', details: [] });
  });

  it(`lists at most ${DETAILS_MAX} issues in details, and counts them all in the message`, () => {
    const issues = issuesOf(BatchFeaturesSchema, { features: Array.from({ length: 25 }, (_, i) => i) });
    const result = formatIssues(issues);
    expect(result.details.map((d) => d.message)).toEqual(Array.from({ length: 10 }, (_, i) => `"features.${i}": must be a string, got ${i}`));
    expect(result.message).toBe('"features.0": must be a string, got 0; "features.1": must be a string, got 1; "features.2": must be a string, got 2; and 22 more');
  });

  it(`cuts an issue at ${ISSUE_TEXT_MAX} characters, so no long value or key comes back`, () => {
    const value = formatIssues(issuesOf(CreateFeatureSchema, { name: 'f', type: 'x'.repeat(1_000_000) }));
    const start = '"type": must be one of release, experiment, operational, kill-switch, permission, sunset, got "';
    expect(value.details[0]!.message).toBe(`${start}${'x'.repeat(ISSUE_TEXT_MAX - 1 - start.length)}…`);
    expect(value.details[0]!.message).toHaveLength(ISSUE_TEXT_MAX);
    expect(value.message).toBe(value.details[0]!.message);
    const key = formatIssues(issuesOf(CreateFeatureSchema, { name: 'f', ['k'.repeat(1_000_000)]: 1 }));
    expect(key.details[0]!.message).toBe(`"${'k'.repeat(ISSUE_TEXT_MAX - 2)}…`);
  });

  it('never cuts a character in half', () => {
    const text = formatIssues(issuesOf(CreateFeatureSchema, { name: 'f', type: '🚩'.repeat(1000) })).details[0]!.message;
    expect(text.length).toBeLessThanOrEqual(ISSUE_TEXT_MAX);
    expect(text.endsWith('🚩…')).toBe(true);
  });

  it('reads a bounded number of issues however many there are', () => {
    const all = issuesOf(BatchFeaturesSchema, { features: Array.from({ length: 500_000 }, () => 1) });
    // Counts which issues are read: a bounded number, not half a million (no timing: it is the count that matters).
    let read = 0;
    const issues = new Proxy(all, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) read += 1;
        return Reflect.get(target, key, receiver);
      },
    });
    const result = formatIssues(issues);
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThanOrEqual(2 * 1000);
    expect(result.details).toHaveLength(DETAILS_MAX);
    expect(result.message).toMatch(/; and 499997 more$/);
  });

  it('says "at least" when the issues are only the first ones found', () => {
    const issues = issuesOf(CreateFeatureSchema, { name: 1, description: 2, type: 3, impressionData: 4, extra: 5 });
    expect(formatIssues(issues, { complete: false }).message).toMatch(/sunset, got 3; and at least 2 more$/);
    expect(formatIssues(issues.slice(0, 1), { complete: false }).message).toBe('"name": must be a string, got 1; and possibly more');
  });
});
