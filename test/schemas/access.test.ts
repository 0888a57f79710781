import { describe, expect, it } from 'vitest';
import {
  CreateApiTokenSchema,
  CreatePersonalTokenSchema,
  CreateUserSchema,
  MembershipBodySchema,
} from '../../src/schemas/access.schema.js';
import { expectIssue, parseOk } from './expect-issue.js';

describe('CreateUserSchema', () => {
  it('defaults the root role to Viewer (3)', () => {
    expect(parseOk(CreateUserSchema, { email: 'ada@example.com', name: 'Ada' })).toEqual({
      email: 'ada@example.com',
      name: 'Ada',
      rootRole: 3,
    });
  });

  it('takes a username instead of an email', () => {
    expect(parseOk(CreateUserSchema, { username: 'ada', rootRole: 2 })).toEqual({ username: 'ada', rootRole: 2 });
  });

  it.each([['Admin', 1], ['Editor', 2], ['Viewer', 3], [1, 1]])('reads root role %j as %j', (rootRole, id) => {
    expect(parseOk(CreateUserSchema, { email: 'a@example.com', rootRole }).rootRole).toBe(id);
  });

  it('accepts and drops sendEmail', () => {
    expect(parseOk(CreateUserSchema, { email: 'a@example.com', sendEmail: true })).toEqual({ email: 'a@example.com', rootRole: 3 });
  });

  it.each([
    [{}, 'email', 'is required when no username'],
    [{ name: 'Ada' }, 'email', 'is required when no username'],
    [{ email: 'not-an-email' }, 'email', 'valid email'],
    [{ email: 'a b@example.com' }, 'email', 'valid email'],
    [{ email: `${'a'.repeat(250)}@example.com` }, 'email', 'at most 255'],
    [{ email: 7 }, 'email', 'must be a string'],
    [{ email: 'a@example.com', name: '' }, 'name', 'must not be empty'],
    [{ email: 'a@example.com', name: 'x'.repeat(101) }, 'name', 'at most 100'],
    [{ email: 'a@example.com', rootRole: 0 }, 'rootRole', 'at least 1'],
    [{ email: 'a@example.com', rootRole: 4 }, 'rootRole', 'at most 3'],
    [{ email: 'a@example.com', rootRole: 'Owner' }, 'rootRole', 'one of Admin, Editor, Viewer'],
    [{ email: 'a@example.com', rootRole: 1.5 }, 'rootRole', 'must be an integer'],
    [{ email: 'a@example.com', password: 42 }, 'password', 'string'],
  ])('refuses %j at %s', (input, property, fragment) => {
    expectIssue(CreateUserSchema, input, property, fragment);
  });
});

