/**
 * The strategies the Node SDK ships, each compiled from its parameters into
 * one test: `default`, `flexibleRollout`, `userWithId`, `remoteAddress`,
 * `applicationHostname` and the legacy `gradualRollout*` that older flags and
 * the client specification still use. Parameters are parsed here, once.
 */
import type { CompileOptions } from './definition.types.js';
import type { ContextTest } from './constraint-operators.js';
import type { EvaluationContext } from './evaluation.types.js';
import { resolveContextValue, standardField, topLevelField } from './context-value.js';
import { inRange, parseIpRange, type IpRange } from './ip-ranges.js';
import { rolloutBucket } from './normalized-hash.js';

type Parameters = Readonly<Record<string, string>>;
type Builder = (parameters: Parameters, options: CompileOptions) => ContextTest | undefined;

const always: ContextTest = () => true;
const never: ContextTest = () => false;

/** Own parameter only: a stored `__proto__` or `constructor` key must not read the prototype. */
function param(parameters: Parameters, key: string): string | undefined {
  const value = Object.hasOwn(parameters, key) ? parameters[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** The SDK's list format: comma separated, spaces around commas ignored. */
function list(text: string | undefined): string[] {
  return text ? text.split(/\s*,\s*/) : [];
}

/** The SDK's random sticky id for rollouts, 1 to 10001 as text. */
const randomStickyId = () => `${Math.round(Math.random() * 10000) + 1}`;

/** Percentage bucket test; at 100 % every id is in, so hashing is skipped. */
function rollout(percentage: number, groupId: string, stickyId: (context: EvaluationContext) => string | undefined): ContextTest {
  if (!(percentage > 0)) return never;
  if (percentage >= 100) return (context) => stickyId(context) !== undefined;
  return (context) => {
    const id = stickyId(context);
    return id !== undefined && rolloutBucket(id, groupId) <= percentage;
  };
}

/**
 * flexibleRollout: `stickiness` `default` is userId, then sessionId, then a
 * random id; `random` is random; any other name is that context field, and
 * false when the field is missing. `groupId` falls back to '' as in the SDK
 * (the admin API stores the flag name there, so it is set in practice).
 */
const flexibleRollout: Builder = (parameters) => {
  const groupId = param(parameters, 'groupId') || '';
  const stickiness = param(parameters, 'stickiness') || 'default';
  const percentage = Number(param(parameters, 'rollout'));
  if (stickiness === 'default') {
    return rollout(percentage, groupId, (c) => standardField(c, 'userId') ?? standardField(c, 'sessionId') ?? randomStickyId());
  }
  if (stickiness === 'random') return rollout(percentage, groupId, randomStickyId);
  return rollout(percentage, groupId, (c) => resolveContextValue(c, stickiness) || undefined);
};

function gradual(field: 'userId' | 'sessionId'): Builder {
  return (parameters) => rollout(Number(param(parameters, 'percentage')), param(parameters, 'groupId') || '', (c) => standardField(c, field));
}

const gradualRolloutRandom: Builder = (parameters) => {
  const percentage = Number(param(parameters, 'percentage'));
  return () => percentage >= Math.floor(Math.random() * 100) + 1;
};

const userWithId: Builder = (parameters) => {
  const ids = new Set(list(param(parameters, 'userIds')));
  return (context) => {
    const userId = topLevelField(context, 'userId');
    return userId !== undefined && ids.has(userId);
  };
};

/** remoteAddress: exact text, or containment in an IPv4 CIDR range (the SDK ignores IPv6 ranges). */
const remoteAddress: Builder = (parameters) => {
  const entries = list(param(parameters, 'IPs'));
  if (entries.length === 0) return never;
  const exact = new Set(entries);
  const ranges = entries.map((entry) => parseIpRange(entry, 'ipv4')).filter((r): r is IpRange => r !== undefined);
  return (context) => {
    const address = topLevelField(context, 'remoteAddress');
    if (address === undefined) return false;
    if (exact.has(address)) return true;
    const parsed = ranges.length > 0 ? parseIpRange(address, 'ipv4') : undefined;
    return parsed !== undefined && ranges.some((range) => inRange(parsed, range));
  };
};

/** applicationHostname: only meaningful when the caller says which host evaluates; else it cannot be evaluated. */
const applicationHostname: Builder = (parameters, options) => {
  if (options.hostname === undefined) return undefined;
  const matches = list(param(parameters, 'hostNames')?.toLowerCase()).includes(options.hostname.toLowerCase());
  return matches ? always : never;
};

const builders: Readonly<Record<string, Builder>> = {
  default: () => always,
  flexibleRollout,
  userWithId,
  remoteAddress,
  applicationHostname,
  gradualRolloutUserId: gradual('userId'),
  gradualRolloutSessionId: gradual('sessionId'),
  gradualRolloutRandom,
};

/**
 * The strategy's own test (constraints and segments aside), or undefined
 * when the engine cannot evaluate it: an unknown name, or
 * `applicationHostname` without a host name. The fast path treats that as
 * false, the playground as `unknown`.
 *
 * @example
 * strategyTest('userWithId', { userIds: 'a, b' }, {})?.({ userId: 'b' }) // true
 * strategyTest('myCustomStrategy', {}, {})                                // undefined
 */
export function strategyTest(name: string, parameters: Parameters, options: CompileOptions): ContextTest | undefined {
  const builder = Object.hasOwn(builders, name) ? builders[name] : undefined;
  return builder?.(parameters, options);
}
