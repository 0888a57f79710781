/**
 * The HTTP requests an addon sends for one event: the same method, headers and body Unleash 6.10 sends for the same
 * event and parameters (docs/api-decisions.md "Integrations"), plus what the delivery log records of them. Pure: the
 * sender (`http-sender.ts`) makes the requests, `delivery-outcome.ts` words their answers.
 */
import Mustache from 'mustache';
import type { Addon } from '../domain/addons/addon.js';
import { formatEvent } from './event-markdown.js';
import type { UnleashEvent } from './unleash-event.js';

/** One request to send. */
export interface OutgoingRequest {
  /** The Slack channel it posts to; null for the single request of other providers. */
  channel: string | null;
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Sent gzipped, with `Content-Encoding: gzip` (New Relic). */
  gzip: boolean;
  /** `slack-api`: Slack's Web API answers 200 with `{ok: false, error}` for a failed call. */
  answer: 'status' | 'slack-api';
}

/** How a provider's outcomes are worded (`delivery-outcome.ts`). */
export type Wording = 'webhook' | 'datadog' | 'new-relic' | 'teams' | 'slack' | 'slack-app';

/** What one event makes an addon send. */
export interface DeliveryPlan {
  wording: Wording;
  requests: OutgoingRequest[];
  /** Problems that do not stop the send (custom headers that do not parse): a success becomes `successWithErrors`. */
  warnings: string[];
  /** What the delivery log keeps (its secrets are masked before it is stored). */
  details: Record<string, unknown>;
  /** Set when there is nothing to send (the App for Slack without a channel): the delivery fails with this text. */
  nothingToSend?: string;
}

/** Where texts link to and where the App for Slack posts. */
export interface PlanSettings {
  /** flagpole's console, as its users reach it (`PUBLIC_URL`). */
  consoleUrl: string;
  /** Slack's Web API (`SLACK_API_URL`, `https://slack.com/api` by default). */
  slackApiUrl: string;
}

const DATADOG_URL = 'https://api.datadoghq.com/api/v1/events';
const SLACK_TEXT_MAX = 3000;
const BAD_HEADERS = 'Could not parse the JSON in the customHeaders parameter.';

/** Mustache without HTML escaping, as Unleash 6.10 renders (its formatter turns escaping off for every render). */
const render = (template: string, view: object): string => Mustache.render(template, view, undefined, { escape: (text: string) => text });

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : value === undefined ? undefined : String(value));

/** Headers with `extra` added last, replacing same-named ones whatever their case. */
function headersWith(base: Record<string, string>, extra: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { ...base };
  for (const [name, value] of Object.entries(extra)) {
    for (const key of Object.keys(out)) if (key.toLowerCase() === name.toLowerCase()) delete out[key];
    out[name] = value;
  }
  return out;
}

/** `customHeaders` parsed (a JSON object, values as text), or the warning when it does not parse. */
function customHeaders(addon: Addon, warnings: string[]): Record<string, string> {
  const raw = text(addon.parameters['customHeaders']);
  if (raw === undefined || raw.length <= 1) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
  } catch {
    warnings.push(BAD_HEADERS);
    return {};
  }
}

/** A `bodyTemplate` longer than one character, as Unleash uses it; else undefined. */
const templateOf = (addon: Addon): string | undefined => {
  const template = text(addon.parameters['bodyTemplate']);
  return template !== undefined && template.length > 1 ? template : undefined;
};

/** Whether `offset` of `value` is inside a double-quoted JSON string (a backslash escapes the next character). */
function insideQuotes(value: string, offset: number): boolean {
  let inside = false;
  for (let i = 0; i < offset; i += 1) {
    if (value[i] === '\\') i += 1;
    else if (value[i] === '"') inside = !inside;
  }
  return inside;
}

/**
 * The webhook's templated body: `eventMarkdown` goes in JSON-escaped inside a quoted JSON string (so a quote in it
 * keeps the body valid JSON, as Unleash does since 2025) and as it is elsewhere.
 */
function webhookBody(template: string, event: UnleashEvent, markdown: string): string {
  const marker = '\u0000FLAGPOLE_EVENT_MARKDOWN\u0000';
  const rendered = render(template, { event, eventJson: JSON.stringify(JSON.stringify(event)), eventMarkdown: marker });
  const escaped = JSON.stringify(markdown).slice(1, -1);
  return rendered.replaceAll(marker, (_m: string, offset: number) => (insideQuotes(rendered, offset) ? escaped : markdown));
}

