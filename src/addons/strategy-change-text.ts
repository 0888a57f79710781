/**
 * What a strategy update changed, in words (the tail of `feature-strategy-update`'s text), as Unleash 6.10 words it:
 * a gradual rollout's stickiness, rollout and group id, a list strategy's values, constraints and segments, joined
 * by `;`.
 */
import type { UnleashEvent } from './unleash-event.js';

interface StrategyLike {
  name?: unknown;
  parameters?: Record<string, unknown>;
  constraints?: ConstraintLike[];
  segments?: unknown[];
}

interface ConstraintLike {
  contextName: string;
  operator: string;
  inverted?: boolean;
  value?: unknown;
  values?: unknown[];
}

const OPERATOR_WORDS: Readonly<Record<string, string>> = {
  IN: 'is one of', NOT_IN: 'is not one of', STR_CONTAINS: 'is a string that contains', STR_STARTS_WITH: 'is a string that starts with',
  STR_ENDS_WITH: 'is a string that ends with', NUM_EQ: 'is a number equal to', NUM_GT: 'is a number greater than',
  NUM_GTE: 'is a number greater than or equal to', NUM_LT: 'is a number less than', NUM_LTE: 'is a number less than or equal to',
  DATE_BEFORE: 'is a date before', DATE_AFTER: 'is a date after', SEMVER_EQ: 'is a SemVer equal to', SEMVER_GT: 'is a SemVer greater than',
  SEMVER_LT: 'is a SemVer less than', SEMVER_GTE: 'is a SemVer greater than or equal to', SEMVER_LTE: 'is a SemVer less than or equal to',
  REGEX: 'matches regex',
};

/** A constraint in words: `userId is one of (1,2)`; a single-value operator shows its value. */
function constraintWords(c: ConstraintLike): string {
  const value = Object.hasOwn(c, 'value') ? String(c.value) : `(${(c.values ?? []).join(',')})`;
  const operator = Object.hasOwn(OPERATOR_WORDS, c.operator) ? OPERATOR_WORDS[c.operator] : c.operator;
  return `${c.contextName} ${c.inverted ? 'not ' : ''}${operator} ${value}`;
}

const constraintsWords = (list: ConstraintLike[]) => (list.length === 0 ? 'empty set of constraints' : `[${list.map(constraintWords).join(', ')}]`);
const segmentsWords = (list: unknown[]) => (list.length === 0 ? 'empty set of segments' : `(${list.join(',')})`);

function constraintChange(before: ConstraintLike[] = [], after: ConstraintLike[] = []): string {
  const from = constraintsWords(before);
  const to = constraintsWords(after);
  return from === to ? '' : ` constraints from ${from} to ${to}`;
}

function segmentChange(before: unknown[] = [], after: unknown[] = []): string {
  const from = segmentsWords(before);
  const to = segmentsWords(after);
  return from === to ? '' : ` segments from ${from} to ${to}`;
}

/** ` rollout from 50% to 75%`, ` rollout to 75%` (none before), or nothing when equal. */
function valueChange(label: string, before: unknown, after: unknown, unit = ''): string {
  if (before === after) return '';
  return before ? ` ${label} from ${String(before)}${unit} to ${String(after)}${unit}` : ` ${label} to ${String(after)}${unit}`;
}

/** A list parameter's change: ` userIds from [a,b] to [c]`. */
function listChange(name: string, before: StrategyLike | null, after: StrategyLike | null): string {
  const from = before?.parameters?.[name];
  const to = after?.parameters?.[name];
  if (from === to) return '';
  const words = (v: unknown) => (String(v ?? '').length === 0 ? `empty set of ${name}` : `[${String(v)}]`);
  return before ? ` ${name} from ${words(from)} to ${words(to)}` : ` ${name} to ${words(to)}`;
}

/**
 * `by updating strategy *<title>* in *<environment>*<changes>`.
 *
 * @example strategyChangeText(event, 'flexibleRollout') // 'by updating strategy *flexibleRollout* in *development* rollout from 50% to 75%'
 */
export function strategyChangeText(event: UnleashEvent, title: string): string {
  const after = event.data as StrategyLike | null;
  const before = event.preData as StrategyLike | null;
  const strategy = after ?? before;
  if (!strategy) return '';
  const lead = `by updating strategy *${title}* in *${event.environment ?? ''}*`;
  const common = [constraintChange(before?.constraints, after?.constraints), segmentChange(before?.segments, after?.segments)];
  let changes: string[];
  switch (strategy.name) {
    case 'flexibleRollout': {
      const [was, is] = [before?.parameters ?? {}, after?.parameters ?? {}];
      changes = [valueChange('stickiness', was['stickiness'], is['stickiness']), valueChange('rollout', was['rollout'], is['rollout'], '%'), valueChange('groupId', was['groupId'], is['groupId']), ...common];
      break;
    }
    case 'default':
      changes = common;
      break;
    case 'userWithId':
      changes = [listChange('userIds', before, after), ...common];
      break;
    case 'remoteAddress':
      changes = [listChange('IPs', before, after), ...common];
      break;
    case 'applicationHostname':
      changes = [listChange('hostNames', before, after), ...common];
      break;
    default:
      return lead;
  }
  return `${lead}${changes.filter((c) => c.length > 0).join(';')}`;
}