describe('CreateApiTokenSchema', () => {
  it('defaults to every project and environment', () => {
    expect(parseOk(CreateApiTokenSchema, { tokenName: 'ops', type: 'admin' })).toEqual({
      tokenName: 'ops',
      type: 'admin',
      projects: ['*'],
      environment: '*',
    });
  });

  it('lowercases the type', () => {
    expect(parseOk(CreateApiTokenSchema, { tokenName: 'ops', type: 'Admin' }).type).toBe('admin');
    expect(parseOk(CreateApiTokenSchema, { tokenName: 'sdk', type: 'CLIENT' }).type).toBe('client');
  });

  it('narrows a client token to projects and an environment', () => {
    expect(
      parseOk(CreateApiTokenSchema, { tokenName: 'sdk', type: 'client', projects: ['web', 'app'], environment: 'production' }),
    ).toEqual({ tokenName: 'sdk', type: 'client', projects: ['web', 'app'], environment: 'production' });
  });

  it('reads project as a one-project list and username as tokenName; a client token without environment gets development', () => {
    expect(parseOk(CreateApiTokenSchema, { username: 'sdk', type: 'client', project: 'web' })).toEqual({
      tokenName: 'sdk',
      type: 'client',
      projects: ['web'],
      environment: 'development',
    });
  });

  it('reads type backend as client, and an admin token without environment as "*"', () => {
    expect(parseOk(CreateApiTokenSchema, { tokenName: 'sdk', type: 'Backend', environment: 'production' }).type).toBe('client');
    expect(parseOk(CreateApiTokenSchema, { tokenName: 'ops', type: 'admin' }).environment).toBe('*');
  });

  it('normalizes expiresAt', () => {
    expect(parseOk(CreateApiTokenSchema, { tokenName: 't', type: 'client', expiresAt: '2030-06-01' }).expiresAt).toBe(
      '2030-06-01T00:00:00.000Z',
    );
  });

  it.each([
    [{ type: 'admin' }, 'tokenName', 'is required'],
    [{ tokenName: '', type: 'admin' }, 'tokenName', 'must not be empty'],
    [{ tokenName: 'x'.repeat(101), type: 'admin' }, 'tokenName', 'at most 100'],
    [{ tokenName: 't' }, 'type', 'is required'],
    [{ tokenName: 't', type: 'proxy' }, 'type', 'must be admin, client (or backend) or frontend'],
    [{ tokenName: 't', type: 'frontend' }, 'environment', 'must name one environment for a frontend token'],
    [{ tokenName: 't', type: 'frontend', environment: '*' }, 'environment', 'must name one environment for a frontend token'],
    [{ tokenName: 't', type: 1 }, 'type', 'must be a string'],
    [{ tokenName: 't', type: 'admin', projects: ['web'] }, 'projects', 'must be ["*"] for an admin token'],
    [{ tokenName: 't', type: 'admin', project: 'web' }, 'projects', 'must be ["*"] for an admin token'],
    [{ tokenName: 't', type: 'admin', environment: 'production' }, 'environment', 'must be "*" for an admin token'],
    [{ tokenName: 't', type: 'client', projects: [] }, 'projects', 'at least one project'],
    [{ tokenName: 't', type: 'client', projects: ['*', 'web'] }, 'projects', 'alone'],
    [{ tokenName: 't', type: 'client', projects: ['a b'] }, 'projects.0', 'URL-friendly'],
    [{ tokenName: 't', type: 'client', projects: 'web' }, 'projects', 'must be an array'],
    [{ tokenName: 't', type: 'client', project: 'web', projects: ['web'] }, 'project', 'together with "projects"'],
    [{ tokenName: 't', type: 'client', environment: 'my env' }, 'environment', 'URL-friendly'],
    [{ tokenName: 't', type: 'client', environment: '*' }, 'environment', 'must name one environment for a client token'],
    [{ tokenName: 't', type: 'client', expiresAt: 'next week' }, 'expiresAt', 'ISO 8601'],
    [{ tokenName: 't', type: 'client', secret: 'abc' }, 'secret', 'not a known property'],
  ])('refuses %j at %s', (input, property, fragment) => {
    expectIssue(CreateApiTokenSchema, input, property, fragment);
  });
});

describe('CreatePersonalTokenSchema', () => {
  it('takes a description and an optional expiry', () => {
    expect(parseOk(CreatePersonalTokenSchema, { description: 'ci' })).toEqual({ description: 'ci' });
    expect(parseOk(CreatePersonalTokenSchema, { description: 'ci', expiresAt: '2031-01-01T00:00:00Z' })).toEqual({
      description: 'ci',
      expiresAt: '2031-01-01T00:00:00.000Z',
    });
  });
  it.each([
    [{}, 'description', 'is required'],
    [{ description: '' }, 'description', 'must not be empty'],
    [{ description: 'ci', expiresAt: '2031-01-01T00:00:00' }, 'expiresAt', 'ISO 8601'],
    [{ description: 'ci', type: 'admin' }, 'type', 'not a known property'],
  ])('refuses %j at %s', (input, property, fragment) => {
    expectIssue(CreatePersonalTokenSchema, input, property, fragment);
  });
});

describe('MembershipBodySchema', () => {
  it('accepts no body, the seed example body, and extra fields', () => {
    expect(parseOk(MembershipBodySchema, undefined)).toBeUndefined();
    expect(parseOk(MembershipBodySchema, { userId: 1, projectId: 'default', roleId: 4 })).toEqual({
      userId: 1,
      projectId: 'default',
      roleId: 4,
    });
    expect(parseOk(MembershipBodySchema, { other: true })).toEqual({});
  });
  it('refuses a body that is not an object', () => {
    expectIssue(MembershipBodySchema, 'x', '', 'must be an object');
  });
});
