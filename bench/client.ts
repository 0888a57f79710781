import http from 'node:http';

/**
 * A server the benchmark talks to: flagpole started by the benchmark, or another server of the same API
 * (`--vs`). `prefix` carries a base path such as Unleash's `BASE_URI_PATH`.
 *
 * @example
 * const target = targetFromUrl('flagpole', 'http://127.0.0.1:4242', '*:*.bench-admin-token');
 * await callOk(target, 'GET', '/api/admin/projects/default/features');
 */
export interface Target {
  label: string;
  origin: string;
  prefix: string;
  token: string | undefined;
}

/** Builds a target from a base URL; only plain http is supported (everything runs on loopback). */
export function targetFromUrl(label: string, url: string, token: string | undefined): Target {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:') throw new Error(`${label}: only http:// URLs are supported, got ${url}`);
  return { label, origin: parsed.origin, prefix: parsed.pathname.replace(/\/+$/, ''), token };
}

/** Headers every request to the target carries (the token alone, as the Unleash admin API expects). */
export function authHeaders(target: Target): Record<string, string> {
  return target.token === undefined ? {} : { authorization: target.token };
}

/** Admin API path of a project, optionally followed by a sub-path. */
export function projectPath(projectId: string, rest = ''): string {
  return `/api/admin/projects/${encodeURIComponent(projectId)}${rest}`;
}

/** Admin API path of a flag, optionally followed by a sub-path. */
export function flagPath(projectId: string, flag: string, rest = ''): string {
  return projectPath(projectId, `/features/${encodeURIComponent(flag)}${rest}`);
}

// One keep-alive agent so seeding reuses sockets instead of paying a TCP handshake per flag.
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** Answer of one request: the status and the body as text. */
export interface Reply {
  status: number;
  text: string;
  /** The answer's headers (lower-case names). */
  headers: http.IncomingHttpHeaders;
}

/** Sends one request with the target's token (and `extra` headers); a JSON body is serialized and typed as such. */
export function call(target: Target, method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<Reply> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = { ...authHeaders(target), ...extra };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  headers['content-length'] = String(payload === undefined ? 0 : Buffer.byteLength(payload));
  const send = (retry: boolean): Promise<Reply> => new Promise((resolve, reject) => {
    const req = http.request(`${target.origin}${target.prefix}${path}`, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      // A kept-alive socket the server closed while it sat idle (its keep-alive timeout, 5 s, passes while
      // thousands of streams connect): the request never reached the server, so it is sent again, once,
      // as Node's documentation advises for `reusedSocket`.
      if (retry && req.reusedSocket && error.code === 'ECONNRESET') send(false).then(resolve, reject);
      else reject(error);
    });
    req.end(payload);
  });
  return send(true);
}

/** Like `call`, but throws on a non-2xx answer and returns the parsed JSON body (or undefined when empty). */
export async function callOk(target: Target, method: string, path: string, body?: unknown): Promise<unknown> {
  const reply = await call(target, method, path, body);
  if (reply.status < 200 || reply.status > 299) {
    throw new Error(`${target.label}: ${method} ${path} answered ${reply.status}: ${reply.text.slice(0, 300)}`);
  }
  return reply.text === '' ? undefined : (JSON.parse(reply.text) as unknown);
}

/** Number of flags in the project's flag list (the `features` array of the list endpoint). */
export async function countFlags(target: Target, projectId: string): Promise<number> {
  const list = (await callOk(target, 'GET', projectPath(projectId, '/features'))) as { features?: unknown[] };
  if (!Array.isArray(list?.features)) throw new Error(`${target.label}: flag list of ${projectId} has no features array`);
  return list.features.length;
}

/**
 * Runs `task(i)` for i in [0, count) with at most `concurrency` in flight, and reports progress about every
 * five seconds. Seeding uses this: the server group-commits writes that arrive together, so many in flight
 * seed far faster than one at a time.
 */
export async function inParallel(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
  progressLabel?: string,
): Promise<void> {
  let next = 0;
  let done = 0;
  let failed = false;
  const started = performance.now();
  const timer = progressLabel
    ? setInterval(() => {
        const rate = Math.round(done / ((performance.now() - started) / 1000));
        process.stderr.write(`  ${progressLabel}: ${done}/${count} (${rate}/s)\n`);
      }, 5000)
    : undefined;
  const worker = async (): Promise<void> => {
    // After the first failure the other workers stop taking work, so the error surfaces promptly.
    while (!failed && next < count) {
      const i = next++;
      try {
        await task(i);
      } catch (error) {
        failed = true;
        throw error;
      }
      done++;
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  } finally {
    if (timer) clearInterval(timer);
  }
}
