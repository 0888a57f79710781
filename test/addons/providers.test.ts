/**
 * Every provider against a real HTTP receiver on loopback: the method, headers and body of each request are the
 * ones Unleash 6.10.1 sends for the same event (shared/reference/unleash-addons-6.10-observed.md), with the texts
 * and links pointing into flagpole's console (PUBLIC_URL). The first test runs the scenario (expect.poll waits on
 * the receivers); the others read what it recorded.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { harness, type Harness } from '../helpers/harness.js';
import { receiver, type Received, type Receiver } from '../helpers/receiver.js';

const URL_ = 'https://flags.example.com';
const FLAG = 'igxx-main';
const F = `[${FLAG}](${URL_}/projects/default/features/${FLAG})`;
const PJ = `[default](${URL_}/projects/default)`;
const EVENTS = ['feature-created', 'feature-metadata-updated', 'feature-strategy-add', 'feature-strategy-update', 'feature-strategy-remove', 'feature-environment-enabled', 'feature-environment-disabled', 'feature-archived'];
const TEMPLATE = '{"type":"{{event.type}}","flag":"{{event.featureName}}","project":"{{event.project}}","env":"{{event.environment}}","by":"{{event.createdBy}}","desc":"{{event.data.description}}","md":"{{eventMarkdown}}","json":{{{eventJson}}}}';

let h: Harness;
const r: Record<string, Receiver> = {};
/** The webhook's requests, one per event, in commit order: the events themselves. */
let events: Record<string, unknown>[] = [];
let strategyId = '';
const by = 'init-admin-token-1';

/** The Markdown text of each event, as Unleash 6.10.1 writes it (links into flagpole's console). */
const TEXTS: Record<string, string> = {
  'feature-created': `*${by}* created *${F}* in project *${PJ}*`,
  'feature-metadata-updated': `*${by}* updated *${F}* metadata in project *${PJ}*`,
  'feature-strategy-add': `*${by}* added strategy *flexibleRollout* to *${F}* for the *development* environment in project *${PJ}*`,
  'feature-strategy-update': `*${by}* updated *${F}* in project *${PJ}* by updating strategy *flexibleRollout* in *development* rollout from 50% to 75%`,
  'feature-environment-enabled': `*${by}* enabled *${F}* for the *development* environment in project *${PJ}*`,
  'feature-environment-disabled': `*${by}* disabled *${F}* for the *development* environment in project *${PJ}*`,
  'feature-strategy-remove': `*${by}* removed strategy *flexibleRollout* from *${F}* for the *development* environment in project *${PJ}*`,
  'feature-archived': `*${by}* archived *${FLAG}* in project *${PJ}*`,
};
const ORDER = ['feature-created', 'feature-metadata-updated', 'feature-strategy-add', 'feature-strategy-update', 'feature-environment-enabled', 'feature-environment-disabled', 'feature-strategy-remove', 'feature-archived'];

const slackApi = () => ({ status: 200, body: '{"ok":true,"channel":"C1","ts":"1.2"}', headers: { 'content-type': 'application/json' } });

