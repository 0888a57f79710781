/** What the flag page shows: the flag, its project's environments and definitions, and what the viewer may do. */
import type { Flag, FlagEnvironment } from '../../../domain/types.js';
import type { SwitchOffer } from '../../../queries/switch-offer.query.js';
import type { OpenDraft } from '../../change-drafts.js';
import type { Refusal } from '../form-parts.js';

/** One environment of the flag's project, in the service's order. */
export interface FlagPageEnvironment {
  name: string;
  type: string;
  state: FlagEnvironment;
  lastSeenAt: string | null;
}

/** The yes/no counts of one hour in one environment. */
export interface UsageHour {
  hour: string;
  environment: string;
  yes: number;
  no: number;
}

/** What the viewer may do on this page (from the permission table). */
export interface FlagPermissions {
  update: boolean;
  remove: boolean;
  create: boolean;
  toggle: boolean;
  addStrategy: boolean;
  editStrategy: boolean;
  deleteStrategy: boolean;
  variants: boolean;
}

/** Everything the flag page's views need. */
export interface FlagPageModel {
  /** `defaultStrategies`: the environments the project has a default strategy for. */
  project: { id: string; name: string; defaultStickiness: string; defaultStrategies: string[] };
  flag: Flag;
  environments: FlagPageEnvironment[];
  /** Segments a strategy of this project may use. */
  segments: { id: number; name: string }[];
  contextFields: string[];
  strategyTypes: { name: string; title: string }[];
  tagTypes: string[];
  /** Flags of the project this one may depend on, and the active flags that depend on it. */
  possibleParents: string[];
  children: string[];
  lastSeenAt: string | null;
  usage: UsageHour[];
  /** The applications that reported the flag in the last 48 hours, most recently first. */
  applications?: { appName: string; seenAt: string }[];
  may: FlagPermissions;
  /** The base path of the flag's page and of its forms. */
  base: string;
  /** The `ETag` of the flag version shown: every form sends it back, so a save over a change made since is refused. */
  ifMatch: string;
  /** A refused form (which one: `error.form`), shown again with its messages. */
  error?: Refusal<unknown> | undefined;
  /** The offer a switch came back with: switching on would serve the flag to no one. */
  offer?: SwitchOffer | undefined;
  /** A short confirmation of the last change (from the `done` query parameter). */
  notice?: string | undefined;
  /** The viewer's change requests of the project that still take changes (the banner). */
  drafts?: OpenDraft[] | undefined;
  /** The request the last change went to instead of being made (`?done=drafted&request=<id>`). */
  drafted?: OpenDraft | undefined;
  /** The environments whose changes the viewer makes through change requests. */
  protectedEnvironments?: string[] | undefined;
}
