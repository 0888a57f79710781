/**
 * The per-address budget behind `POST /edge/validate`'s 429: costs add up within a window, a refusal takes
 * nothing and says how long to wait, a new window starts afresh, and past the address bound the oldest window
 * is forgotten (memory stays bounded; the forgotten address only gets a fresh budget).
 */
import { describe, expect, it } from 'vitest';
import { AddressBudget } from '../../src/actors/address-budget.js';

describe('AddressBudget', () => {
  it('grants costs up to the budget within a window, refuses past it without taking, and starts afresh in the next window', () => {
    const budget = new AddressBudget(10, 60_000, 100);
    expect(budget.take('a', 6, 1_000)).toBe(0);
    expect(budget.take('a', 4, 2_000)).toBe(0);
    expect(budget.take('a', 1, 31_000)).toBe(30_000);
    // The refusal took nothing: the same address is still refused, and by the same window.
    expect(budget.take('a', 1, 60_999)).toBe(1);
    expect(budget.take('b', 10, 2_000)).toBe(0);
    expect(budget.take('a', 10, 61_000)).toBe(0);
    expect(budget.take('a', 1, 61_001)).toBe(60_000 - 1);
  });

  it('gives back a charge to the window it was taken from, never to a later one', () => {
    const budget = new AddressBudget(2, 60_000, 100);
    expect(budget.take('a', 1, 1_000)).toBe(0);
    expect(budget.take('a', 1, 2_000)).toBe(0);
    expect(budget.take('a', 1, 3_000)).toBeGreaterThan(0);
    budget.giveBack('a', 1, 2_000, 4_000);
    expect(budget.take('a', 1, 5_000)).toBe(0);
    // Taken in the first window, given back in the second: the second keeps what it took.
    expect(budget.take('a', 2, 61_000)).toBe(0);
    budget.giveBack('a', 1, 5_000, 62_000);
    expect(budget.take('a', 1, 63_000)).toBeGreaterThan(0);
  });

  it('keeps at most maxAddresses windows: the oldest is forgotten first', () => {
    const budget = new AddressBudget(1, 60_000, 2);
    expect(budget.take('a', 1, 0)).toBe(0);
    expect(budget.take('b', 1, 10)).toBe(0);
    expect(budget.take('a', 1, 20)).toBeGreaterThan(0);
    // A third address pushes out the oldest window ('a'), which then starts a new one; 'b' is kept.
    expect(budget.take('c', 1, 30)).toBe(0);
    expect(budget.take('b', 1, 40)).toBeGreaterThan(0);
    expect(budget.take('a', 1, 50)).toBe(0);
  });
});
