import client from 'prom-client';
import type { Registry } from '../actors/registry.js';

/**
 * The addons' delivery metrics, read from the deliveries at scrape time: attempts by provider and outcome, and each
 * delivering addon's distance from the log heads. Labels are the provider's name, the outcome and the addon's id: never
 * a URL, a channel or a parameter (those may hold secrets).
 */
export function addonMetrics(registry: Registry, registers: client.Registry[]): void {
  new client.Counter({
    name: 'flagpole_addon_deliveries_total',
    help: 'Addon delivery attempts by provider and outcome: success, successWithErrors, failed (for good, or given up), retry (failed; tried again later). Test sends are not counted',
    labelNames: ['provider', 'outcome'], registers,
    collect() {
      this.reset();
      for (const { provider, outcome, count } of registry.deliveries.attemptCounts()) this.inc({ provider, outcome }, count);
    },
  });
  new client.Gauge({
    name: 'flagpole_addon_log_records_waiting',
    help: 'Per enabled addon: committed log records it has not handled yet (from its position to the head of every log), each with none, one or several events it takes',
    labelNames: ['addon', 'provider'], registers,
    collect() {
      this.reset();
      for (const { addon, provider, waiting } of registry.deliveries.backlogs()) this.set({ addon: String(addon), provider }, waiting);
    },
  });
}
