import type { Logger } from '../../log.js';
import type { ServiceMetrics } from '../../metrics/service-metrics.js';

/** Who takes note of every answer: the log (one line per request) and, when there are metrics, their histogram. */
export interface Observers {
  log: Logger;
  metrics?: ServiceMetrics | undefined;
}
