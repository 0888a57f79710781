/**
 * The chat providers: the App for Slack (`slack-app`), Microsoft Teams workflows (`teamsworkflow`), and the
 * deprecated Slack webhook (`slack`) and Teams connector (`teams`), which existing addons keep using but no new
 * addon may choose (as in Unleash). Names, parameters, events and tag types are Unleash's; the texts are flagpole's.
 */
import { SLACK_APP_EVENTS, SLACK_EVENTS, TEAMS_EVENTS } from './unleash-event-types.js';
import { PROXY_HEADERS_EXAMPLE, customHeadersParameter, param, type ProviderDefinition } from './provider-definition.js';

const SLACK_TAG_TYPE = { name: 'slack', description: 'A Slack channel to post the flag\'s events to (the tag\'s value, without #).', icon: 'S' };

export const SLACK_APP: ProviderDefinition = {
  name: 'slack-app',
  displayName: 'App for Slack',
  description: 'Posts the selected events to channels of your Slack workspace.',
  documentationUrl: 'https://docs.getunleash.io/integrate/slack-app',
  howTo: 'Events go to the channels listed below and to every channel named by a "slack" tag of the flag (the tag slack:general posts to #general). The app reads public channels; invite it to private ones.',
  installation: {
    url: 'https://app-for-slack.getunleash.io/install',
    title: 'App for Slack installation',
    helpText: 'Install the app in your Slack workspace, then paste its access token below.',
  },
  parameters: [
    param({ name: 'accessToken', displayName: 'Access token', description: '(Required)', type: 'text', required: true, sensitive: true }),
    param({ name: 'defaultChannels', displayName: 'Channels', description: 'Channels (comma-separated) that get every selected event, whatever the flag\'s tags.', type: 'text' }),
  ],
  events: SLACK_APP_EVENTS,
  tagTypes: [SLACK_TAG_TYPE],
};

export const TEAMS_WORKFLOW: ProviderDefinition = {
  name: 'teamsworkflow',
  displayName: 'Microsoft Teams - Workflow',
  description: 'Posts the selected events to Microsoft Teams through a workflow webhook.',
  documentationUrl: 'https://docs.getunleash.io/integrate/teams-workflow',
  howTo: 'Create a workflow in Teams that receives a webhook, and paste its URL below: each selected change is posted as an Adaptive Card.',
  parameters: [
    param({ name: 'url', displayName: 'Microsoft Teams Workflow webhook URL', description: '(Required)', type: 'url', required: true, sensitive: true }),
    customHeadersParameter(PROXY_HEADERS_EXAMPLE),
  ],
  events: TEAMS_EVENTS,
};

export const SLACK: ProviderDefinition = {
  name: 'slack',
  displayName: 'Slack',
  description: 'Posts updates to a Slack incoming webhook.',
  documentationUrl: 'https://docs.getunleash.io/integrate/slack-app',
  deprecated: 'This integration is deprecated. Please try the new App for Slack integration instead.',
  alerts: [{
    type: 'warning',
    text: 'This integration is deprecated. Please try the new App for Slack integration instead.',
    link: { url: 'https://docs.getunleash.io/integrate/slack-app', title: 'How to move to the App for Slack.' },
  }],
  parameters: [
    param({ name: 'url', displayName: 'Slack webhook URL', description: '(Required)', type: 'url', required: true, sensitive: true }),
    param({ name: 'username', displayName: 'Username', placeholder: 'Unleash', description: 'The name messages are posted under; "Unleash" when empty.', type: 'text' }),
    param({ name: 'emojiIcon', displayName: 'Emoji Icon', placeholder: ':unleash:', description: 'The emoji shown with messages; ":unleash:" when empty.', type: 'text' }),
    param({ name: 'defaultChannel', displayName: 'Default channel', description: '(Required) The channel for flags without a "slack" tag.', type: 'text', required: true }),
    customHeadersParameter(PROXY_HEADERS_EXAMPLE),
  ],
  events: SLACK_EVENTS,
  tagTypes: [SLACK_TAG_TYPE],
};

export const TEAMS: ProviderDefinition = {
  name: 'teams',
  displayName: 'Microsoft Teams',
  deprecated: 'This integration is deprecated. Please try the new Microsoft Teams - Workflow integration instead.',
  description: 'Posts updates to a Microsoft Teams connector.',
  documentationUrl: 'https://docs.getunleash.io/integrate/teams',
  howTo: 'Each selected change is posted as a message card to the connector\'s URL.',
  parameters: [
    param({ name: 'url', displayName: 'Microsoft Teams webhook URL', description: '(Required)', type: 'url', required: true, sensitive: true }),
    customHeadersParameter(PROXY_HEADERS_EXAMPLE),
  ],
  events: TEAMS_EVENTS,
};
