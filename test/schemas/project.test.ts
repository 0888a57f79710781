import { describe, expect, it } from 'vitest';
import {
  CreateEnvironmentSchema,
  CreateProjectSchema,
  ProjectEnvironmentSchema,
} from '../../src/schemas/project.schema.js';
import { expectIssue, parseOk } from './expect-issue.js';

describe('CreateProjectSchema', () => {
  it('defaults the description', () => {
    expect(parseOk(CreateProjectSchema, { id: 'web', name: 'Web shop' })).toEqual({ id: 'web', name: 'Web shop', description: '', mode: 'open', defaultStickiness: 'default' });
    expect(parseOk(CreateProjectSchema, { id: 'web', name: 'W', description: 'd' }).description).toBe('d');
  });
  it.each([
    [{ name: 'W' }, 'id', 'is required'],
    [{ id: 'a b', name: 'W' }, 'id', 'URL-friendly'],
    [{ id: '..', name: 'W' }, 'id', 'URL-friendly'],
    [{ id: '*', name: 'W' }, 'id', '"all"'],
    [{ id: 'x'.repeat(101), name: 'W' }, 'id', 'at most 100'],
    [{ id: 'w' }, 'name', 'is required'],
    [{ id: 'w', name: '' }, 'name', 'must not be empty'],
    [{ id: 'w', name: 'x'.repeat(101) }, 'name', 'at most 100'],
    [{ id: 'w', name: 'W', description: 1 }, 'description', 'must be a string'],
    [{ id: 'w', name: 'W', featureLimit: 3 }, 'featureLimit', 'not a known property'],
    [{ id: 'w', name: 'W', mode: 'closed' }, 'mode', 'one of'],
    [{ id: 'w', name: 'W', environments: [] }, 'environments', 'at least one'],
  ])('refuses %j at %s', (input, property, fragment) => {
    expectIssue(CreateProjectSchema, input, property, fragment);
  });
});

describe('CreateEnvironmentSchema', () => {
  it('defaults the type', () => {
    expect(parseOk(CreateEnvironmentSchema, { name: 'staging' })).toEqual({ name: 'staging', type: 'development' });
    expect(parseOk(CreateEnvironmentSchema, { name: 'prod', type: 'production', sortOrder: 5 })).toEqual({
      name: 'prod',
      type: 'production',
      sortOrder: 5,
    });
  });
  it.each([
    [{}, 'name', 'is required'],
    [{ name: 'my env' }, 'name', 'URL-friendly'],
    [{ name: '*' }, 'name', '"all"'],
    [{ name: 'e', type: '' }, 'type', 'must not be empty'],
    [{ name: 'e', sortOrder: 'first' }, 'sortOrder', 'must be a number'],
    [{ name: 'e', color: 'red' }, 'color', 'not a known property'],
  ])('refuses %j at %s', (input, property, fragment) => {
    expectIssue(CreateEnvironmentSchema, input, property, fragment);
  });
});

describe('ProjectEnvironmentSchema', () => {
  it('takes the environment name', () => {
    expect(parseOk(ProjectEnvironmentSchema, { environment: 'production' })).toEqual({ environment: 'production' });
  });
  it.each([
    [{}, 'environment', 'is required'],
    [{ environment: '%' }, 'environment', 'URL-friendly'],
    [{ environment: 1 }, 'environment', 'must be a string'],
  ])('refuses %j at %s', (input, property, fragment) => {
    expectIssue(ProjectEnvironmentSchema, input, property, fragment);
  });
});
