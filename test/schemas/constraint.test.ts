import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Constraint } from '../../src/domain/types.js';
import { CONSTRAINT_OPERATORS, ConstraintSchema, type ConstraintBody } from '../../src/schemas/constraint.schema.js';
import { expectIssue, parseOk } from './expect-issue.js';

const base = { contextName: 'userId' };

describe('ConstraintSchema', () => {
  it('applies the defaults of caseInsensitive and inverted', () => {
    expect(parseOk(ConstraintSchema, { ...base, operator: 'IN', values: ['1', '2'] })).toEqual({
      contextName: 'userId',
      operator: 'IN',
      values: ['1', '2'],
      caseInsensitive: false,
      inverted: false,
    });
  });

  it('keeps given flags', () => {
    const out = parseOk(ConstraintSchema, { ...base, operator: 'STR_CONTAINS', values: ['x'], caseInsensitive: true, inverted: true });
    expect(out).toMatchObject({ caseInsensitive: true, inverted: true });
  });

  it('outputs a domain Constraint', () => {
    expectTypeOf<ConstraintBody>().toExtend<Constraint>();
  });

  describe.each(['IN', 'NOT_IN', 'STR_ENDS_WITH', 'STR_STARTS_WITH', 'STR_CONTAINS'])('list operator %s', (operator) => {
    it('accepts values with at least one non-empty string', () => {
      expect(parseOk(ConstraintSchema, { ...base, operator, values: ['', 'a'] }).values).toEqual(['', 'a']);
    });
    it.each([
      [{}, 'values', 'needs at least one non-empty value'],
      [{ values: [] }, 'values', 'needs at least one non-empty value'],
      [{ values: [''] }, 'values', 'needs at least one non-empty value'],
      [{ value: 'a' }, 'values', 'needs at least one non-empty value'],
      [{ values: 'a' }, 'values', 'must be an array of strings'],
      [{ values: ['a', 2] }, 'values.1', 'must be a string'],
      [{ values: ['x'.repeat(101)] }, 'values.0', 'at most 100'],
      [{ values: Array.from({ length: 1001 }, (_, i) => `${i}`) }, 'values', 'at most 1000'],
    ])('refuses %j at %s', (extra, property, fragment) => {
      expectIssue(ConstraintSchema, { ...base, operator, ...extra }, property, fragment);
    });
  });

  describe.each(['NUM_EQ', 'NUM_GT', 'NUM_GTE', 'NUM_LT', 'NUM_LTE'])('number operator %s', (operator) => {
    it.each([['5', '5'], ['-1.5', '-1.5'], [5, '5'], [0.25, '0.25']])('accepts %j as %j', (value, out) => {
      expect(parseOk(ConstraintSchema, { ...base, operator, value }).value).toBe(out);
    });
    it.each([
      [{}, 'value', 'needs a number, got none'],
      [{ value: 'abc' }, 'value', 'needs a number'],
      [{ value: '' }, 'value', 'needs a number'],
      [{ value: '0x10' }, 'value', 'needs a number'],
      [{ values: ['5'] }, 'value', 'needs a number, got none'],
      [{ value: true }, 'value', 'must be a string or a number'],
      [{ value: '1'.repeat(101) }, 'value', 'at most 100'],
    ])('refuses %j at %s', (extra, property, fragment) => {
      expectIssue(ConstraintSchema, { ...base, operator, ...extra }, property, fragment);
    });
  });

  describe.each(['DATE_AFTER', 'DATE_BEFORE'])('date operator %s', (operator) => {
    it('accepts an ISO 8601 date-time, kept as sent', () => {
      expect(parseOk(ConstraintSchema, { ...base, operator, value: '2024-05-01T12:00:00.000Z' }).value).toBe(
        '2024-05-01T12:00:00.000Z',
      );
    });
    it.each([
      [{}, 'value', 'ISO 8601'],
      [{ value: 'tomorrow' }, 'value', 'ISO 8601'],
      [{ value: '2024-02-30T00:00:00Z' }, 'value', 'ISO 8601'],
      [{ value: 1714560000000 }, 'value', 'ISO 8601'],
    ])('refuses %j at %s', (extra, property, fragment) => {
      expectIssue(ConstraintSchema, { ...base, operator, ...extra }, property, fragment);
    });
  });

  describe.each(['SEMVER_EQ', 'SEMVER_GT', 'SEMVER_LT'])('semver operator %s', (operator) => {
    it('accepts a strict semantic version', () => {
      expect(parseOk(ConstraintSchema, { ...base, operator, value: '1.2.3-beta.1' }).value).toBe('1.2.3-beta.1');
    });
    it.each([
      [{}, 'value', 'strict semantic version'],
      [{ value: 'v1.2.3' }, 'value', 'strict semantic version'],
      [{ value: '1.2' }, 'value', 'strict semantic version'],
      [{ value: 1 }, 'value', 'strict semantic version'],
    ])('refuses %j at %s', (extra, property, fragment) => {
      expectIssue(ConstraintSchema, { ...base, operator, ...extra }, property, fragment);
    });
  });

  it('covers every operator of the domain in the tests above', () => {
    expect(CONSTRAINT_OPERATORS).toHaveLength(15);
  });

  it.each([
    [{ operator: 'IN', values: ['a'] }, 'contextName', 'is required'],
    [{ contextName: '', operator: 'IN', values: ['a'] }, 'contextName', 'must not be empty'],
    [{ contextName: 'x'.repeat(101), operator: 'IN', values: ['a'] }, 'contextName', 'at most 100'],
    [{ contextName: 'u', values: ['a'] }, 'operator', 'is required'],
    [{ contextName: 'u', operator: 'in', values: ['a'] }, 'operator', 'must be one of NOT_IN'],
    [{ contextName: 'u', operator: 'REGEX', values: ['a'] }, 'operator', 'must be one of'],
    [{ contextName: 'u', operator: 'IN', values: ['a'], caseInsensitive: 'no' }, 'caseInsensitive', 'must be a boolean'],
    [{ contextName: 'u', operator: 'IN', values: ['a'], inverted: 1 }, 'inverted', 'must be a boolean'],
    [{ contextName: 'u', operator: 'IN', values: ['a'], extra: 1 }, 'extra', 'not a known property'],
  ])('refuses %j at %s', (input, property, fragment) => {
    expectIssue(ConstraintSchema, input, property, fragment);
  });
});
