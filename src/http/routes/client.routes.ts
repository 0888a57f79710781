/**
 * The client API of backend SDKs (docs/client-contract.md "Backend SDK API"): the flags of a token's projects in its one
 * environment. Client tokens and admin tokens may call it (`CLIENT_API`), personal tokens may not. The
 * answers come cached from `ClientFeaturesQuery`; an SDK that sends the current `ETag` back gets a 304.
 */
import { ClientFeaturesQuerySchema } from '../../schemas/client.schema.js';
import { FlagNameSchema, looseObject } from '../../schemas/common.schema.js';
import { ClientFeaturesView, ClientFeatureView } from '../../schemas/client-responses.schema.js';
import { clientPoll, clientScopeOf, inlineSegmentConstraints } from '../client-spec.js';
import { aheadOfNode, caughtUpWith, presentedRevision } from '../client-ahead.js';
import { apiError } from '../errors.js';
import { sendJson } from '../answers/gzip.js';
import { answerWith, setResponseHeader } from '../answers/answer.js';
import { clientPollOnNode } from '../fast-paths/client-poll.fast-path.js';
import { ifNoneMatches } from '../answers/if-none-match.js';
import { defineRoute, type RouteSpec } from '../route.js';

const SPEC = 'The `Unleash-Client-Spec` header (semver; 4.2.0 or newer: segment ids and top-level `segments`, else their constraints inlined)';

export const clientRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/client/features', tag: 'Client', permission: 'CLIENT_API',
    summary: `The flags of the token's projects in its environment, as backend SDKs poll them (query \`project\`, \`namePrefix\`, \`tag\`; \`environment\` for admin tokens). ${SPEC}. \`If-None-Match\` with the current \`ETag\`: 304`,
    query: ClientFeaturesQuerySchema,
    success: { status: 200, description: '`{version: 2, features, query, segments?, meta}`, with an `ETag`', schema: ClientFeaturesView },
    handle: async ({ c, query, principal, deps }) => {
      // An SDK a load balancer moved from a node further along: this node's older answer would take it back.
      const presented = presentedRevision(c.req.header('if-none-match'));
      if (aheadOfNode(deps, presented) && !(await caughtUpWith(deps, presented))) return answerWith(c, null, 304, { ETag: c.req.header('if-none-match')!.split(',')[0]!.trim() });
      const { answer, streaming } = clientPoll(deps, principal, c.req.header('unleash-client-spec'), query);
      setResponseHeader(c, 'ETag', answer.etag);
      // CLIENT_FETCH_MODE=streaming moves polling SDKs to the stream (they discard this body), while it has room.
      if (streaming) setResponseHeader(c, 'fetch-mode', 'streaming');
      if (ifNoneMatches(c.req.header('if-none-match'), answer.etag)) return answerWith(c, null, 304);
      return sendJson(c, answer.body, deps.gzip);
    },
    node: clientPollOnNode,
  }),
  defineRoute({
    method: 'get', path: '/api/client/features/:featureName', tag: 'Client', permission: 'CLIENT_API',
    summary: `One flag of the token's scope, as in the list (\`environment\` for admin tokens). ${SPEC}`,
    params: looseObject({ featureName: FlagNameSchema }), query: ClientFeaturesQuerySchema,
    success: { status: 200, description: 'The flag as SDKs read it', schema: ClientFeatureView }, errors: ['NotFoundError'],
    handle: ({ c, params, query, principal, deps }) => {
      const inline = inlineSegmentConstraints(c.req.header('unleash-client-spec'));
      const body = deps.clientFeatures.feature(clientScopeOf(principal), { ...query, inlineSegmentConstraints: inline }, params.featureName);
      if (!body) throw apiError('NotFoundError', `Could not find feature flag "${params.featureName}"`);
      return sendJson(c, body, deps.gzip);
    },
  }),
];
