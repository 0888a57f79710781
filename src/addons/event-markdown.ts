/**
 * An event in words, with links into flagpole's console (`PUBLIC_URL`): the text Slack, Teams and Datadog show and
 * a webhook template reads as `eventMarkdown`, word for word what Unleash 6.10 writes for the same event (its
 * `FeatureEventFormatterMd`), bold as `*...*`, links as Markdown or, for Slack, as `<url|text>`.
 */
import { strategyChangeText } from './strategy-change-text.js';
import { EVENT_TEXTS, type TextParts } from './event-texts.js';
import type { UnleashEvent } from './unleash-event.js';

/** How links are written: Markdown `[text](url)` (Teams, Datadog, webhooks) or Slack's `<url|text>`. */
export type LinkStyle = 'markdown' | 'slack';

/** The event's text, and the console page it is about (the button's target), if any. */
export interface FormattedEvent {
  text: string;
  url?: string;
}

const record = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;

/** A value as Mustache prints it: nothing for null or absent. */
export const shown = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** The parts every text is built from, for one event, console and link style. */
function partsOf(event: UnleashEvent, consoleUrl: string, style: LinkStyle): TextParts {
  const link = (url: string, text: string) => (style === 'slack' ? `<${url}|${text}>` : `[${text}](${url})`);
  const project = event.project ?? '';
  const featureUrl = event.type === 'feature-archived'
    ? `${consoleUrl}/archive`
    : event.featureName ? `${consoleUrl}/projects/${project}/features/${event.featureName}` : undefined;
  const feature = event.featureName && featureUrl ? link(featureUrl, event.featureName) : '';
  const projectLink = event.project ? link(`${consoleUrl}/projects/${event.project}`, event.project) : '';
  const data = record(event.data);
  const preData = record(event.preData);
  const title = shown(preData?.['title'] || data?.['title'] || preData?.['name'] || data?.['name']);
  const changeRequestId = data?.['changeRequestId'] || preData?.['changeRequestId'];
  let changeRequest = '';
  if (event.project && changeRequestId) {
    const crUrl = `${consoleUrl}/projects/${event.project}/change-requests/${shown(changeRequestId)}`;
    changeRequest = `*${link(crUrl, `#${shown(changeRequestId)}`)}*`
      + (feature ? ` for feature flag *${feature}*` : '')
      + (event.environment ? ` in the *${event.environment}* environment` : '')
      + ` in project *${projectLink}*`;
  }
  return {
    user: event.createdBy, event, data, preData, feature, project: projectLink, strategyTitle: title,
    strategyChange: event.type === 'feature-strategy-update' ? strategyChangeText(event, title) : '', changeRequest,
  };
}

/**
 * The event in words and the console page it points to; an event type without a text of its own reads
 * `*<user>* triggered *<type>*`, without a page, as in Unleash.
 *
 * @example formatEvent(created, 'https://flags.example.com', 'markdown').text
 *   // '*ann@example.com* created *[checkout](https://flags.example.com/projects/default/features/checkout)* in project *[default](https://flags.example.com/projects/default)*'
 */
export function formatEvent(event: UnleashEvent, consoleUrl: string, style: LinkStyle): FormattedEvent {
  const text = EVENT_TEXTS[event.type];
  if (!text) return { text: `*${event.createdBy}* triggered *${event.type}*` };
  const parts = partsOf(event, consoleUrl, style);
  const path = text.path(parts);
  return path === undefined ? { text: text.action(parts) } : { text: text.action(parts), url: `${consoleUrl}${path}` };
}
