/**
 * The side load of the usage phase (bench/usage.ts), in its own process so its work never shares the event loop
 * of the load generator it is measured against. It sends requests at a steady pace, spread evenly over each
 * second as independent SDK instances with their own timers would send them (autocannon's `overallRate` instead
 * sends each second's quota in a burst at the start of the second, which no fleet of SDKs does).
 *
 * Started with one JSON argument (`SideLoadPlan`); prints `started` once it sends, then one JSON line
 * (`SideLoadResult`) when the duration is over and every request has been answered.
 */
import http from 'node:http';

/** What the side load sends. `metrics`: `POST /api/client/metrics` for `instances` SDK instances in turn. */
export interface SideLoadPlan {
  origin: string;
  kind: 'metrics' | 'health';
  /** Requests a second, spread evenly. */
  rate: number;
  seconds: number;
  token: string;
  flags: string[];
  instances: number;
  flagsPerPost: number;
}

export interface SideLoadResult {
  sent: number;
  statuses: Record<string, number>;
  errors: number;
}

/** The body an instance of the Node SDK posts: counts for a window of `flagsPerPost` flags. */
function metricsBody(plan: SideLoadPlan, instance: number, n: number): string {
  const toggles: Record<string, unknown> = {};
  for (let i = 0; i < plan.flagsPerPost; i += 1) {
    toggles[plan.flags[(instance + i) % plan.flags.length]!] = { yes: 10 + (n % 7), no: 3, variants: { disabled: 13 } };
  }
  const now = Date.now();
  return JSON.stringify({
    appName: `bench-app-${instance % 20}`, instanceId: `bench-instance-${instance}`, environment: 'development',
    bucket: { start: new Date(now - 60_000).toISOString(), stop: new Date(now).toISOString(), toggles },
  });
}

async function run(plan: SideLoadPlan): Promise<SideLoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const statuses: Record<string, number> = {};
  let errors = 0;
  let sent = 0;
  let pending = 0;
  const send = (n: number): void => {
    pending += 1;
    const instance = n % plan.instances;
    const body = plan.kind === 'metrics' ? metricsBody(plan, instance, n) : undefined;
    const headers: Record<string, string> = plan.kind === 'metrics'
      ? { authorization: plan.token, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body!)) }
      : {};
    const path = plan.kind === 'metrics' ? '/api/client/metrics' : '/health';
    const req = http.request(`${plan.origin}${path}`, { method: plan.kind === 'metrics' ? 'POST' : 'GET', headers, agent }, (res) => {
      res.resume();
      res.on('end', () => {
        statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
        pending -= 1;
      });
    });
    req.on('error', () => { errors += 1; pending -= 1; });
    req.end(body);
  };
  const start = performance.now();
  const total = Math.round(plan.rate * plan.seconds);
  process.stdout.write('started\n');
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * plan.rate));
      while (sent < due) send(sent++);
      if (sent >= total) { clearInterval(timer); resolve(); }
    }, 1);
  });
  while (pending > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  agent.destroy();
  return { sent, statuses, errors };
}

const plan = JSON.parse(process.argv[2] ?? '{}') as SideLoadPlan;
run(plan).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (error: unknown) => { process.stderr.write(`side load failed: ${String(error)}\n`); process.exitCode = 1; },
);
