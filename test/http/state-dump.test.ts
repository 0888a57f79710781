/**
 * `GET /api/admin/state` streams the dump: the bytes of `stableStringify` of the state at the moment it was
 * asked for, written a chunk at a time with the event loop free between chunks, at most two at once.
 */
import { describe, expect } from 'vitest';
import { dumpRegistry, stableStringify } from '../../src/actors/dumps/state-dump.js';
import { DUMP_CHUNK_CHARS, DUMP_STREAMS_AT_ONCE } from '../../src/http/streams/dump-streams.js';
import { expectError } from '../helpers/expect.js';
import { test } from '../helpers/fixtures.js';
import type { Harness } from '../helpers/harness.js';
import { HEAVY_TEST_MS } from '../helpers/wait.js';

/** Flags in the large dumps: ~2 MB of JSON with {@link FILLER}, about 30 chunks of DUMP_CHUNK_CHARS. */
const LARGE = 400;

/** Flags in the other dumps: ~1.5 MB, about 20 chunks (each test reads or writes between two of them). */
const SOME = 300;

/**
 * What makes a seeded flag's description ~5,000 characters (ASCII; at most 10,000): the dumps' size in bytes (how
 * many chunks they stream in) is what these tests need, and bytes in a description cost far less than flags to create.
 */
const FILLER = ' lorem ipsum dolor sit amet'.repeat(185);

/** Creates `count` flags in a project straight through its actor (the routes are not what this tests). */
async function seed(h: Harness, project: string, count: number): Promise<void> {
  const actor = h.registry.project(project)!;
  const sends = Array.from({ length: count }, (_, k) => actor.send({
    type: 'flag.create', name: `flag-${String(k).padStart(5, '0')}`, description: `seeded flag number ${k}${FILLER}`, flagType: 'release', impressionData: false,
  }, 'system'));
  for (const decision of await Promise.all(sends)) expect(decision.ok).toBe(true);
}

/** Reads a streamed body to its end; returns its text and how many chunks it came in. */
async function readAll(response: Response): Promise<{ text: string; chunks: number }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let chunks = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    chunks += 1;
    text += decoder.decode(r.value, { stream: true });
  }
  return { text: text + decoder.decode(), chunks };
}

describe('GET /api/admin/state streams', () => {
  test('byte-identical to stableStringify of the same state: a small project, a large one, the whole service', { timeout: HEAVY_TEST_MS }, async ({ h }) => {
    expect((await h.json('POST', '/api/admin/projects', { id: 'big', name: 'Big' })).status).toBe(201);
    expect((await h.json('POST', '/api/admin/projects/default/features', { name: 'small', description: 'é ☃ "quoted"\nline' })).status).toBe(201);
    await seed(h, 'big', LARGE);
    for (const project of ['default', 'big', undefined]) {
      const expected = stableStringify(dumpRegistry(h.registry, project)!);
      const response = await h.req('GET', `/api/admin/state${project ? `?project=${project}` : ''}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      const { text, chunks } = await readAll(response);
      expect(text === expected, `dump of ${project ?? 'the service'}`).toBe(true);
      if (project !== 'default') expect(chunks).toBeGreaterThan(10);
    }
  });

  test(`a dump of ${LARGE} flags gives the event loop back between its chunks, each a bounded piece of work`, { timeout: HEAVY_TEST_MS }, async ({ h }) => {
    await seed(h, 'default', LARGE);
    // A ticker counts the turns of the event loop (one per turn) while the dump is read to its end.
    let turns = 0;
    let reading = true;
    const tick = () => {
      turns += 1;
      if (reading) setImmediate(tick);
    };
    setImmediate(tick);
    const sizes: number[] = [];
    const reader = (await h.req('GET', '/api/admin/state')).body!.getReader();
    const before = turns;
    for (let r = await reader.read(); !r.done; r = await reader.read()) sizes.push(r.value.byteLength);
    const during = turns - before;
    reading = false;
    const summary = `${sizes.length} chunks, ${during} turns of the event loop`;
    expect(sizes.length, summary).toBeGreaterThan(10);
    // A dump that held the loop would make every chunk in one turn; this one takes a turn for each next chunk.
    expect(during, summary).toBeGreaterThanOrEqual(sizes.length - 1);
    // Each turn's work is one chunk: about DUMP_CHUNK_CHARS of JSON (whole flags, ASCII here), never the dump.
    expect(Math.max(...sizes), summary).toBeLessThan(2 * DUMP_CHUNK_CHARS);
  });

  test('the dump is the moment it was asked for: writes while it streams are not in it', async ({ h }) => {
    await seed(h, 'default', SOME);
    const expected = stableStringify(dumpRegistry(h.registry)!);
    const response = await h.req('GET', '/api/admin/state');
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    // Changes to flags already written, not yet written, the service and a new project.
    expect((await h.json('PUT', '/api/admin/projects/default/features/flag-00000', { name: 'flag-00000', description: 'changed' })).status).toBe(200);
    expect((await h.json('DELETE', `/api/admin/projects/default/features/flag-${String(SOME - 1).padStart(5, '0')}`)).status).toBe(202);
    expect((await h.json('POST', '/api/admin/projects/default/features', { name: 'created-while-dumping' })).status).toBe(201);
    expect((await h.json('POST', '/api/admin/projects', { id: 'later', name: 'Later' })).status).toBe(201);
    expect((await h.json('POST', '/api/admin/api-tokens', { tokenName: 'later', type: 'admin' })).status).toBe(201);
    const decoder = new TextDecoder();
    let text = decoder.decode(first.value, { stream: true });
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value, { stream: true });
    text += decoder.decode();
    expect(text === expected).toBe(true);
    expect(stableStringify(dumpRegistry(h.registry)!)).not.toBe(expected);
  });

  test(`at most ${DUMP_STREAMS_AT_ONCE} dumps stream at once; the next is a 429 until one ends or its client goes away`, async ({ h }) => {
    await seed(h, 'default', SOME);
    const one = await h.req('GET', '/api/admin/state');
    const two = await h.req('GET', '/api/admin/state?project=default');
    expect([one.status, two.status]).toEqual([200, 200]);

    for (const path of ['/api/admin/state', '/api/admin/state?project=default']) {
      const busy = await h.json('GET', path);
      expectError(busy, 429, 'TooManyRequests', /2 dumps are being written already/);
      expect(busy.headers.get('retry-after')).toBe('1');
    }
    // Everything else is served as usual meanwhile.
    expect((await h.json('GET', '/api/admin/projects/default/features/flag-00001')).status).toBe(200);

    // A client that goes away frees its place.
    await one.body!.cancel();
    const three = await h.req('GET', '/api/admin/state');
    expect(three.status).toBe(200);
    expect((await h.req('GET', '/api/admin/state')).status).toBe(429);
    // So does a dump read to its end.
    expect(JSON.parse((await readAll(two)).text).projects[0].flags).toHaveLength(SOME);
    const four = await h.req('GET', '/api/admin/state');
    expect(four.status).toBe(200);
    await Promise.all([readAll(three), readAll(four)]);
    // All done: the next ones are served.
    const five = await h.req('GET', '/api/admin/state');
    expect(five.status).toBe(200);
    await readAll(five);
    // A 404 takes no place.
    expect((await h.json('GET', '/api/admin/state?project=nope')).status).toBe(404);
    expect((await h.req('GET', '/api/admin/state')).status).toBe(200);
  });
});
