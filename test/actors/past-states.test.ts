/**
 * States at past sequence numbers from checkpoints, snapshots and the log (`src/actors/past-states.ts`), the
 * checkpoints of every project in one byte budget (`past-checkpoints.ts`), a past view asked while checkpoints
 * are built ahead, and what a past view says once LOG_RETENTION dropped the records that lead to a moment.
 */
import { describe, expect, onTestFinished, vi } from 'vitest';
import { logBounds } from '../../src/actors/log-positions.js';
import { PastCheckpoints } from '../../src/actors/past-checkpoints.js';
import { PastStates } from '../../src/actors/past-states.js';
import { projectModel } from '../../src/actors/project-model.js';
import { isMomentError, projectAt } from '../../src/queries/past-project.query.js';
import { test } from '../helpers/fixtures.js';
import { addStrategy, createFlag, envPath } from '../helpers/flags.js';
import type { Harness } from '../helpers/harness.js';
import { storeOf } from '../helpers/store-of.js';
import { HEAVY_TEST_MS } from '../helpers/wait.js';

/** Minute `n` of a day after the project's creation, as records are stamped. */
const minute = (n: number) => new Date(Date.UTC(2099, 0, 1, 0, n)).toISOString();

/**
 * Two flags with a strategy each, then `rounds` on/off switches, one command a minute (Date faked); returns
 * each seq's flags as JSON and commit time, as the live state had them right after that command.
 */
async function churn(h: Harness, rounds: number, project = 'default'): Promise<Map<number, { at: string; flags: string }>> {
  vi.useFakeTimers({ toFake: ['Date'] });
  onTestFinished(() => { vi.useRealTimers(); });
  const seen = new Map<number, { at: string; flags: string }>();
  let n = 0;
  const step = async (send: () => Promise<unknown>) => {
    vi.setSystemTime(new Date(minute((n += 1))));
    await send();
    const actor = h.registry.project(project)!;
    seen.set(actor.seq, { at: minute(n), flags: JSON.stringify([...actor.state.flags.values()]) });
  };
  for (const name of ['a', 'b']) {
    await step(() => createFlag(h, name, {}, project));
    await step(() => addStrategy(h, name, 'development', { name: 'default' }, project));
  }
  const on = new Set<string>();
  for (let i = 0; i < rounds; i += 1) {
    const flag = i % 3 === 0 ? 'b' : 'a';
    const action = on.has(flag) ? 'off' : 'on';
    if (action === 'on') on.add(flag);
    else on.delete(flag);
    await step(async () => expect((await h.req('POST', `${envPath(flag, 'development', project)}/${action}`)).status).toBe(200));
  }
  expect([...seen.keys()]).toEqual(Array.from({ length: 4 + rounds }, (_, i) => i + 2));
  return seen;
}

const flagsOf = (state: object) => ('flags' in state ? JSON.stringify([...(state.flags as Map<string, unknown>).values()]) : state);

/** The records after which `states` kept a checkpoint (some may have been dropped from the budget since). */
const keptSeqs = (states: PastStates) => (states as unknown as { seqs: number[] }).seqs;

describe('PastStates', () => {
  test('every past seq in any order equals the live state it was, with checkpoints thinned as they grow', async ({ h }) => {
    const seen = await churn(h, 40);
    const states = new PastStates(storeOf(h.registry), projectModel('default'), new PastCheckpoints(), { interval: 4, most: 3 });
    const seqs = [...seen.keys()];
    for (const seq of [...seqs].reverse()) expect(flagsOf(await states.stateAt(seq, 1)), `seq ${seq}`).toBe(seen.get(seq)!.flags);
    // Built while replaying to the end: at most 3 kept, so the interval grew from 4.
    const kept = keptSeqs(states);
    expect(kept.length).toBeLessThanOrEqual(3);
    expect(kept.every((seq) => seq % 16 === 0)).toBe(true);
    for (const seq of seqs) expect(flagsOf(await states.stateAt(seq, 1)), `seq ${seq}`).toBe(seen.get(seq)!.flags);
    const prepared = new PastStates(storeOf(h.registry), projectModel('default'), new PastCheckpoints(), { interval: 4, most: 100 });
    await prepared.prepare(seqs.at(-1)!, 1);
    const built = keptSeqs(prepared);
    expect(built).toEqual(Array.from({ length: Math.floor(seqs.at(-1)! / 4) }, (_, i) => 4 * (i + 1)));
    await h.restart();
    const fresh = new PastStates(storeOf(h.registry), projectModel('default'), new PastCheckpoints(), { interval: 4, most: 3 });
    for (const seq of [seqs[10]!, seqs.at(-1)!, seqs[3]!]) expect(flagsOf(await fresh.stateAt(seq, 1)), `seq ${seq}`).toBe(seen.get(seq)!.flags);
  });
});