test('a flag\'s life reaches every addon, an event at a time', async () => {
  for (const name of ['webhook', 'template', 'datadog', 'newRelic', 'teams']) r[name] = await receiver();
  r['slack'] = await receiver(slackApi);
  h = await harness({ UNLEASH_ALLOW_LIST_INTEGRATION: '127.0.0.1', PUBLIC_URL: URL_, SLACK_API_URL: r['slack']!.url }, undefined, { deliver: true });
  const add = async (body: Record<string, unknown>) => expect((await h.json('POST', '/api/admin/addons', { events: EVENTS, ...body })).status).toBe(201);
  await add({ provider: 'webhook', parameters: { url: `${r['webhook']!.url}/hook`, authorization: 'Bearer hook-secret', customHeaders: '{"X-Team":"flags","Content-Type":"application/vnd.team+json"}' } });
  await add({ provider: 'webhook', parameters: { url: `${r['template']!.url}/t`, bodyTemplate: TEMPLATE } });
  await add({ provider: 'datadog', parameters: { url: `${r['datadog']!.url}/api/v1/events`, apiKey: 'dd-key', sourceTypeName: 'unleash' } });
  await add({ provider: 'new-relic', parameters: { url: `${r['newRelic']!.url}/v1/accounts/1/events`, licenseKey: 'nr-key' } });
  await add({ provider: 'teamsworkflow', parameters: { url: `${r['teams']!.url}/workflows/1` } });
  await add({ provider: 'slack-app', parameters: { accessToken: 'xoxb-secret', defaultChannels: 'general, ops' } });
  const all = () => Object.values(r);
  /** Waits until every receiver has had `n` events (two requests an event for Slack: two channels). */
  const delivered = async (n: number) => {
    await expect.poll(() => all().map((x) => x.received.length), { timeout: 20_000 }).toEqual(all().map((x) => (x === r['slack'] ? 2 * n : n)));
  };
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await h.json(method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };
  const base = '/api/admin/projects/default/features';
  await ok('POST', base, { name: FLAG, description: 'first <b>&amp', type: 'release' });
  await delivered(1);
  await ok('POST', `/api/admin/features/${FLAG}/tags`, { type: 'simple', value: 'igxx' });
  await ok('PUT', `${base}/${FLAG}`, { name: FLAG, description: 'second', type: 'release' });
  await delivered(2);
  strategyId = (await ok('POST', `${base}/${FLAG}/environments/development/strategies`, { name: 'flexibleRollout', parameters: { groupId: FLAG, rollout: '50', stickiness: 'default' } })).id;
  await delivered(3);
  await ok('PUT', `${base}/${FLAG}/environments/development/strategies/${strategyId}`, { name: 'flexibleRollout', parameters: { groupId: FLAG, rollout: '75', stickiness: 'default' } });
  await delivered(4);
  await ok('POST', `${base}/${FLAG}/environments/development/on`);
  await delivered(5);
  await ok('POST', `${base}/${FLAG}/environments/development/off`);
  await delivered(6);
  await ok('DELETE', `${base}/${FLAG}/environments/development/strategies/${strategyId}`);
  await delivered(7);
  await ok('DELETE', `${base}/${FLAG}`);
  await delivered(8);
  events = r['webhook']!.received.map((x) => x.json as Record<string, unknown>);
}, 60_000);

afterAll(async () => {
  await h?.close();
  for (const x of Object.values(r)) await x.close();
});

/** Headers a receiver checks, without the ones the HTTP client adds (host, length, connection). */
const headersOf = (x: Received) => Object.fromEntries(Object.entries(x.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k)));

describe('the events (a webhook without a template posts them as they are)', () => {
  test('are Unleash\'s event types in commit order, with its fields in its order', () => {
    expect(events.map((e) => e['type'])).toEqual(ORDER);
    for (const e of events) {
      expect(Object.keys(e)).toEqual(['id', 'type', 'createdBy', 'createdAt', 'createdByUserId', 'data', 'preData', 'tags', 'featureName', 'project', 'environment']);
      expect(e).toMatchObject({ createdBy: by, createdByUserId: -42, featureName: FLAG, project: 'default' });
      expect(Number.isSafeInteger(e['id'])).toBe(true);
    }
    expect(new Set(events.map((e) => e['id'])).size).toBe(events.length);
  });

  test('carry the flag, the strategy before and after, the environment and the flag\'s tags as Unleash does', () => {
    const flag = (description: string) => ({ name: FLAG, description, type: 'release', project: 'default', stale: false, createdAt: expect.any(String), lastSeenAt: null, impressionData: false, archived: false });
    const strategy = (rollout: string) => ({ id: strategyId, name: 'flexibleRollout', title: null, disabled: false, constraints: [], parameters: { groupId: FLAG, rollout, stickiness: 'default' }, variants: [], sortOrder: 0, segments: [] });
    const [created, metadata, add, update, enabled, disabled, remove, archived] = events;
    expect(created).toMatchObject({ data: flag('first <b>&amp'), preData: null, tags: [], environment: null });
    expect(Object.keys(created!['data'] as object)).toEqual(['name', 'description', 'type', 'project', 'stale', 'createdAt', 'lastSeenAt', 'impressionData', 'archived']);
    const tags = [{ type: 'simple', value: 'igxx' }];
    expect(metadata).toMatchObject({ data: flag('second'), preData: flag('first <b>&amp'), tags, environment: null });
    expect(add).toMatchObject({ data: strategy('50'), preData: null, tags, environment: 'development' });
    expect(Object.keys(add!['data'] as object)).toEqual(['id', 'name', 'title', 'disabled', 'constraints', 'parameters', 'variants', 'sortOrder', 'segments']);
    expect(update).toMatchObject({ data: strategy('75'), preData: strategy('50'), environment: 'development' });
    expect(enabled).toMatchObject({ data: null, preData: null, environment: 'development' });
    expect(disabled).toMatchObject({ data: null, preData: null, environment: 'development' });
    expect(remove).toMatchObject({ data: null, preData: strategy('75'), environment: 'development' });
    expect(archived).toMatchObject({ data: null, preData: null, environment: null });
  });
});