function webhook(addon: Addon, event: UnleashEvent, settings: PlanSettings, warnings: string[]): DeliveryPlan {
  const url = text(addon.parameters['url']) ?? '';
  const contentType = text(addon.parameters['contentType']) || 'application/json';
  const authorization = text(addon.parameters['authorization']);
  const template = templateOf(addon);
  const body = template === undefined ? JSON.stringify(event) : webhookBody(template, event, formatEvent(event, settings.consoleUrl, 'markdown').text);
  const base: Record<string, string> = authorization ? { 'Content-Type': contentType, Authorization: authorization } : { 'Content-Type': contentType };
  const headers = headersWith(base, customHeaders(addon, warnings));
  return {
    wording: 'webhook', warnings, requests: [{ channel: null, url, headers, body, gzip: false, answer: 'status' }],
    details: { url, contentType, body: template === undefined ? event : body },
  };
}

function datadog(addon: Addon, event: UnleashEvent, settings: PlanSettings, warnings: string[]): DeliveryPlan {
  const url = text(addon.parameters['url']) || DATADOG_URL;
  const template = templateOf(addon);
  const body: Record<string, unknown> = {
    text: template === undefined ? `%%% \n ${formatEvent(event, settings.consoleUrl, 'markdown').text} \n %%% ` : render(template, { event }),
    title: 'Unleash notification update',
    tags: event.tags.map((tag) => `${tag.type}:${tag.value}`),
  };
  const source = text(addon.parameters['sourceTypeName']);
  if (source) body['source_type_name'] = source;
  const headers = headersWith({ 'Content-Type': 'application/json', 'DD-API-KEY': text(addon.parameters['apiKey']) ?? '' }, customHeaders(addon, warnings));
  return { wording: 'datadog', warnings, requests: [{ channel: null, url, headers, body: JSON.stringify(body), gzip: false, answer: 'status' }], details: { url, body } };
}

