import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  EnvironmentNameSchema,
  EnvironmentOrAllSchema,
  FlagNameSchema,
  IntIdParamSchema,
  IsoDateSchema,
  ProjectIdSchema,
  StrategyIdSchema,
} from '../../src/schemas/common.schema.js';
import {
  DefaultStrategyParamsSchema,
  FeatureEnvironmentParamsSchema,
  FeatureParamsSchema,
  ProjectUserRoleParamsSchema,
  StrategyParamsSchema,
} from '../../src/schemas/params.schema.js';
import { expectIssue, issuesOf, parseOk } from './expect-issue.js';

const hostileNames: [unknown, string][] = [
  ['../x', 'URL-friendly'],
  ['a b', 'URL-friendly'],
  ['%', 'URL-friendly'],
  ['a/b', 'URL-friendly'],
  ['', 'must not be empty'],
  ['.', 'URL-friendly'],
  ['..', 'URL-friendly'],
  ['x'.repeat(101), 'at most 100 characters'],
  [42, 'must be a string, got 42'],
  [null, 'must be a string, got null'],
];

describe.each([
  ['FlagNameSchema', FlagNameSchema],
  ['ProjectIdSchema', ProjectIdSchema],
  ['EnvironmentNameSchema', EnvironmentNameSchema],
] as const)('%s', (_label, schema) => {
  it('accepts URL-friendly names up to 100 characters, case kept', () => {
    expect(parseOk(schema, 'My-Flag_1.x~')).toBe('My-Flag_1.x~');
    expect(parseOk(schema, 'x'.repeat(100))).toBe('x'.repeat(100));
  });
  it.each(hostileNames)('refuses %j', (input, fragment) => {
    expect(issuesOf(schema, input).join()).toContain(fragment);
  });
});

describe('wildcard', () => {
  it('is a valid flag name but neither a project id nor an environment name', () => {
    expect(parseOk(FlagNameSchema, '*')).toBe('*');
    expect(issuesOf(ProjectIdSchema, '*').join()).toContain('"all"');
    expect(issuesOf(EnvironmentNameSchema, '*').join()).toContain('"all"');
  });
  it('EnvironmentOrAllSchema takes "*" and names, and explains other values', () => {
    expect(parseOk(EnvironmentOrAllSchema, '*')).toBe('*');
    expect(parseOk(EnvironmentOrAllSchema, 'production')).toBe('production');
    expect(issuesOf(EnvironmentOrAllSchema, 'a b').join()).toContain('URL-friendly');
    expect(issuesOf(EnvironmentOrAllSchema, 7).join()).toContain('must be a string, got 7');
  });
});

describe('StrategyIdSchema', () => {
  it('takes 1 to 100 characters', () => {
    expect(parseOk(StrategyIdSchema, 'b1c2')).toBe('b1c2');
    expect(issuesOf(StrategyIdSchema, '').join()).toContain('must not be empty');
    expect(issuesOf(StrategyIdSchema, 'x'.repeat(101)).join()).toContain('at most 100');
  });
});

describe('IntIdParamSchema', () => {
  it.each([['1', 1], ['42', 42], ['007', 7], ['9007199254740991', 9007199254740991]])('turns %j into %j', (input, out) => {
    expect(parseOk(IntIdParamSchema, input)).toBe(out);
  });
  it.each(['0', '-1', '1.5', 'abc', '', ' 1', '1e3', '9007199254740993'])('refuses %j', (input) => {
    expect(v.safeParse(IntIdParamSchema, input).success).toBe(false);
  });
  it('refuses a number: path parameters are strings', () => {
    expect(issuesOf(IntIdParamSchema, 5).join()).toContain('must be a string');
  });
});

describe('IsoDateSchema', () => {
  it('normalizes to an ISO instant', () => {
    expect(parseOk(IsoDateSchema, '2030-01-01')).toBe('2030-01-01T00:00:00.000Z');
    expect(parseOk(IsoDateSchema, '2030-01-01T02:00:00+02:00')).toBe('2030-01-01T00:00:00.000Z');
  });
  it('refuses a date-time without offset and non-dates', () => {
    expect(issuesOf(IsoDateSchema, '2030-01-01T00:00:00').join()).toContain('ISO 8601');
    expect(issuesOf(IsoDateSchema, 'soon').join()).toContain('ISO 8601');
    expect(issuesOf(IsoDateSchema, 1893456000000).join()).toContain('must be a string');
  });
});

describe('path parameters', () => {
  it('parse and drop extra parameters', () => {
    expect(parseOk(FeatureParamsSchema, { projectId: 'default', featureName: 'f', extra: 'x' })).toEqual({
      projectId: 'default',
      featureName: 'f',
    });
    expect(
      parseOk(StrategyParamsSchema, { projectId: 'p', featureName: 'f', environment: 'dev', strategyId: 's' }),
    ).toEqual({ projectId: 'p', featureName: 'f', environment: 'dev', strategyId: 's' });
  });
  it('name the bad parameter', () => {
    expectIssue(FeatureParamsSchema, { projectId: 'default', featureName: 'a b' }, 'featureName', 'URL-friendly');
    expectIssue(FeatureEnvironmentParamsSchema, { projectId: 'p', featureName: 'f', environment: '..' }, 'environment');
    expectIssue(FeatureParamsSchema, { projectId: 'default' }, 'featureName', 'is required');
  });
  it('default strategy takes "*" for every environment', () => {
    expect(parseOk(DefaultStrategyParamsSchema, { projectId: 'p', environment: '*' })).toEqual({ projectId: 'p', environment: '*' });
    expectIssue(DefaultStrategyParamsSchema, { projectId: '*', environment: 'dev' }, 'projectId', '"all"');
  });
  it('user and role ids become numbers', () => {
    expect(parseOk(ProjectUserRoleParamsSchema, { projectId: 'p', userId: '3', roleId: '4' })).toEqual({
      projectId: 'p',
      userId: 3,
      roleId: 4,
    });
    expectIssue(ProjectUserRoleParamsSchema, { projectId: 'p', userId: 'x', roleId: '4' }, 'userId', 'positive integer');
  });
});
