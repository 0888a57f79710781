/**
 * flagpole's committed events as Unleash's events: the types, `data`, `preData`, scope and author of each, their texts
 * (Unleash 6.10's sentences), and what never enters an event (a token's hash, an addon's parameters).
 */
import { describe, expect, test } from 'vitest';
import { formatEvent } from '../../src/addons/event-markdown.js';
import { actorOf } from '../../src/addons/unleash-event.js';
import { unleashEventsOf, type EventLookups } from '../../src/addons/unleash-events.js';
import type { ProjectEvent } from '../../src/domain/events.js';
import type { ServiceEvent } from '../../src/domain/service-events.js';
import type { Flag, Strategy } from '../../src/domain/types.js';

const AT = '2026-11-28T12:00:00.000Z';
const flag: Flag = {
  name: 'f', description: 'd', type: 'release', stale: false, impressionData: false, createdAt: AT, lastSeenAt: null, archived: false, archivedAt: null,
  variants: [], version: 3, environments: {}, tags: [{ type: 'slack', value: 'eng' }],
};
const lookups: EventLookups = {
  user: (id) => (id === 3 ? { id: 3, name: 'Ann', email: 'ann@example.com', username: 'ann', rootRole: 1, createdAt: AT } : undefined),
  flag: (project, name) => (project === 'default' && name === 'f' ? flag : undefined),
};
const strategy = (rollout: string, extra: Partial<Strategy> = {}): Strategy => ({
  id: 's1', name: 'flexibleRollout', title: null, disabled: false, sortOrder: 0, constraints: [], parameters: { rollout, stickiness: 'default', groupId: 'f' }, variants: [], segments: [], ...extra,
});

const onProject = (events: ProjectEvent[], by = 'user:3') => unleashEventsOf({ scope: { project: 'default' }, seq: 7, at: AT, by, events }, lookups);
const onService = (events: ServiceEvent[], by = 'admin-token:ops') => unleashEventsOf({ scope: 'service', seq: 9, at: AT, by, events }, lookups);
const brief = (e: { type: string; data: unknown; preData: unknown; environment: string | null }) => ({ type: e.type, data: e.data, preData: e.preData, environment: e.environment });

describe('project events', () => {
  test('flag events keep Unleash\'s names, with the flag\'s current tags', () => {
    const events = onProject([
      { type: 'flag.updated', name: 'f', version: 4, before: { description: 'd', type: 'release', stale: false, impressionData: false }, after: { description: 'd', type: 'release', stale: true, impressionData: false } },
      { type: 'flag.enabled', name: 'f', version: 5, environment: 'production', added: strategy('100') },
      { type: 'variants.updated', name: 'f', version: 6, variants: [], before: [] },
      { type: 'flag.tagged', name: 'f', version: 7, added: [{ type: 'simple', value: 'a' }], removed: [{ type: 'simple', value: 'b' }] },
      { type: 'flag.revived', name: 'f', version: 8 },
      { type: 'flag.completed', name: 'f', version: 9, completion: { at: AT, status: 'kept', statusValue: 'on' }, before: null },
      { type: 'dependency.added', name: 'f', version: 10, dependency: { feature: 'parent', enabled: true }, before: null },
      { type: 'dependencies.removed', name: 'f', version: 11, removed: [{ feature: 'parent', enabled: true }] },
      { type: 'strategies.sorted', name: 'f', version: 12, environment: 'production', order: [{ id: 'b', sortOrder: 0 }, { id: 'a', sortOrder: 1 }], before: [{ id: 'a', sortOrder: 0 }, { id: 'b', sortOrder: 1 }] },
      { type: 'flag.stages-entered', name: 'f', environment: 'production', stages: ['live'], at: AT },
    ]);
    expect(events.map(brief)).toEqual([
      { type: 'feature-stale-on', data: null, preData: null, environment: null },
      { type: 'feature-strategy-add', data: expect.objectContaining({ id: 's1', parameters: { rollout: '100', stickiness: 'default', groupId: 'f' } }), preData: null, environment: 'production' },
      { type: 'feature-environment-enabled', data: null, preData: null, environment: 'production' },
      { type: 'feature-variants-updated', data: { variants: [] }, preData: { variants: [] }, environment: null },
      { type: 'feature-tagged', data: { type: 'simple', value: 'a' }, preData: null, environment: null },
      { type: 'feature-untagged', data: null, preData: { type: 'simple', value: 'b' }, environment: null },
      { type: 'feature-revived', data: null, preData: null, environment: null },
      { type: 'feature-completed', data: { status: 'kept', statusValue: 'on', kept: true }, preData: null, environment: null },
      { type: 'feature-dependency-added', data: { feature: 'parent', enabled: true }, preData: null, environment: null },
      { type: 'feature-dependency-removed', data: { feature: 'parent' }, preData: null, environment: null },
      { type: 'strategy-order-changed', data: { strategyIds: ['b', 'a'] }, preData: { strategyIds: ['a', 'b'] }, environment: 'production' },
    ]);
    expect(events.every((e) => e.createdBy === 'ann@example.com' && e.createdByUserId === 3 && e.project === 'default' && e.featureName === 'f')).toBe(true);
    expect(events[0]!.tags).toEqual([{ type: 'slack', value: 'eng' }]);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  });

  test('a deleted flag carries itself as preData; project settings, members and environments give project events', () => {
    const meta = { id: 'default', name: 'Default', description: '', createdAt: AT, environments: ['development'], defaultStrategies: {}, members: { 3: 4 } };
    const events = onProject([
      { type: 'flag.deleted', name: 'f', before: flag },
      { type: 'project.updated', before: meta, meta: { ...meta, name: 'Main', environments: ['development', 'production'], members: { 3: 5, 4: 6 } } },
      { type: 'environment.disconnected', environment: 'production', meta, before: meta, version: 9 },
      { type: 'project.updated', before: meta, meta: { ...meta, deleted: true } },
    ]);
    expect(events.map((e) => e.type)).toEqual([
      'feature-deleted', 'project-user-role-changed', 'project-user-added', 'project-environment-added', 'project-updated', 'project-environment-removed', 'project-deleted',
    ]);
    expect(events[0]).toMatchObject({ preData: { name: 'f', project: 'default', archived: false }, tags: [{ type: 'slack', value: 'eng' }] });
    expect(events[3]).toMatchObject({ environment: 'production', featureName: null });
  });
});

