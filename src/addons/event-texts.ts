/**
 * The sentence of each event type and the console page it points to (see `event-markdown.ts`). The sentences are
 * Unleash 6.10's, so messages read the same after a move; the pages are flagpole's console.
 */
import type { UnleashEvent } from './unleash-event.js';

/** What a sentence is built from: the author, the event, links to the flag and project, the strategy's words. */
export interface TextParts {
  user: string;
  event: UnleashEvent;
  data: Record<string, unknown> | null;
  preData: Record<string, unknown> | null;
  /** A link to the flag (empty without one). */
  feature: string;
  /** A link to the project (empty without one). */
  project: string;
  strategyTitle: string;
  strategyChange: string;
  /** `*[#id](url)* for feature flag ... in project ...` for change-request events. */
  changeRequest: string;
}

interface EventText {
  action(p: TextParts): string;
  /** The console path, or undefined for none. */
  path(p: TextParts): string | undefined;
}

const s = (value: unknown): string => (value === null || value === undefined ? '' : String(value));
const b = (text: string) => `*${text}*`;
const env = (p: TextParts) => s(p.event.environment);
const flagPage = (p: TextParts) => `/projects/${s(p.event.project)}/features/${s(p.event.featureName)}`;
const changeRequestPage = (p: TextParts) => `/projects/${s(p.event.project)}/change-requests/${s(p.data?.['changeRequestId'])}`;
const at = (path: string) => () => path;

/** A flag event: `<user> <verb> <flag> ... in project <project>`, pointing at the flag. */
const onFlag = (action: (p: TextParts) => string): EventText => ({ action, path: flagPage });
/** A change-request event, pointing at the change request. */
const onChangeRequest = (action: (p: TextParts) => string): EventText => ({ action, path: changeRequestPage });