describe('webhook', () => {
  test('POSTs the event as JSON with the authorization and custom headers (custom headers last, replacing the content type)', () => {
    for (const x of r['webhook']!.received) {
      expect(x.method).toBe('POST');
      expect(x.path).toBe('/hook');
      expect(headersOf(x)).toEqual({ 'content-type': 'application/vnd.team+json', authorization: 'Bearer hook-secret', 'x-team': 'flags' });
      expect(x.text).toBe(JSON.stringify(x.json));
    }
  });

  test('renders a body template with Mustache, without HTML escaping: eventJson a JSON string literal, eventMarkdown escaped inside quotes', () => {
    const [first] = r['template']!.received;
    expect(headersOf(first!)).toEqual({ 'content-type': 'application/json' });
    const event = events[0]!;
    expect(first!.text).toBe(`{"type":"feature-created","flag":"${FLAG}","project":"default","env":"","by":"${by}","desc":"first <b>&amp","md":"${TEXTS['feature-created']}","json":${JSON.stringify(JSON.stringify(event))}}`);
    expect(JSON.parse((first!.json as { json: string }).json)).toEqual(event);
  });
});

describe('the texts', () => {
  test('are Unleash 6.10\'s sentences, linking into PUBLIC_URL (Datadog\'s text, the Teams card)', () => {
    const datadog = r['datadog']!.received.map((x) => (x.json as { text: string }).text);
    expect(datadog).toEqual(ORDER.map((type) => `%%% \n ${TEXTS[type]} \n %%% `));
  });
});

describe('datadog', () => {
  test('POSTs to its events API with DD-API-KEY, the flag\'s tags and the source type', () => {
    const [created, metadata] = r['datadog']!.received;
    expect(created!.method).toBe('POST');
    expect(created!.path).toBe('/api/v1/events');
    expect(headersOf(created!)).toEqual({ 'content-type': 'application/json', 'dd-api-key': 'dd-key' });
    expect(created!.json).toEqual({ text: `%%% \n ${TEXTS['feature-created']} \n %%% `, title: 'Unleash notification update', tags: [], source_type_name: 'unleash' });
    expect(metadata!.text).toBe(JSON.stringify({ text: `%%% \n ${TEXTS['feature-metadata-updated']} \n %%% `, title: 'Unleash notification update', tags: ['simple:igxx'], source_type_name: 'unleash' }));
  });
});

