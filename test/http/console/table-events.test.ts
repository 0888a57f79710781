/**
 * The flag table's live stream over a real committed feed: only the project's flag names, gathered into one
 * write, a cap on open streams that a closed stream gives back, and the end of the stream when the feed closes.
 */
import { describe, expect, it } from 'vitest';
import { CommittedFeed } from '../../../src/actors/committed-feed.js';
import { changedFlags, TableEventStreams } from '../../../src/http/console/table-events.js';

const record = (events: unknown[]) => ({ seq: 1, at: new Date(0).toISOString(), by: 'test', events });

async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, done: (text: string) => boolean): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  while (!done(text)) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += decoder.decode(chunk.value);
  }
  return text;
}

describe('the flag table\'s live stream', () => {
  it('names the flags a batch of its project changed, once each, in one write', async () => {
    const feed = new CommittedFeed();
    const streams = new TableEventStreams(feed, { total: 10, perSession: 10, perUser: 10 });
    const stream = streams.stream('web');
    if (typeof stream === 'string') throw new Error(stream);
    const reader = stream.getReader();
    expect(await readUntil(reader, (t) => t.includes('connected'))).toContain('retry: 3000');
    feed.publish({ project: 'other' }, [record([{ type: 'flag.disabled', name: 'elsewhere', version: 2, environment: 'development' }])]);
    feed.publish('service', [record([{ type: 'user.created' }])]);
    feed.publish({ project: 'web' }, [record([{ type: 'flag.enabled', name: 'a', version: 3, environment: 'development', added: null }])]);
    feed.publish({ project: 'web' }, [record([{ type: 'flag.disabled', name: 'a', version: 4, environment: 'production' }, { type: 'flag.created', flag: { name: 'b' } }])]);
    const text = await readUntil(reader, (t) => t.includes('data: b'));
    expect(text).toBe('event: changed:a\ndata: a\n\nevent: changed:b\ndata: b\n\n');
    await reader.cancel();
    expect(streams.open).toBe(0);
  });

  it('holds at most its cap of streams; a cancelled one frees its place; the feed\'s close ends them', async () => {
    const feed = new CommittedFeed();
    const streams = new TableEventStreams(feed, { total: 2, perSession: 2, perUser: 2 });
    const one = streams.stream('web');
    const two = streams.stream('web');
    expect(streams.stream('web')).toBe('full');
    if (typeof one === 'string' || typeof two === 'string') throw new Error('refused');
    await one.cancel();
    expect(streams.open).toBe(1);
    expect(streams.stream('web')).not.toBe('full');
    feed.close();
    const reader = two.getReader();
    await readUntil(reader, () => false);
    expect(streams.open).toBe(0);
  });

  it('holds at most its share per session and per user; a closed stream gives its place back to both', async () => {
    const feed = new CommittedFeed();
    const streams = new TableEventStreams(feed, { total: 10, perSession: 2, perUser: 3 });
    const ann = (session: string) => streams.stream('web', { session, user: '7' });
    const [a1, a2] = [ann('s1'), ann('s1')];
    expect(ann('s1')).toBe('session-full');
    const a3 = ann('s2');
    expect(ann('s3')).toBe('user-full');
    expect(typeof streams.stream('web', { session: 's9', user: '8' })).not.toBe('string');
    expect(streams.open).toBe(4);
    if (typeof a1 === 'string' || typeof a2 === 'string' || typeof a3 === 'string') throw new Error('refused');
    await a1.cancel();
    expect(typeof ann('s1')).not.toBe('string');
    feed.close();
  });

  it('reads flag names from flag events and nothing else', () => {
    expect(changedFlags([{ type: 'flag.tagged', name: 'x' }, { type: 'flag.created', flag: { name: 'y' } }, { type: 'project.updated', meta: {} }])).toEqual(['x', 'y']);
  });
});
