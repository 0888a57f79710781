/**
 * `GET /api/client/delta` (docs/client-contract.md "Backend SDK API"), what `unleash-client` polls with
 * `experimentalMode: {type: 'polling', format: 'delta'}`: the changes since the revision it presents in
 * `If-None-Match`, from the feed's bounded history; a hydration when it presents none it can be served from.
 */
import { parseRevision } from '../../queries/sdk/client-delta.query.js';
import { ClientFeaturesQuerySchema } from '../../schemas/client.schema.js';
import { ClientDeltaView } from '../../schemas/client-responses.schema.js';
import { aheadOfNode, caughtUpWith } from '../client-ahead.js';
import { clientScopeOf } from '../client-spec.js';
import { sendJson } from '../answers/gzip.js';
import { answerWith, setResponseHeader } from '../answers/answer.js';
import { defineRoute, type RouteSpec } from '../route.js';

export const clientDeltaRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/client/delta', tag: 'Client', permission: 'CLIENT_API',
    summary: 'What changed in the token\'s scope since the revision in `If-None-Match` (the `ETag` of the last answer): `feature-updated`, `feature-removed`, `segment-updated`, `segment-removed` events; a `hydration` event when no revision, 0, one that is not a number, from the future, or older than the history kept is presented; 304 when nothing the token sees changed. Query as `/api/client/features`',
    query: ClientFeaturesQuerySchema,
    success: { status: 200, description: '`{events: [...]}`, with `ETag: "<revision>"`', schema: ClientDeltaView },
    handle: async ({ c, query, principal, deps }) => {
      const presented = parseRevision(c.req.header('if-none-match'));
      // A client ahead of this node waits for it a little; otherwise it hears "nothing new" (`since`).
      if (aheadOfNode(deps, presented)) await caughtUpWith(deps, presented);
      const { resolved, key } = deps.clientDelta.resolve(clientScopeOf(principal), query);
      const answer = deps.clientDelta.since(resolved, key, presented);
      // Nothing new: the presented revision stays this client's valid state (its ETag, for caches in front).
      if (answer.kind === 'none') return answerWith(c, null, 304, { ETag: `"${presented}"` });
      setResponseHeader(c, 'ETag', `"${answer.revision}"`);
      return sendJson(c, deps.clientDelta.bytes(answer), deps.gzip);
    },
  }),
];
