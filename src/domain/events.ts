import type { Flag, ProjectMeta } from './types.js';

/** Events that replace a flag with its new image; the type says what happened. */
export type FlagEventType =
  | 'flag.created'
  | 'flag.updated'
  | 'flag.archived'
  | 'flag.revived'
  | 'flag.enabled'
  | 'flag.disabled'
  | 'strategy.added'
  | 'strategy.updated'
  | 'strategy.deleted'
  | 'variants.updated';

/**
 * What happened in a project, past tense. Flag events carry the flag before and after, so evolving is a
 * replacement (cheap to replay) and the history endpoint can show both sides.
 */
export type ProjectEvent =
  | { type: 'project.created'; meta: ProjectMeta }
  | { type: 'project.updated'; meta: ProjectMeta; before: ProjectMeta }
  | { type: FlagEventType; flag: Flag; before: Flag | null; environment?: string }
  | { type: 'flag.deleted'; name: string; before: Flag };
