import semver from 'semver';
import type { Principal } from '../auth/permissions.js';
import type { ClientFeaturesAnswer, ClientScope } from '../queries/sdk/client-features.query.js';
import type { ClientFeaturesQuery } from '../schemas/client.schema.js';
import { apiError } from './errors.js';
import type { AppDeps } from './route.js';

/**
 * What a caller of the client API may read: a client token its own scope; an admin token every project, in
 * the environment the query names (else `default`), as Unleash 6.10 lets it.
 */
export function clientScopeOf(principal: Principal): ClientScope {
  if (principal.kind === 'client') return { projects: principal.projects, environment: principal.environment };
  return { projects: '*', environment: '*' };
}

/** The first `Unleash-Client-Spec` whose SDKs read segments by id (Unleash's `segments` capability). */
const SEGMENTS_SPEC = '4.2.0';

/**
 * Whether segment constraints must be inlined into strategies for an SDK sending `header` as its
 * `Unleash-Client-Spec`: absent or older than 4.2.0, yes; 4.2.0 or newer, no (ids plus top-level `segments`).
 * A value that is not strict semver (`5.1.0`, not `v5.1`) is a 400.
 *
 * @example inlineSegmentConstraints('5.1.9') // false
 */
export function inlineSegmentConstraints(header: string | undefined): boolean {
  if (header === undefined) return true;
  if (header.length > 100 || semver.valid(header) !== header) {
    throw apiError('ValidationError', `The Unleash-Client-Spec header must be a semantic version such as "5.1.0", got "${header.slice(0, 100)}"`);
  }
  return semver.lt(header, SEGMENTS_SPEC);
}

/** A backend SDK's poll of `GET /api/client/features`: the cached answer, and whether to tell the SDK to stream instead. */
export interface ClientPoll {
  answer: ClientFeaturesAnswer;
  /** `CLIENT_FETCH_MODE=streaming`, with room on the stream: the answer carries `fetch-mode: streaming`. */
  streaming: boolean;
}

/**
 * The answer to one poll, from the caller, its `Unleash-Client-Spec` header (400 when it is not semver) and its
 * query: what the route and its fast path (`fast-paths/client-poll.fast-path.ts`) both answer from.
 */
export function clientPoll(deps: AppDeps, principal: Principal, clientSpec: string | undefined, query: ClientFeaturesQuery): ClientPoll {
  const inline = inlineSegmentConstraints(clientSpec);
  const answer = deps.clientFeatures.answer(clientScopeOf(principal), { ...query, inlineSegmentConstraints: inline });
  const streaming = deps.config.clientFetchMode === 'streaming' && deps.config.clientStreaming && deps.clientStreams.hasRoom();
  return { answer, streaming };
}
