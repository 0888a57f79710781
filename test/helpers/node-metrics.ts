/**
 * A node's Prometheus metrics (`/internal-backstage/prometheus`), read over its socket: which node streams to
 * SDKs, which writes snapshots, how many polls each answered.
 */

/** The metrics text of the node at `base`. */
export async function metricsOf(base: string): Promise<string> {
  const response = await fetch(`${base}/internal-backstage/prometheus`);
  if (!response.ok) throw new Error(`metrics of ${base}: ${response.status}`);
  return response.text();
}

/**
 * The sum of the samples of `name` whose labels include `labels` (every sample of it when none is given); 0
 * when there is none.
 *
 * @example metricValue(text, 'flagpole_http_request_duration_seconds_count', { route: '/api/client/features' })
 */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const own = new Map([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
    if (Object.entries(labels).every(([key, value]) => own.get(key) === value)) sum += Number(match[3]);
  }
  return sum;
}
