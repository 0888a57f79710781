/**
 * The flag table's URL state (`src/schemas/flag-table.schema.ts`): defaults, lists from repeated parameters,
 * a `limit` above the page clamped, every other bad value a 400 issue naming its parameter, and the query
 * written back as the shortest URL that means the same.
 */
import { describe, expect, test } from 'vitest';
import { FLAG_TABLE_PAGE_MAX, FlagTableQuerySchema, flagTableSearch } from '../../src/schemas/flag-table.schema.js';
import { expectIssue, parseOk } from './expect-issue.js';

const parse = (input: Record<string, string | string[]>) => parseOk(FlagTableQuerySchema, input);

describe('the flag table query', () => {
  test('no query: every active flag, newest first, 50 a page', () => {
    expect(parse({})).toEqual({ type: [], stale: [], tag: [], enabled: [], archived: false, sort: 'createdAt', order: 'desc', offset: 0, limit: 50 });
  });

  test('values: free text trimmed and lower-cased; repeated lists; a tag split at its first colon', () => {
    expect(parse({
      q: '  New Basket ', type: ['release', 'kill-switch'], stale: 'potentially-stale', tag: ['simple:a:b', ' team : web '],
      enabled: ['eu-prod:on', 'development:off'], archived: 'true', sort: 'name', offset: '100', limit: '20',
    })).toEqual({
      q: 'new basket', type: ['release', 'kill-switch'], stale: ['potentially-stale'], tag: [{ type: 'simple', value: 'a:b' }, { type: 'team', value: 'web' }],
      enabled: [{ environment: 'eu-prod', on: true }, { environment: 'development', on: false }], archived: true, sort: 'name', order: 'asc', offset: 100, limit: 20,
    });
  });

  test('order defaults: descending for the date columns, ascending for name and type; an explicit order wins', () => {
    expect(parse({ sort: 'lastSeenAt' }).order).toBe('desc');
    expect(parse({ sort: 'type' }).order).toBe('asc');
    expect(parse({ sort: 'name', order: 'desc' }).order).toBe('desc');
  });

  test(`a limit above ${FLAG_TABLE_PAGE_MAX} is clamped to it`, () => {
    expect(parse({ limit: '500' }).limit).toBe(FLAG_TABLE_PAGE_MAX);
    expect(parse({ limit: '99999999999999999999' }).limit).toBe(FLAG_TABLE_PAGE_MAX);
  });

  test('bad values are issues naming the parameter', () => {
    expectIssue(FlagTableQuerySchema, { type: 'feature' }, 'type.0', 'must be one of release, experiment');
    expectIssue(FlagTableQuerySchema, { stale: 'old' }, 'stale.0', 'must be one of stale, potentially-stale, fresh');
    expectIssue(FlagTableQuerySchema, { tag: 'beta' }, 'tag.0', 'must be of the form "type:value"');
    expectIssue(FlagTableQuerySchema, { tag: ':beta' }, 'tag.0', 'must be of the form "type:value"');
    expectIssue(FlagTableQuerySchema, { enabled: 'production:maybe' }, 'enabled.0', 'must be "<environment>:on" or "<environment>:off"');
    expectIssue(FlagTableQuerySchema, { archived: 'yes' }, 'archived', 'must be one of true, false');
    expectIssue(FlagTableQuerySchema, { sort: 'stale' }, 'sort', 'must be one of createdAt, name, lastSeenAt, type');
    expectIssue(FlagTableQuerySchema, { order: 'up' }, 'order', 'must be one of asc, desc');
    expectIssue(FlagTableQuerySchema, { q: ['a', 'b'] }, 'q', 'given once');
    expectIssue(FlagTableQuerySchema, { q: 'x'.repeat(1001) }, 'q', 'at most 1000 characters');
    expectIssue(FlagTableQuerySchema, { limit: '0' }, 'limit', 'must be at least 1');
    expectIssue(FlagTableQuerySchema, { limit: 'ten' }, 'limit', 'must be a whole number');
    expectIssue(FlagTableQuerySchema, { offset: '-1' }, 'offset', 'must be a whole number');
    expectIssue(FlagTableQuerySchema, { offset: '1000001' }, 'offset', 'must be at most 1000000');
    expectIssue(FlagTableQuerySchema, { type: Array.from({ length: 101 }, () => 'release') }, 'type', 'at most 100 times');
  });

  test('written back: only what differs from the defaults, and it parses to the same query', () => {
    expect(flagTableSearch(parse({}))).toBe('');
    expect(flagTableSearch(parse({ sort: 'name', order: 'asc', limit: '50' }))).toBe('sort=name');
    const query = parse({ q: 'Basket', type: ['release'], stale: 'stale', tag: 'simple:a:b', enabled: 'production:on', archived: 'true', sort: 'type', order: 'desc', offset: '50', limit: '20' });
    const search = flagTableSearch(query);
    expect(search).toBe('q=basket&type=release&stale=stale&tag=simple%3Aa%3Ab&enabled=production%3Aon&archived=true&sort=type&order=desc&offset=50&limit=20');
    const params = new URLSearchParams(search);
    const again = Object.fromEntries([...new Set(params.keys())].map((k) => [k, params.getAll(k).length === 1 ? params.get(k)! : params.getAll(k)]));
    expect(parse(again)).toEqual(query);
  });
});
