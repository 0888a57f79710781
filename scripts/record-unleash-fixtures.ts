/**
 * Records a running Unleash's admin API answers into a fixture for test/cli/migrate*.test.ts: a proxy in front
 * of the Unleash that saves every answer `flagpole migrate` asks for, keyed by method, path and body. API token
 * secrets are replaced; the token used is never written.
 *
 *   npx tsx scripts/record-unleash-fixtures.ts --url http://127.0.0.1:4243 --out test/fixtures/unleash-migrate-6/answers.json
 *   # then, in another shell: UNLEASH_TOKEN=... flagpole migrate --from http://127.0.0.1:<printed port> --data-dir /tmp/x --dry-run
 */
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { url: { type: 'string', default: 'http://127.0.0.1:4243' }, out: { type: 'string' }, port: { type: 'string', default: '4299' } } });
const answers: Record<string, { status: number; body: unknown }> = {};
const redact = (value: unknown): unknown => JSON.parse(JSON.stringify(value), (key, v) => (key === 'secret' ? '[not recorded]' : v));
const server = createServer(async (req, res) => {
  let body = '';
  for await (const chunk of req) body += chunk;
  const upstream = await fetch(`${values.url}${req.url}`, { method: req.method, headers: { authorization: req.headers.authorization ?? '', 'content-type': 'application/json' }, body: body || undefined });
  const text = await upstream.text();
  const key = `${req.method} ${req.url}${body ? ` ${body}` : ''}`;
  answers[key] = { status: upstream.status, body: text ? redact(JSON.parse(text)) : null };
  writeFileSync(values.out!, `${JSON.stringify(answers, null, 1)}\n`);
  res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(text);
});
server.listen(Number(values.port), '127.0.0.1', () => process.stderr.write(`recording on http://127.0.0.1:${values.port}\n`));
