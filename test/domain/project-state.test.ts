import { describe, expect, it } from 'vitest';
import { ProjectDraft, type ProjectState } from '../../src/domain/project-state.js';
import { emptyBook } from '../../src/domain/change-request-book.js';
import type { Flag } from '../../src/domain/types.js';

const flag = (name: string, version = 1): Flag => ({
  name, description: '', type: 'release', stale: false, impressionData: false, createdAt: '2026-01-01T00:00:00.000Z',
  lastSeenAt: null, archived: false, archivedAt: null, variants: [], version, environments: {},
});

const state = (...flags: Flag[]): ProjectState => ({
  meta: { id: 'p', name: 'p', description: '', createdAt: '', environments: [], defaultStrategies: {}, members: {} },
  flags: new Map(flags.map((f) => [f.name, f])),
  changeRequests: emptyBook(),
  version: 0,
});

describe('ProjectDraft', () => {
  it('given a committed state, when a draft changes flags, then the state is untouched until published', () => {
    const committed = state(flag('a'));
    const draft = new ProjectDraft(committed);
    draft.setFlag(flag('b'));
    draft.deleteFlag('a');
    expect(draft.getFlag('a')).toBeUndefined();
    expect(draft.getFlag('b')?.name).toBe('b');
    expect([...committed.flags.keys()]).toEqual(['a']);
    draft.publishTo(committed);
    expect([...committed.flags.keys()]).toEqual(['b']);
    // A new version from the process-wide counter (its value depends on what ran before in this process).
    expect(committed.version).toBeGreaterThan(0);
    const published = committed.version;
    const next = new ProjectDraft(committed);
    next.setFlag(flag('c'));
    next.publishTo(committed);
    expect(committed.version).toBeGreaterThan(published);
  });

  it('given flags a and b, when a is deleted and created again in one draft, then it moves to the end as a replay would put it', () => {
    const committed = state(flag('a'), flag('b'));
    const draft = new ProjectDraft(committed);
    draft.deleteFlag('a');
    draft.setFlag(flag('a', 2));
    draft.publishTo(committed);
    expect([...committed.flags.keys()]).toEqual(['b', 'a']);

    const replayed = state(flag('a'), flag('b'));
    const first = new ProjectDraft(replayed);
    first.deleteFlag('a');
    first.publishTo(replayed);
    const second = new ProjectDraft(replayed);
    second.setFlag(flag('a', 2));
    second.publishTo(replayed);
    expect([...replayed.flags.keys()]).toEqual([...committed.flags.keys()]);
  });

  it('given a flag, when it is only updated, then it keeps its place', () => {
    const committed = state(flag('a'), flag('b'));
    const draft = new ProjectDraft(committed);
    draft.setFlag(flag('a', 2));
    draft.publishTo(committed);
    expect([...committed.flags.keys()]).toEqual(['a', 'b']);
    expect(committed.flags.get('a')?.version).toBe(2);
  });
});
