/**
 * A test event sent to one addon at once (`POST /api/admin/addons/:id/test`, flagpole's own route): planned and sent as
 * a delivery is (the provider's requests, the URL guard checked again, the timeout, no redirect followed), once, without
 * a retry, beside the addon's delivery loop, which it neither waits for nor holds up. The attempt goes to the delivery
 * log like any other (`attempt` 1, `retryAt` null), its secrets masked.
 */
import type { Store } from '../../../snapshots/store.js';
import { secretsOf, type Addon } from '../../domain/addons/addon.js';
import { summarize, verdictOf, type RequestVerdict } from '../../addons/delivery-outcome.js';
import { sendRequest } from '../../addons/http-sender.js';
import { planDelivery } from '../../addons/provider-requests.js';
import { redacted } from '../../addons/redact.js';
import type { UnleashEvent } from '../../addons/unleash-event.js';
import type { Logger } from '../../log.js';
import type { DeliverySettings } from './addon-worker.js';
import type { DeliveryLog, DeliveryLogEntry } from './delivery-log.js';

/** What a test send uses. */
export interface TestSendDeps {
  store: Store;
  log: DeliveryLog;
  settings: DeliverySettings;
  logger: Logger;
  /** Aborted when the deliveries close: the request in flight ends as `EABORTED`. */
  signal: AbortSignal;
}

/**
 * Sends `event` through `addon`'s provider and records the attempt; resolves with the delivery log entry.
 *
 * @example (await sendTestEvent(addon, testEvent(addon, actor, now), deps)).stateDetails // 'Webhook request was successful with status code: 200.'
 */
export async function sendTestEvent(addon: Addon, event: UnleashEvent, deps: TestSendDeps): Promise<DeliveryLogEntry> {
  const plan = planDelivery(addon, event, deps.settings.plan);
  let outcome: { state: DeliveryLogEntry['state']; details: string };
  if (plan.nothingToSend !== undefined) {
    outcome = { state: 'failed', details: plan.nothingToSend };
  } else {
    const verdicts: RequestVerdict[] = [];
    for (const request of plan.requests) verdicts.push(verdictOf(request, await sendRequest(request, deps.settings.sender, deps.signal)));
    outcome = summarize(plan.wording, verdicts, plan.warnings);
  }
  const secrets = secretsOf(addon);
  const { entry, ops } = deps.log.record({
    integrationId: addon.id, createdAt: new Date().toISOString(), state: outcome.state, stateDetails: redacted(outcome.details, secrets),
    event, details: redacted(plan.details, secrets), attempt: 1, retryAt: null,
  });
  try {
    await deps.store.writeUnsynced(ops);
  } catch (error) {
    // The answer still tells the outcome; only the log lacks it.
    deps.logger.warn({ addon: addon.id, err: error }, 'addon test send: writing its delivery log entry failed');
  }
  return entry;
}
