import type { DeliverySettings } from './actors/addon-worker.js';
import type { Env } from './config-env.js';
import { ADDON_DELIVERY_BOUNDS } from './limits.js';

/**
 * The addons' settings (docs/operations.md "Integrations"): `PUBLIC_URL` (where the texts link to;
 * `http://localhost:<PORT>` when unset), Unleash's `UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION` and
 * `UNLEASH_ALLOW_LIST_INTEGRATION`, the request timeout, the retry schedule and Slack's Web API.
 */
export function addonSettings(e: Env): DeliverySettings {
  return {
    plan: {
      consoleUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
      slackApiUrl: e.SLACK_API_URL ?? 'https://slack.com/api',
    },
    sender: {
      timeoutMs: e.ADDON_REQUEST_TIMEOUT_MS,
      guard: { allowPrivate: e.UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION, allowList: e.UNLEASH_ALLOW_LIST_INTEGRATION.map((host) => host.toLowerCase()) },
      answerBytes: ADDON_DELIVERY_BOUNDS.answerBytes,
    },
    retry: { firstMs: e.ADDON_RETRY_FIRST_MS, maxMs: e.ADDON_RETRY_MAX_MS, giveUpMs: e.ADDON_RETRY_GIVE_UP_MS },
    recordsPerRead: ADDON_DELIVERY_BOUNDS.recordsPerRead,
    logEntries: ADDON_DELIVERY_BOUNDS.logEntriesPerAddon,
  };
}
