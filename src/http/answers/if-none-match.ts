/** Longest `If-None-Match` read; a longer one matches nothing (the answer is then sent in full). */
const MAX_IF_NONE_MATCH = 8192;

/**
 * Whether an `If-None-Match` header names `etag`, compared weakly as RFC 9110 says for `If-None-Match`: an
 * entry of the list equals it with any `W/` prefix taken off both, or is `*` (any current answer). The one
 * comparer of the client API, the frontend API and OFREP, through Hono and on their fast paths alike.
 *
 * @example ifNoneMatches('W/"a:1", "b:2"', '"b:2"') // true
 * @example ifNoneMatches('"x"', 'W/"x"') // true
 * @example ifNoneMatches('*', 'W/"x"') // true
 */
export function ifNoneMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined || header.length > MAX_IF_NONE_MATCH) return false;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const entry of header.split(',')) {
    const tag = entry.trim();
    if (tag === '*' || tag === opaque || (tag.startsWith('W/') && tag.slice(2) === opaque)) return true;
  }
  return false;
}
