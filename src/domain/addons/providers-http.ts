/**
 * The providers that post to an HTTP endpoint of the user's choice or of an observability service: `webhook`,
 * `datadog`, `new-relic`. Names, parameters, events and tag types are Unleash's (a console or a script written
 * for Unleash finds the same form); the texts are flagpole's.
 */
import { OBSERVABILITY_EVENTS, WEBHOOK_EVENTS } from './unleash-event-types.js';
import { PROXY_HEADERS_EXAMPLE, customHeadersParameter, param, type ProviderDefinition } from './provider-definition.js';

const HEADERS_EXAMPLE = '{\n  "SOME_CUSTOM_HTTP_HEADER": "SOME_VALUE",\n  "SOME_OTHER_CUSTOM_HTTP_HEADER": "SOME_OTHER_VALUE"\n}';

export const WEBHOOK: ProviderDefinition = {
  name: 'webhook',
  displayName: 'Webhook',
  description: 'A webhook posts every selected event to a URL of your own, as JSON or through a template.',
  documentationUrl: 'https://docs.getunleash.io/integrate/webhook',
  howTo: 'flagpole posts each selected event to the URL below, retrying with growing waits while the receiver is down. Without a body template the body is the event as JSON.',
  parameters: [
    param({ name: 'url', displayName: 'Webhook URL', description: '(Required) flagpole sends an HTTP POST to this URL.', type: 'url', required: true, sensitive: true }),
    param({ name: 'contentType', displayName: 'Content-Type', placeholder: 'application/json', description: '(Optional) The Content-Type header of the request; "application/json" when empty.', type: 'text' }),
    param({ name: 'authorization', displayName: 'Authorization', placeholder: '', description: '(Optional) The Authorization header of the request; none when empty.', type: 'text', sensitive: true }),
    customHeadersParameter(PROXY_HEADERS_EXAMPLE),
    param({
      name: 'bodyTemplate',
      displayName: 'Body template',
      placeholder: '{\n  "event": "{{event.type}}",\n  "createdBy": "{{event.createdBy}}",\n  "featureToggle": "{{event.data.name}}",\n  "timestamp": "{{event.data.createdAt}}",\n  "json": {{{eventJson}}}\n}',
      description: '(Optional) A Mustache template of the body, given `event`, `eventJson` (the event as a JSON string literal: use `{{{eventJson}}}`) and `eventMarkdown` (the event in words). Values are inserted as they are, without HTML escaping.',
      type: 'textfield',
    }),
  ],
  events: WEBHOOK_EVENTS,
};

export const DATADOG: ProviderDefinition = {
  name: 'datadog',
  displayName: 'Datadog',
  description: 'Posts the selected events to Datadog\'s events API.',
  documentationUrl: 'https://docs.getunleash.io/integrate/datadog',
  howTo: 'flagpole posts an event to Datadog for each selected change; the flag\'s tags go with it.',
  parameters: [
    param({ name: 'url', displayName: 'Datadog Events URL', description: 'https://api.datadoghq.com/api/v1/events when empty; set your site\'s events URL when it is not US1.', type: 'url' }),
    param({ name: 'apiKey', displayName: 'Datadog API key', placeholder: 'j96c23b0f12a6b3434a8d710110bd862', description: '(Required) The API key sent as DD-API-KEY.', type: 'text', required: true, sensitive: true }),
    param({ name: 'sourceTypeName', displayName: 'Datadog Source Type Name', description: '(Optional) The source_type_name of the Datadog events.', type: 'text' }),
    customHeadersParameter(HEADERS_EXAMPLE),
    param({
      name: 'bodyTemplate',
      displayName: 'Body template',
      placeholder: '{\n  "event": "{{event.type}}",\n  "createdBy": "{{event.createdBy}}",\n  "featureToggle": "{{event.data.name}}",\n  "timestamp": "{{event.data.createdAt}}"\n}',
      description: '(Optional) A Mustache template (given `event`) for the event\'s text, instead of the change in words.',
      type: 'textfield',
    }),
  ],
  events: OBSERVABILITY_EVENTS,
  tagTypes: [{ name: 'datadog', description: 'Tags sent with the flag\'s events to Datadog.', icon: 'D' }],
};

export const NEW_RELIC: ProviderDefinition = {
  name: 'new-relic',
  displayName: 'New Relic',
  description: 'Posts the selected events to New Relic\'s event API.',
  documentationUrl: 'https://docs.getunleash.io/integrate',
  howTo: 'flagpole posts an UnleashServiceEvent to New Relic for each selected change.',
  parameters: [
    param({ name: 'url', displayName: 'New Relic Event URL', description: '(Required) Your account\'s event URL, such as https://insights-collector.newrelic.com/v1/accounts/YOUR_ACCOUNT_ID/events (EU accounts have their own).', type: 'url', required: true }),
    param({ name: 'licenseKey', displayName: 'New Relic License Key', placeholder: 'eu01xx0f12a6b3434a8d710110bd862', description: '(Required) The license key sent as Api-Key.', type: 'text', required: true, sensitive: true }),
    customHeadersParameter(HEADERS_EXAMPLE),
    param({
      name: 'bodyTemplate',
      displayName: 'Body template',
      placeholder: '{\n  "event": "{{event.type}}",\n  "eventType": "unleash",\n  "createdBy": "{{event.createdBy}}",\n  "featureToggle": "{{event.data.name}}",\n  "timestamp": "{{event.data.createdAt}}"\n}',
      description: '(Optional) Accepted for compatibility; as in Unleash, the body sent does not use it.',
      type: 'textfield',
    }),
  ],
  events: OBSERVABILITY_EVENTS,
  tagTypes: [{ name: 'new-relic', description: 'Tags for the flag\'s events sent to New Relic.', icon: 'D' }],
};
