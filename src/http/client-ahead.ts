import type { AppDeps } from './route.js';

/** Longest `If-None-Match` read for a revision; a longer one names none. */
const MAX_HEADER = 8192;
const REVISION = /:(\d{1,16})"/g;

/**
 * The highest revision an `If-None-Match` of the client API names (`"<query hash>:<revision>"`), or null.
 *
 * @example presentedRevision('"1a2b3c4d:42"') // 42
 */
export function presentedRevision(header: string | undefined): number | null {
  if (header === undefined || header.length > MAX_HEADER) return null;
  let highest: number | null = null;
  for (const match of header.matchAll(REVISION)) {
    const n = Number(match[1]);
    if (Number.isSafeInteger(n) && (highest === null || n > highest)) highest = n;
  }
  return highest;
}

/**
 * Whether a client showing `revision` is ahead of this node: on a store several nodes share, a client a load
 * balancer moved from a node further along the log. False on one process, where a revision from the future
 * comes from before a restart.
 */
export function aheadOfNode(deps: AppDeps, revision: number | null | undefined): revision is number {
  return revision !== null && revision !== undefined && deps.registry.shared && revision > deps.registry.feed.revision;
}

/**
 * For a client ahead of this node: waits up to `NODE_CATCH_UP_WAIT_MS` for the node to reach its revision.
 * True when it has (answer as usual); false when it has not (answer "no change": the client keeps what it
 * has, never this node's older state).
 *
 * @example if (aheadOfNode(deps, presented) && !(await caughtUpWith(deps, presented))) return answerWith(c, null, 304);
 */
export function caughtUpWith(deps: AppDeps, revision: number): Promise<boolean> {
  return deps.registry.reached(revision, deps.config.nodes.catchUpWaitMs);
}

/**
 * A weak ETag that also names the node's revision when the answer was made: `W/"<tag>:<revision>"`, where
 * `<tag>` stands for the answer (its bytes or what they are made of). Two answers match by their tags
 * alone ({@link revisionedMatch}); the revision tells a node whether a client is ahead of it.
 *
 * @example revisionedEtag('W/"abc"', 42) // 'W/"abc:42"'
 */
export const revisionedEtag = (weak: string, revision: number): string => `${weak.slice(0, -1)}:${revision}"`;

/**
 * How an `If-None-Match` meets a {@link revisionedEtag}: `match` when one of its entries names the same
 * answer (the same tag, whatever its revision), else the highest revision its entries name (null: none).
 *
 * @example revisionedMatch('W/"abc:40"', 'W/"abc:42"') // 'match'
 * @example revisionedMatch('W/"xyz:45"', 'W/"abc:42"') // 45
 */
export function revisionedMatch(header: string | undefined, etag: string): 'match' | number | null {
  if (header === undefined || header.length > MAX_HEADER) return null;
  const tag = tagOf(etag);
  let highest: number | null = null;
  for (const entry of header.split(',')) {
    const text = entry.trim();
    if (text === '*' || tagOf(text) === tag) return 'match';
    const revision = /:(\d{1,16})"$/.exec(text);
    const n = revision ? Number(revision[1]) : NaN;
    if (Number.isSafeInteger(n) && (highest === null || n > highest)) highest = n;
  }
  return highest;
}

/** The tag of an ETag without its `W/` and its revision: `W/"abc:42"` → `abc`. */
function tagOf(etag: string): string {
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  const colon = opaque.lastIndexOf(':');
  return colon < 0 ? opaque.slice(1, -1) : opaque.slice(1, colon);
}