describe('checkpoints in one byte budget', () => {
  test('two projects share the budget: it holds across both, and a dropped checkpoint is built again, right', { timeout: HEAVY_TEST_MS }, async ({ h }) => {
    expect((await h.json('POST', '/api/admin/projects', { id: 'other', name: 'Other' })).status).toBe(201);
    const seenDefault = await churn(h, 60);
    const seenOther = await churn(h, 60, 'other');
    const sized = new PastCheckpoints();
    const probe = new PastStates(storeOf(h.registry), projectModel('default'), sized, { interval: 4, most: 100 });
    await probe.prepare(h.registry.project('default')!.seq, 1);
    // A budget of about a third of one project's checkpoints.
    const budget = Math.floor(sized.bytes / 3);
    const checkpoints = new PastCheckpoints(budget);
    const a = new PastStates(storeOf(h.registry), projectModel('default'), checkpoints, { interval: 4, most: 100 });
    const b = new PastStates(storeOf(h.registry), projectModel('other'), checkpoints, { interval: 4, most: 100 });
    await a.prepare(h.registry.project('default')!.seq, 1);
    expect(checkpoints.bytes).toBeLessThanOrEqual(budget);
    const owner = (states: PastStates) => (states as unknown as { owner: string }).owner;
    const keptOf = (states: PastStates) => keptSeqs(states).filter((seq) => checkpoints.has(owner(states), seq));
    expect(keptOf(a).length).toBeGreaterThan(0);
    await b.prepare(h.registry.project('other')!.seq, 1);
    expect(checkpoints.bytes).toBeLessThanOrEqual(budget);
    // b's checkpoints, the newest, pushed a's out.
    expect(keptOf(b).length).toBeGreaterThan(0);
    expect(keptOf(a)).toEqual([]);
    // A view past a dropped checkpoint replays through it and keeps it again.
    const dropped = keptSeqs(a).at(-1)!;
    expect(flagsOf(await a.stateAt(dropped + 1, 1))).toBe(seenDefault.get(dropped + 1)!.flags);
    expect(checkpoints.has(owner(a), dropped)).toBe(true);
    for (const [seq, { flags }] of seenDefault) expect(flagsOf(await a.stateAt(seq, 1)), `default, seq ${seq}`).toBe(flags);
    for (const [seq, { flags }] of seenOther) expect(flagsOf(await b.stateAt(seq, 1)), `other, seq ${seq}`).toBe(flags);
    expect(checkpoints.bytes).toBeLessThanOrEqual(budget);
  });

  test('a past view asked while checkpoints are built ahead waits for them and answers the state it was', { timeout: HEAVY_TEST_MS }, async ({ h }) => {
    const seen = await churn(h, 80);
    const states = new PastStates(storeOf(h.registry), projectModel('default'), new PastCheckpoints(), { interval: 4, most: 100 });
    const last = h.registry.project('default')!.seq;
    const ahead = states.prepare(last, 1);
    const asked = [last - 3, 10, last - 20];
    const views = await Promise.all(asked.map((seq) => states.stateAt(seq, 1)));
    await ahead;
    asked.forEach((seq, i) => expect(flagsOf(views[i]!), `seq ${seq}`).toBe(seen.get(seq)!.flags));
    expect(keptSeqs(states)).toEqual(Array.from({ length: Math.floor(last / 4) }, (_, i) => 4 * (i + 1)));
  });
});