describe('new-relic', () => {
  test('POSTs a gzipped UnleashServiceEvent with Api-Key, the event\'s data spread last', () => {
    const [created, , add] = r['newRelic']!.received;
    expect(headersOf(created!)).toEqual({ 'api-key': 'nr-key', 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(created!.raw.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const flagEvent = events[0]!;
    expect(created!.json).toEqual({ eventType: 'UnleashServiceEvent', unleashEventType: 'feature-created', featureName: FLAG, environment: null, createdBy: by, createdByUserId: -42, ...(flagEvent['data'] as object) });
    expect((created!.json as { createdAt: unknown }).createdAt).toBe((flagEvent['data'] as { createdAt: string }).createdAt);
    expect(add!.json).toEqual({
      eventType: 'UnleashServiceEvent', unleashEventType: 'feature-strategy-add', featureName: FLAG, environment: 'development', createdBy: by, createdByUserId: -42,
      createdAt: Date.parse(events[2]!['createdAt'] as string), ...(events[2]!['data'] as object),
    });
  });
});

describe('teamsworkflow', () => {
  test('POSTs an Adaptive Card with the text, the author and the action, and a button to the flag (to the archive for an archived one)', () => {
    const card = (text: string, type: string, url: string) => ({
      type: 'message',
      attachments: [{
        contentType: 'application/vnd.microsoft.card.adaptive',
        content: {
          type: 'AdaptiveCard',
          body: [{ type: 'Container', items: [
            { type: 'TextBlock', text: 'Unleash update notification', style: 'heading' },
            { type: 'TextBlock', text, wrap: true },
            { type: 'FactSet', facts: [{ title: 'User:', value: by }, { title: 'Action:', value: type }] },
          ] }],
          actions: [{ type: 'Action.OpenUrl', title: 'Go to feature', url }],
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          version: '1.5',
        },
      }],
    });
    const received = r['teams']!.received;
    expect(headersOf(received[0]!)).toEqual({ 'content-type': 'application/json' });
    expect(received[0]!.text).toBe(JSON.stringify(card(TEXTS['feature-created']!, 'feature-created', `${URL_}/projects/default/features/${FLAG}`)));
    expect(received.at(-1)!.json).toEqual(card(TEXTS['feature-archived']!, 'feature-archived', `${URL_}/archive`));
  });
});

describe('slack-app', () => {
  test('calls chat.postMessage once per channel with a Bearer token, the text with Slack links, blocks and unfurl_links', () => {
    const received = r['slack']!.received;
    const channels = received.map((x) => new URLSearchParams(x.text).get('channel'));
    expect(channels.slice(0, 2)).toEqual(['general', 'ops']);
    const [first] = received;
    expect(first!.method).toBe('POST');
    expect(first!.path).toBe('/chat.postMessage');
    expect(headersOf(first!)).toEqual({ 'content-type': 'application/x-www-form-urlencoded', authorization: 'Bearer xoxb-secret' });
    const form = Object.fromEntries(new URLSearchParams(first!.text));
    const text = `*${by}* created *<${URL_}/projects/default/features/${FLAG}|${FLAG}>* in project *<${URL_}/projects/default|default>*`;
    expect(form).toEqual({
      channel: 'general', text, unfurl_links: 'false',
      blocks: JSON.stringify([
        { type: 'section', text: { type: 'mrkdwn', text } },
        { type: 'actions', elements: [{ type: 'button', url: `${URL_}/projects/default/features/${FLAG}`, text: { type: 'plain_text', text: 'Open in Unleash' }, value: 'featureToggle', style: 'primary' }] },
      ]),
    });
  });

  test('the delivery log says how each event went, in Unleash\'s words, without the token', async () => {
    // The last entry is written after the receiver answered: wait for it.
    await expect.poll(async () => (await h.json('GET', '/api/admin/addons/6/events?limit=100')).body.integrationEvents.length).toBe(8);
    const log = (await h.json('GET', '/api/admin/addons/6/events?limit=100')).body.integrationEvents;
    expect(log[0]).toMatchObject({ integrationId: 6, state: 'success', stateDetails: 'All (2) Slack client calls were successful.', attempt: 1, retryAt: null, details: { channels: ['general', 'ops'] } });
    expect(JSON.stringify(log)).not.toContain('xoxb-secret');
    const webhookLog = (await h.json('GET', '/api/admin/addons/1/events')).body.integrationEvents;
    expect(webhookLog[0]).toMatchObject({ state: 'success', stateDetails: 'Webhook request was successful with status code: 200.', details: { url: '*****', contentType: 'application/json' } });
    expect(JSON.stringify(webhookLog)).not.toContain('hook-secret');
    expect(JSON.stringify(webhookLog)).not.toContain(r['webhook']!.url);
  });
});
