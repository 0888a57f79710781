/**
 * The event an addon receives: Unleash's stored event, field for field and in its order (a webhook without a template
 * posts it as JSON; templates and receivers written for Unleash read these names). Built from flagpole's committed
 * log records by `unleash-events.ts`.
 */
import { createHash } from 'node:crypto';
import type { Flag, Strategy, Tag } from '../domain/types.js';
import type { User } from '../domain/service-state.js';

/** One event as Unleash sends it (`IEvent`, dates as ISO strings). */
export interface UnleashEvent {
  /** The same for every delivery of one event (a receiver can drop duplicates by it): see {@link eventId}. */
  id: number;
  type: string;
  createdBy: string;
  createdAt: string;
  createdByUserId: number;
  data: unknown;
  preData: unknown;
  /** The flag's tags (none for an event without a flag). */
  tags: Tag[];
  featureName: string | null;
  project: string | null;
  environment: string | null;
}

/** Who did it, as Unleash names them: a user's email or username, an admin token's name, or the system. */
export interface EventActor {
  createdBy: string;
  createdByUserId: number;
}

/** Unleash's id for changes made with an admin token, and for the system's own changes. */
const ADMIN_TOKEN_USER_ID = -42;
const SYSTEM_USER: EventActor = { createdBy: 'unleash_system_user', createdByUserId: -1337 };

/**
 * Who sent a command, from the log's `by` (`user:3`, `admin-token:ci`, `system`), as Unleash's events name them:
 * a user's email, else username, else name (Unleash's `extractUsernameFromUser`); a token's name with user id -42.
 *
 * @example actorOf('admin-token:admin', () => undefined) // { createdBy: 'admin', createdByUserId: -42 }
 */
export function actorOf(by: string, userById: (id: number) => User | undefined): EventActor {
  const colon = by.indexOf(':');
  const kind = colon < 0 ? by : by.slice(0, colon);
  const rest = colon < 0 ? '' : by.slice(colon + 1);
  if (kind === 'user') {
    const id = Number(rest);
    const user = userById(id);
    return { createdBy: user?.email || user?.username || user?.name || `user ${rest}`, createdByUserId: id };
  }
  if (kind.endsWith('-token')) return { createdBy: rest, createdByUserId: ADMIN_TOKEN_USER_ID };
  return SYSTEM_USER;
}

/**
 * A stable event id: a 48-bit number from the log position (scope, sequence, index in the record), so a redelivery
 * after a restart carries the same id. Unleash's ids count up; these do not (Unleash's docs say to assume no order).
 */
export function eventId(scope: string, seq: number, index: number): number {
  return createHash('sha256').update(`${scope}\n${seq}\n${index}`).digest().readUIntBE(0, 6);
}

/** A flag as Unleash's flag events carry it (`data` of `feature-created`, both sides of `feature-metadata-updated`). */
export const flagData = (flag: Pick<Flag, 'name' | 'description' | 'type' | 'stale' | 'createdAt' | 'lastSeenAt' | 'impressionData' | 'archived'>, project: string) => ({
  name: flag.name, description: flag.description, type: flag.type, project, stale: flag.stale,
  createdAt: flag.createdAt, lastSeenAt: flag.lastSeenAt, impressionData: flag.impressionData, archived: flag.archived,
});

/** A strategy as Unleash's strategy events carry it. */
export const strategyData = (s: Strategy) => ({
  id: s.id, name: s.name, title: s.title, disabled: s.disabled, constraints: s.constraints,
  parameters: s.parameters, variants: s.variants, sortOrder: s.sortOrder, segments: s.segments,
});