function newRelic(addon: Addon, event: UnleashEvent, warnings: string[]): DeliveryPlan {
  const url = text(addon.parameters['url']) ?? '';
  // As in Unleash: `data` is spread last, so a flag's own fields (its `createdAt` too) win over the event's.
  const data = typeof event.data === 'object' && event.data !== null ? event.data : {};
  const body = {
    eventType: 'UnleashServiceEvent', unleashEventType: event.type, featureName: event.featureName, environment: event.environment,
    createdBy: event.createdBy, createdByUserId: event.createdByUserId, createdAt: Date.parse(event.createdAt), ...data,
  };
  const headers = headersWith({ 'Api-Key': text(addon.parameters['licenseKey']) ?? '', 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, customHeaders(addon, warnings));
  return { wording: 'new-relic', warnings, requests: [{ channel: null, url, headers, body: JSON.stringify(body), gzip: true, answer: 'status' }], details: { body } };
}

function teams(addon: Addon, event: UnleashEvent, settings: PlanSettings, warnings: string[]): DeliveryPlan {
  const url = text(addon.parameters['url']) ?? '';
  const { text: words, url: link } = formatEvent(event, settings.consoleUrl, 'markdown');
  const body = addon.provider === 'teams'
    ? {
        themeColor: '0076D7', summary: 'Message',
        sections: [{ activityTitle: words, activitySubtitle: 'Unleash notification update', facts: [{ name: 'User', value: event.createdBy }, { name: 'Action', value: event.type }] }],
        potentialAction: [{ '@type': 'OpenUri', name: 'Go to feature', targets: [{ os: 'default', uri: link }] }],
      }
    : {
        type: 'message',
        attachments: [{
          contentType: 'application/vnd.microsoft.card.adaptive',
          content: {
            type: 'AdaptiveCard',
            body: [{ type: 'Container', items: [
              { type: 'TextBlock', text: 'Unleash update notification', style: 'heading' },
              { type: 'TextBlock', text: words, wrap: true },
              { type: 'FactSet', facts: [{ title: 'User:', value: event.createdBy }, { title: 'Action:', value: event.type }] },
            ] }],
            actions: [{ type: 'Action.OpenUrl', title: 'Go to feature', url: link }],
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            version: '1.5',
          },
        }],
      };
  const headers = headersWith({ 'Content-Type': 'application/json' }, customHeaders(addon, warnings));
  return { wording: 'teams', warnings, requests: [{ channel: null, url, headers, body: JSON.stringify(body), gzip: false, answer: 'status' }], details: { body } };
}

/** The channels named by the flag's `slack` tags. */
const taggedChannels = (event: UnleashEvent) => event.tags.filter((t) => t.type === 'slack').map((t) => t.value);

/** A Slack text cut at 3000 characters, and the message the log keeps (noting the cut). */
function slackText(words: string): { text: string; message: string } {
  const cut = words.substring(0, SLACK_TEXT_MAX);
  return { text: cut, message: cut.length < words.length ? `${words} (trimmed to ${SLACK_TEXT_MAX} characters)` : words };
}

function slackWebhook(addon: Addon, event: UnleashEvent, settings: PlanSettings, warnings: string[]): DeliveryPlan {
  const url = text(addon.parameters['url']) ?? '';
  const username = text(addon.parameters['username']) ?? 'Unleash';
  const emoji = text(addon.parameters['emojiIcon']) ?? ':unleash:';
  const tagged = taggedChannels(event);
  const channels = tagged.length > 0 ? tagged : [text(addon.parameters['defaultChannel']) ?? ''];
  const headers = headersWith({ 'Content-Type': 'application/json' }, customHeaders(addon, warnings));
  const formatted = formatEvent(event, settings.consoleUrl, 'slack');
  const { text: cut, message } = slackText(formatted.text);
  const requests = channels.map((channel): OutgoingRequest => ({
    channel, url, headers, gzip: false, answer: 'status',
    body: JSON.stringify({
      username, icon_emoji: emoji, text: cut, channel: `#${channel}`,
      attachments: [{ actions: [{ name: 'featureToggle', text: 'Open in Unleash', type: 'button', value: 'featureToggle', style: 'primary', url: formatted.url }] }],
    }),
  }));
  return { wording: 'slack', warnings, requests, details: { url, channels, username, message } };
}

function slackApp(addon: Addon, event: UnleashEvent, settings: PlanSettings, warnings: string[]): DeliveryPlan {
  const token = text(addon.parameters['accessToken']) ?? '';
  const defaults = (text(addon.parameters['defaultChannels']) ?? '').split(',').map((c) => c.trim()).filter((c) => c.length > 0);
  const channels = [...new Set([...taggedChannels(event), ...defaults])];
  if (!token) return { wording: 'slack-app', warnings, requests: [], details: { channels: [], message: '' }, nothingToSend: 'No access token provided.' };
  if (channels.length === 0) return { wording: 'slack-app', warnings, requests: [], details: { channels: [], message: '' }, nothingToSend: `No Slack channels found for event ${event.type}.` };
  const formatted = formatEvent(event, settings.consoleUrl, 'slack');
  const { text: cut, message } = slackText(formatted.text);
  const blocks: unknown[] = [{ type: 'section', text: { type: 'mrkdwn', text: cut } }];
  if (formatted.url) blocks.push({ type: 'actions', elements: [{ type: 'button', url: formatted.url, text: { type: 'plain_text', text: 'Open in Unleash' }, value: 'featureToggle', style: 'primary' }] });
  // What Slack's Web API client sends for chat.postMessage: a form, objects as JSON.
  const requests = channels.map((channel): OutgoingRequest => ({
    channel, url: `${settings.slackApiUrl}/chat.postMessage`, gzip: false, answer: 'slack-api',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Bearer ${token}` },
    body: new URLSearchParams({ channel, text: cut, blocks: JSON.stringify(blocks), unfurl_links: 'false' }).toString(),
  }));
  return { wording: 'slack-app', warnings, requests, details: { channels, message } };
}

/**
 * What `addon` sends for `event`. Throws only for a provider flagpole does not know (the mailbox refuses those).
 *
 * @example planDelivery(webhookAddon, event, settings).requests[0].body // JSON.stringify(event)
 */
export function planDelivery(addon: Addon, event: UnleashEvent, settings: PlanSettings): DeliveryPlan {
  const warnings: string[] = [];
  switch (addon.provider) {
    case 'webhook': return webhook(addon, event, settings, warnings);
    case 'datadog': return datadog(addon, event, settings, warnings);
    case 'new-relic': return newRelic(addon, event, warnings);
    case 'teams':
    case 'teamsworkflow': return teams(addon, event, settings, warnings);
    case 'slack': return slackWebhook(addon, event, settings, warnings);
    case 'slack-app': return slackApp(addon, event, settings, warnings);
    default: throw new Error(`no delivery for provider ${addon.provider}`);
  }
}