export const EVENT_TEXTS: Readonly<Record<string, EventText>> = {
  'addon-config-created': { action: (p) => `${b(p.user)} created a new ${b(s(p.data?.['provider']))} integration configuration`, path: at('/admin/integrations') },
  'addon-config-deleted': { action: (p) => `${b(p.user)} deleted a ${b(s(p.preData?.['provider']))} integration configuration`, path: at('/admin/integrations') },
  'addon-config-updated': { action: (p) => `${b(p.user)} updated a ${b(s(p.preData?.['provider']))} integration configuration`, path: at('/admin/integrations') },
  'api-token-created': { action: (p) => `${b(p.user)} created API token ${b(s(p.data?.['username']))}`, path: at('/admin/tokens') },
  'api-token-deleted': { action: (p) => `${b(p.user)} deleted API token ${b(s(p.preData?.['username']))}`, path: at('/admin/tokens') },
  'change-added': onChangeRequest((p) => `${b(p.user)} added a change to change request ${p.changeRequest}`),
  'change-discarded': onChangeRequest((p) => `${b(p.user)} discarded a change in change request ${p.changeRequest}`),
  'change-edited': onChangeRequest((p) => `${b(p.user)} edited a change in change request ${p.changeRequest}`),
  'change-request-applied': onChangeRequest((p) => `${b(p.user)} applied change request ${p.changeRequest}`),
  'change-request-approval-added': onChangeRequest((p) => `${b(p.user)} added an approval to change request ${p.changeRequest}`),
  'change-request-approved': onChangeRequest((p) => `${b(p.user)} approved change request ${p.changeRequest}`),
  'change-request-cancelled': onChangeRequest((p) => `${b(p.user)} cancelled change request ${p.changeRequest}`),
  'change-request-created': onChangeRequest((p) => `${b(p.user)} created change request ${p.changeRequest}`),
  'change-request-discarded': onChangeRequest((p) => `${b(p.user)} discarded change request ${p.changeRequest}`),
  'change-request-rejected': onChangeRequest((p) => `${b(p.user)} rejected change request ${p.changeRequest}`),
  'change-request-sent-to-review': onChangeRequest((p) => `${b(p.user)} sent to review change request ${p.changeRequest}`),
  'change-request-scheduled': onChangeRequest((p) => `${b(p.user)} scheduled change request ${p.changeRequest} to be applied at ${s(p.data?.['scheduledDate'])}.`),
  'change-request-scheduled-application-success': onChangeRequest((p) => `${b('Successfully')} applied the scheduled change request ${p.changeRequest} by ${b(p.user)}.`),
  'change-request-scheduled-application-failure': onChangeRequest((p) => `${b('Failed')} to apply the scheduled change request ${p.changeRequest} by ${b(p.user)}.`),
  'change-request-schedule-suspended': onChangeRequest((p) => `Change request ${p.changeRequest} was suspended for the following reason: ${s(p.data?.['reason'])}`),
  'context-field-created': { action: (p) => `${b(p.user)} created context field ${b(s(p.data?.['name']))}`, path: at('/admin/context-fields') },
  'context-field-deleted': { action: (p) => `${b(p.user)} deleted context field ${b(s(p.preData?.['name']))}`, path: at('/admin/context-fields') },
  'context-field-updated': { action: (p) => `${b(p.user)} updated context field ${b(s(p.preData?.['name']))}`, path: at('/admin/context-fields') },
  'feature-archived': { action: (p) => `${b(p.user)} archived ${b(s(p.event.featureName))} in project ${b(p.project)}`, path: at('/archive') },
  'feature-created': onFlag((p) => `${b(p.user)} created ${b(p.feature)} in project ${b(p.project)}`),
  'feature-deleted': { action: (p) => `${b(p.user)} deleted ${b(s(p.event.featureName))} in project ${b(p.project)}`, path: (p) => `/projects/${s(p.event.project)}` },
  'feature-environment-disabled': onFlag((p) => `${b(p.user)} disabled ${b(p.feature)} for the ${b(env(p))} environment in project ${b(p.project)}`),
  'feature-environment-enabled': onFlag((p) => `${b(p.user)} enabled ${b(p.feature)} for the ${b(env(p))} environment in project ${b(p.project)}`),
  'feature-environment-variants-updated': onFlag((p) => `${b(p.user)} updated variants for ${b(p.feature)} for the ${b(env(p))} environment in project ${b(p.project)}`),
  'feature-metadata-updated': onFlag((p) => `${b(p.user)} updated ${b(p.feature)} metadata in project ${b(p.project)}`),
  'feature-completed': onFlag((p) => `${b(p.feature)} was marked as completed in project ${b(p.project)}`),
  'feature-potentially-stale-on': onFlag((p) => `${b(p.feature)} was marked as potentially stale in project ${b(p.project)}`),
  'feature-project-change': onFlag((p) => `${b(p.user)} moved ${b(p.feature)} from ${b(s(p.data?.['oldProject']))} to ${b(p.project)}`),
  'feature-revived': onFlag((p) => `${b(p.user)} revived ${b(p.feature)} in project ${b(p.project)}`),
  'feature-stale-off': onFlag((p) => `${b(p.user)} removed the stale marking on ${b(p.feature)} in project ${b(p.project)}`),
  'feature-stale-on': onFlag((p) => `${b(p.user)} marked ${b(p.feature)} as stale in project ${b(p.project)}`),
  'feature-strategy-add': onFlag((p) => `${b(p.user)} added strategy ${b(p.strategyTitle)} to ${b(p.feature)} for the ${b(env(p))} environment in project ${b(p.project)}`),
  'feature-strategy-remove': onFlag((p) => `${b(p.user)} removed strategy ${b(p.strategyTitle)} from ${b(p.feature)} for the ${b(env(p))} environment in project ${b(p.project)}`),
  'feature-strategy-update': onFlag((p) => `${b(p.user)} updated ${b(p.feature)} in project ${b(p.project)} ${p.strategyChange}`),
  'feature-tagged': onFlag((p) => `${b(p.user)} tagged ${b(p.feature)} with ${b(`${s(p.data?.['type'])}:${s(p.data?.['value'])}`)} in project ${b(p.project)}`),
  'feature-untagged': onFlag((p) => `${b(p.user)} untagged ${b(p.feature)} with ${b(`${s(p.preData?.['type'])}:${s(p.preData?.['value'])}`)} in project ${b(p.project)}`),
  'project-created': { action: (p) => `${b(p.user)} created project ${b(p.project)}`, path: at('/projects') },
  'project-archived': { action: (p) => `${b(p.user)} archived project ${b(s(p.event.project))}`, path: at('/projects') },
  'project-deleted': { action: (p) => `${b(p.user)} deleted project ${b(s(p.event.project))}`, path: at('/projects') },
  'segment-created': { action: (p) => `${b(p.user)} created segment ${b(s(p.data?.['name']))}`, path: at('/admin/segments') },
  'segment-deleted': { action: (p) => `${b(p.user)} deleted segment ${b(s(p.preData?.['name']))}`, path: at('/admin/segments') },
  'segment-updated': { action: (p) => `${b(p.user)} updated segment ${b(s(p.preData?.['name']))}`, path: at('/admin/segments') },
  'user-created': { action: (p) => `${b(p.user)} created user ${b(s(p.data?.['name']))}`, path: at('/admin/users') },
  'user-deleted': { action: (p) => `${b(p.user)} deleted user ${b(s(p.preData?.['name']))}`, path: at('/admin/users') },
  'user-updated': { action: (p) => `${b(p.user)} updated user ${b(s(p.preData?.['name']))}`, path: at('/admin/users') },
};
