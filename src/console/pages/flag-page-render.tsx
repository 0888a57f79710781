/** @jsxImportSource hono/jsx */
/**
 * The flag page as an answer: its model gathered from the same queries the API's flag routes read (the flag,
 * its project's environments, usage, segments, definitions, dependencies), what the viewer may do from the
 * permission table, and a refused form shown again with the API's messages (or a switch's offer). Shared by the
 * page's GET and its form posts.
 */
import type { Context } from 'hono';
import { isAllowed, type Permission, type Principal, roleIn } from '../../auth/permissions.js';
import { strategyDefinitions } from '../../queries/definitions.query.js';
import { flagChildren, possibleParents } from '../../queries/dependencies.query.js';
import { flagById } from '../../queries/flags.query.js';
import { allSegments } from '../../queries/segments.query.js';
import { tagTypes } from '../../queries/tags.query.js';
import { featureMetrics, flagSeen } from '../../queries/usage.query.js';
import { flagApplications } from '../../queries/applications.query.js';
import type { SwitchOffer } from '../../queries/switch-offer.query.js';
import { apiError } from '../../http/errors.js';
import { etagOf } from '../../http/answers/if-match.js';
import type { ConsoleDeps, ConsoleEnv } from '../console-deps.js';
import { orderedEnvironments } from '../../http/answers/views.js';
import { renderPage } from '../render.js';
import type { Refusal } from '../forms/form.js';
import type { PageCall } from '../page.js';
import type { FlagPageModel } from '../views/flag/flag-model.js';
import { FlagPage } from '../views/flag/flag-page.js';
import { done, noticeOf, type Done } from '../notices.js';
import { draftedNamed, openDraftsOf, protectedFor, type Drafted } from '../change-drafts.js';
import { draftedUrl } from '../views/change-requests/change-request-urls.js';

/** The path parameters every flag page route has. */
export interface FlagPath {
  projectId: string;
  featureName: string;
}

/** The path of a flag's page. */
export const flagPath = (p: FlagPath): string => `/projects/${encodeURIComponent(p.projectId)}/features/${encodeURIComponent(p.featureName)}`;

/** Back to the flag page after a change (a 303's address), with its confirmation and the place to scroll to. */
export function flagDone(p: FlagPath, key: Done<'flag'>, anchor = ''): string {
  return done(flagPath(p), 'flag', key, anchor);
}

/** Back to the flag page after a change went to the person's change request instead, saying so. */
export function flagDrafted(p: FlagPath, value: Drafted, anchor = ''): string {
  return draftedUrl(flagPath(p), value.drafted.id, anchor);
}

const HOURS = 48;

function model(c: Context<ConsoleEnv>, deps: ConsoleDeps, p: FlagPath, shown: Shown): FlagPageModel {
  const actor = c.get('actor');
  if (!actor) throw apiError('NotFoundError', `No project "${p.projectId}"`);
  const { state } = actor;
  const found = flagById(state, p.featureName);
  if (!found.ok) throw apiError('NotFoundError', found.error.message);
  const flag = found.value;
  const { registry } = deps;
  const principal = c.get('principal') as Principal;
  const role = roleIn(principal, state.meta.members);
  const can = (permission: Permission) => isAllowed(principal, permission, role);
  const seen = flagSeen(registry, p.projectId, flag.name);
  const usage = featureMetrics(registry, flag.name, HOURS);
  return {
    project: { id: state.meta.id, name: state.meta.name, defaultStickiness: state.meta.defaultStickiness ?? 'default', defaultStrategies: Object.keys(state.meta.defaultStrategies) },
    flag,
    environments: orderedEnvironments(registry.service.state.environments, state.meta.environments).map((e) => ({
      name: e.name, type: e.type, state: flag.environments[e.name] ?? { enabled: false, strategies: [] }, lastSeenAt: seen.environments.get(e.name) ?? null,
    })),
    segments: allSegments(registry).filter((s) => s.project === null || s.project === p.projectId).map((s) => ({ id: s.id, name: s.name })),
    contextFields: registry.service.state.contextFields.map((f) => f.name),
    strategyTypes: strategyDefinitions(registry).map((d) => ({ name: d.name, title: d.displayName ?? d.title ?? d.name })),
    tagTypes: tagTypes(registry).map((t) => t.name),
    possibleParents: (() => { const parents = possibleParents(state, flag.name); return parents.ok ? parents.value : []; })(),
    children: flagChildren(state, flag.name),
    lastSeenAt: seen.lastSeenAt,
    usage: usage.ok ? usage.value.data.map((h) => ({ hour: h.timestamp, environment: h.environment, yes: h.yes, no: h.no })) : [],
    applications: flagApplications(registry, p.projectId, flag.name),
    may: {
      update: can('UPDATE_FEATURE'), remove: can('DELETE_FEATURE'), create: can('CREATE_FEATURE'), toggle: can('UPDATE_FEATURE_ENVIRONMENT'),
      addStrategy: can('CREATE_FEATURE_STRATEGY'), editStrategy: can('UPDATE_FEATURE_STRATEGY'), deleteStrategy: can('DELETE_FEATURE_STRATEGY'),
      variants: can('UPDATE_FEATURE_VARIANTS'),
    },
    base: flagPath(p),
    ifMatch: etagOf(flag.version),
    error: shown.refusal,
    offer: shown.offer,
    notice: noticeOf('flag', c.req.query('done')),
    drafts: openDraftsOf(state, principal),
    drafted: draftedNamed(state, principal, c.req.query('done'), c.req.query('request')),
    protectedEnvironments: protectedFor(state, principal),
  };
}

/** What a flag page shows besides the flag: a refused form, or the offer a switch came back with. */
export interface Shown {
  refusal?: Refusal<unknown> | undefined;
  offer?: SwitchOffer | undefined;
}

/** The flag page, with a refused form or a switch's offer when there is one (at the status set, or `status`). */
export function flagPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, p: FlagPath, shown: Shown = {}, status?: number): Response {
  return renderPage(c, <FlagPage model={model(c, deps, p, shown)} />, status);
}

/** What a form refused for a change made since the page was opened says (`PreconditionFailed`, the API's 412). */
export const STALE_FORM = 'This flag was changed by someone else since you opened it; reload to see the change. Nothing was saved.';

/**
 * A refused form of the flag page (`form` names it when its name depends on the path): the page again with the
 * refusal under its form; a change made since the page was opened is said so, for the form as a whole.
 */
export function refusedOnFlag(call: PageCall<FlagPath>, refusal: Refusal<unknown>, form = refusal.form): Response {
  const stale = refusal.error.kind === 'PreconditionFailed';
  return flagPage(call.c, call.deps, call.params, { refusal: stale ? { ...refusal, form, fields: {}, alert: STALE_FORM } : { ...refusal, form } });
}