describe('a past view over a log LOG_RETENTION trimmed', () => {
  test('moments whose records are gone are a typed error naming the earliest moment kept; that one is shown', async ({ openHarness }) => {
    const h = await openHarness({ SNAPSHOT_EVERY: '10', LOG_RETENTION: '5' });
    const seen = await churn(h, 46);
    await h.restart(); // close() writes a snapshot and trims
    const seqs = [...seen.keys()];
    const gone = await projectAt(h.registry, 'default', seen.get(seqs[2]!)!.at);
    expect(gone.ok).toBe(false);
    if (gone.ok || !isMomentError(gone.error)) throw new Error('expected a moment error');
    expect(gone.error.reason).toBe('trimmed');
    expect(gone.error.message).toMatch(/is not kept \(trimmed by LOG_RETENTION/);
    const earliest = gone.error.earliest!;
    const seqAtEarliest = seqs.find((seq) => seen.get(seq)!.at === earliest)!;
    // The earliest moment kept is the older snapshot's, and just before it nothing can be shown.
    const shown = await projectAt(h.registry, 'default', earliest);
    expect(shown.ok && JSON.stringify(shown.value.flags)).toBe(seen.get(seqAtEarliest)!.flags);
    const justBefore = await projectAt(h.registry, 'default', seen.get(seqAtEarliest - 1)?.at ?? minute(0));
    expect(!justBefore.ok && isMomentError(justBefore.error) && justBefore.error.reason).toBe('trimmed');
    // Checkpoints built ahead start from the older snapshot, the earliest start the trimmed log allows.
    const prepared = new PastStates(storeOf(h.registry), projectModel('default'), new PastCheckpoints(), { interval: 1, most: 100 });
    const bounds = (await logBounds(storeOf(h.registry), { project: 'default' }))!;
    expect(bounds.first.seq).toBeGreaterThan(1);
    await prepared.prepare(bounds.last.seq, bounds.first.seq);
    const built = keptSeqs(prepared);
    expect(built).toEqual(Array.from({ length: bounds.last.seq - seqAtEarliest }, (_, i) => seqAtEarliest + 1 + i));
    const last = seqs.at(-2)!;
    const recent = await projectAt(h.registry, 'default', seen.get(last)!.at);
    expect(recent.ok && JSON.stringify(recent.value.flags)).toBe(seen.get(last)!.flags);
  });
});

describe('a past view beside a replay running ahead', () => {
  test('the replay ahead pauses while a view replays from a snapshot on its own', { timeout: HEAVY_TEST_MS }, async ({ openHarness }) => {
    const h = await openHarness({ SNAPSHOT_EVERY: '500' });
    const actor = h.registry.project('default')!;
    await actor.send({ type: 'flag.create', name: 'a', description: '', flagType: 'release', impressionData: false }, 'user:1');
    await actor.send({ type: 'strategy.add', feature: 'a', environment: 'development', strategy: { name: 'default', parameters: {}, constraints: [] } }, 'user:1');
    for (let i = 0; i < 20; i += 1) {
      await Promise.all(Array.from({ length: 100 }, (_, j) => actor.send({ type: (i * 100 + j) % 2 === 0 ? 'flag.enable' : 'flag.disable', feature: 'a', environment: 'development' }, 'user:1')));
    }
    await h.restart(); // a snapshot at the end, and the ones every 500 records or so before it
    const last = h.registry.project('default')!.seq;
    const states = new PastStates(storeOf(h.registry), projectModel('default'), new PastCheckpoints(), { interval: 4, most: 1000 });
    const ahead = states.prepare(last, 1);
    const position = () => (states as unknown as { ahead: { at: number } | null }).ahead?.at ?? last;
    while (position() === 0) await new Promise<void>((r) => setImmediate(r));
    const asked = last - 300;
    const before = position();
    const view = await states.stateAt(asked, 1);
    const after = position();
    await ahead;
    // Less than one slice of the replay ahead (256 records) went on beside the view's replay of hundreds.
    expect(after - before).toBeLessThan(256);
    expect(before).toBeLessThan(asked - 300);
    expect(flagsOf(view)).toBe(flagsOf(await new PastStates(storeOf(h.registry), projectModel('default'), new PastCheckpoints()).stateAt(asked, 1)));
    expect(JSON.parse(flagsOf(view) as string)[0].environments.development.enabled).toBe(asked % 2 === 0);
  });
});
