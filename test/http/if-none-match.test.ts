/**
 * The one `If-None-Match` comparer of the client API, the frontend API and OFREP (src/http/answers/if-none-match.ts):
 * weak comparison (RFC 9110), lists, `*`, for strong and weak `ETag`s alike.
 */
import { describe, expect, test } from 'vitest';
import { ifNoneMatches } from '../../src/http/answers/if-none-match.js';

describe('ifNoneMatches', () => {
  test.for([
    ['the strong tag itself', '"a:1"', '"a:1"', true],
    ['its weak form', 'W/"a:1"', '"a:1"', true],
    ['a weak tag itself', 'W/"x"', 'W/"x"', true],
    ['a weak tag in strong form', '"x"', 'W/"x"', true],
    ['in a list, with spaces', ' "other" ,  W/"x"  ', 'W/"x"', true],
    ['* for a strong tag', '*', '"a:1"', true],
    ['* for a weak tag', '*', 'W/"x"', true],
    ['* in a list', '"other", *', 'W/"x"', true],
    ['another tag', '"other"', '"a:1"', false],
    ['the tag unquoted', 'a:1', '"a:1"', false],
    ['a prefix of the tag', '"a:', '"a:1"', false],
    ['an empty header', '', 'W/"x"', false],
    ['a lowercase weak prefix', 'w/"x"', 'W/"x"', false],
  ] as const)('%s: %s against %s is %s', ([, header, etag, expected]) => {
    expect(ifNoneMatches(header, etag)).toBe(expected);
  });

  test('no header, or one longer than 8192 characters, names nothing', () => {
    expect(ifNoneMatches(undefined, '"a:1"')).toBe(false);
    const long = `${'"x", '.repeat(1700)}"a:1"`;
    expect(long.length).toBeGreaterThan(8192);
    expect(ifNoneMatches(long, '"a:1"')).toBe(false);
    expect(ifNoneMatches(long.slice(-8192), '"a:1"')).toBe(true);
  });
});
