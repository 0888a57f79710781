import type { SharedLog } from '../../snapshots/shared-log.js';
import { AddressBudget } from './address-budget.js';

/** How much a budget allows: `perWindow` cost per key in each window of `windowMs`, `maxKeys` kept in one process's memory. */
export interface BudgetBounds {
  perWindow: number;
  windowMs: number;
  maxKeys: number;
}

/** What taking from a budget answered. */
export type Charge =
  /** Taken from the window that `window` names: give it back with that. */
  | { kind: 'taken'; window: number }
  /** The key's window is spent: nothing was taken; it ends in `waitMs`. */
  | { kind: 'spent'; waitMs: number }
  /** The store that counts it (several nodes' database) could not be reached: nothing was taken. */
  | { kind: 'unavailable' };

/**
 * A budget of cost per key over windows of time (failed sign-ins per account and address, token texts per
 * address on `POST /edge/validate`): one count per installation. On a store one process owns it lives in
 * memory (`AddressBudget`); on a store several nodes share, in the store (`SharedLog.charge`), so a caller
 * spreading requests over the nodes meets the same budget as on one.
 *
 * @example const charge = await budget.take(address, 1); if (charge.kind === 'taken' && fine) await budget.giveBack(address, 1, charge);
 */
export interface WindowBudget {
  take(key: string, cost: number): Promise<Charge>;
  /** Gives back `cost` taken by `charge` (work that turned out not to count); nothing if its window has ended. */
  giveBack(key: string, cost: number, charge: Charge): Promise<void>;
}

/**
 * The budget `name` with `bounds`: in memory when `shared` is null, else counted by the shared store under
 * keys `<name>:<key>` (a database failure answers `unavailable`, never throws).
 *
 * @example windowBudget(store.shared, 'edge-validate', { perWindow: 10_000, windowMs: 60_000, maxKeys: 10_000 })
 */
export function windowBudget(shared: SharedLog | null, name: string, bounds: BudgetBounds): WindowBudget {
  if (shared === null) {
    const memory = new AddressBudget(bounds.perWindow, bounds.windowMs, bounds.maxKeys);
    return {
      take(key, cost) {
        const now = Date.now();
        const waitMs = memory.take(key, cost, now);
        return Promise.resolve(waitMs === 0 ? { kind: 'taken', window: now } : { kind: 'spent', waitMs });
      },
      giveBack(key, cost, charge) {
        if (charge.kind === 'taken') memory.giveBack(key, cost, charge.window);
        return Promise.resolve();
      },
    };
  }
  return {
    async take(key, cost) {
      try {
        const charge = await shared.charge(`${name}:${key}`, cost, bounds.perWindow, bounds.windowMs);
        return charge.taken ? { kind: 'taken', window: charge.window } : { kind: 'spent', waitMs: charge.waitMs };
      } catch {
        return { kind: 'unavailable' };
      }
    },
    async giveBack(key, cost, charge) {
      // Not given back when the database cannot be reached: the key keeps that charge until its window ends.
      if (charge.kind === 'taken') await shared.giveBack(`${name}:${key}`, cost, charge.window).catch(() => undefined);
    },
  };
}
