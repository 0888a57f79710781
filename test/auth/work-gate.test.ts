/**
 * The gate password checks wait at: never more than `maxRunning` at once, a place handed to the first in line,
 * a caller past `maxWaiting` told at once (nothing started), and a failed work giving its place back too.
 */
import { describe, expect, it } from 'vitest';
import { GATE_FULL, WorkGate } from '../../src/auth/work-gate.js';

/** A work that runs until `finish` is called; `started` tells whether it began. */
function controlled() {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  const state = { started: false };
  const work = () => {
    state.started = true;
    return new Promise<string>((resolve, reject) => { finish = resolve; fail = reject; });
  };
  return { work, state, finish: (value = 'done') => finish(value), fail: (error: Error) => fail(error) };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('WorkGate', () => {
  it('runs at most maxRunning at once, the others in the order they came, and refuses past maxWaiting', async () => {
    const gate = new WorkGate(2, 2);
    const works = Array.from({ length: 5 }, controlled);
    const runs = works.map((w) => gate.run(w.work));
    await settle();
    expect(works.map((w) => w.state.started)).toEqual([true, true, false, false, false]);
    expect([gate.running, gate.waiting]).toEqual([2, 2]);
    expect(await runs[4]).toBe(GATE_FULL);
    works[1]!.finish('second');
    expect(await runs[1]).toBe('second');
    await settle();
    expect(works.map((w) => w.state.started)).toEqual([true, true, true, false, false]);
    expect([gate.running, gate.waiting]).toEqual([2, 1]);
    works[0]!.fail(new Error('scrypt failed'));
    await expect(runs[0]).rejects.toThrow('scrypt failed');
    await settle();
    expect(works[3]!.state.started).toBe(true);
    works[2]!.finish();
    works[3]!.finish();
    await Promise.all([runs[2], runs[3]]);
    expect([gate.running, gate.waiting]).toEqual([0, 0]);
  });
});