describe('service events', () => {
  test('environments, users, tokens, segments, definitions and addons; nothing for passwords', () => {
    const token = { id: 't1', hash: 'HASH-never-sent', tokenName: 'sdk', type: 'client' as const, projects: ['default'], environment: 'production', createdAt: AT, expiresAt: null, userId: null };
    const addon = { id: 2, provider: 'webhook', description: '', enabled: true, parameters: { url: 'https://secret.example.com/x' }, events: [], projects: [], environments: [], createdAt: AT };
    const events = onService([
      { type: 'token.created', token },
      { type: 'user.password-set', userId: 3, passwordHash: 'scrypt$never-sent' },
      { type: 'addon.updated', addon, before: addon },
      { type: 'context-field.deleted', field: { name: 'region', description: null, stickiness: false, sortOrder: 1, legalValues: [], createdAt: AT } },
      { type: 'strategy-definition.updated', definition: { name: 'x', title: null, displayName: null, description: '', editable: true, deprecated: true, parameters: [] }, before: { name: 'x', title: null, displayName: null, description: '', editable: true, deprecated: false, parameters: [] } },
    ]);
    expect(events.map((e) => [e.type, e.project, e.environment])).toEqual([
      ['api-token-created', 'default', 'production'], ['addon-config-updated', null, null], ['context-field-deleted', null, null], ['strategy-deprecated', null, null],
    ]);
    expect(events[0]).toMatchObject({ createdBy: 'ops', createdByUserId: -42, data: { tokenName: 'sdk', username: 'sdk', type: 'client' } });
    const text = JSON.stringify(events);
    for (const secret of ['HASH-never-sent', 'scrypt$never-sent', 'secret.example.com']) expect(text).not.toContain(secret);
  });

  test('authors: a user by email, then username, then name; a token by its name; the system as Unleash\'s system user', () => {
    expect(actorOf('system', () => undefined)).toEqual({ createdBy: 'unleash_system_user', createdByUserId: -1337 });
    expect(actorOf('user:9', () => ({ id: 9, name: 'Bo', email: null, username: 'bo', rootRole: 1, createdAt: AT }))).toEqual({ createdBy: 'bo', createdByUserId: 9 });
  });
});

describe('texts', () => {
  const url = 'https://flags.example.com';
  const text = (events: ReturnType<typeof onProject>, style: 'markdown' | 'slack' = 'markdown') => events.map((e) => formatEvent(e, url, style));

  test('a strategy update says what changed: rollout, stickiness, group, constraints, segments', () => {
    const [update] = onProject([{
      type: 'strategy.updated', name: 'f', version: 4, environment: 'production', enabled: true,
      before: strategy('50'), strategy: strategy('75', { parameters: { rollout: '75', stickiness: 'userId', groupId: 'g' }, constraints: [{ contextName: 'region', operator: 'IN', values: ['eu', 'us'], inverted: false, caseInsensitive: false }], segments: [4] }),
    }]);
    expect(formatEvent(update!, url, 'markdown').text).toBe(
      `*ann@example.com* updated *[f](${url}/projects/default/features/f)* in project *[default](${url}/projects/default)* by updating strategy *flexibleRollout* in *production*`
      + ' stickiness from default to userId; rollout from 50% to 75%; groupId from f to g; constraints from empty set of constraints to [region is one of (eu,us)]; segments from empty set of segments to (4)',
    );
  });

  test('Slack links are <url|text>; an event without a sentence of its own reads "triggered", without a link', () => {
    const [tagged, variants] = text(onProject([
      { type: 'flag.tagged', name: 'f', version: 4, added: [{ type: 'simple', value: 'a' }], removed: [] },
      { type: 'variants.updated', name: 'f', version: 5, variants: [], before: [] },
    ]), 'slack');
    expect(tagged).toEqual({ text: `*ann@example.com* tagged *<${url}/projects/default/features/f|f>* with *simple:a* in project *<${url}/projects/default|default>*`, url: `${url}/projects/default/features/f` });
    expect(variants).toEqual({ text: '*ann@example.com* triggered *feature-variants-updated*' });
    const [created] = onService([{ type: 'segment.created', segment: { id: 1, name: 'beta', description: null, project: null, constraints: [], createdAt: AT, createdBy: null, version: 1 } }]);
    expect(formatEvent(created!, url, 'markdown')).toEqual({ text: '*ops* created segment *beta*', url: `${url}/admin/segments` });
  });
});
