/**
 * The segment form: name, description, project and constraints, the constraints named and parsed exactly as
 * the strategy form's (`constraints.<n>.*`, strategy-form-fields.ts), so an API message lands next to its field.
 */
import type { Segment } from '../../domain/segment.js';
import { bodyOf, draftFromForm, draftOf, fieldOfMessage, newStrategyDraft, type ConstraintDraft } from './strategy-form-fields.js';

/** A segment as the form holds it. */
export interface SegmentDraft {
  name: string;
  description: string;
  /** '' for a global segment. */
  project: string;
  constraints: ConstraintDraft[];
}

/** A stored segment as the form shows it. */
export function segmentDraftOf(segment: Segment): SegmentDraft {
  return { name: segment.name, description: segment.description ?? '', project: segment.project ?? '', constraints: draftOf({ name: 'segment', constraints: segment.constraints }).constraints };
}

/** The draft a submitted form describes. */
export function segmentDraftFromForm(form: Record<string, string>): SegmentDraft {
  return { name: (form['name'] ?? '').trim(), description: form['description'] ?? '', project: form['project'] ?? '', constraints: draftFromForm(form).constraints };
}

/** The API body of a draft (`UpsertSegmentSchema` decides whether it is one). */
export function segmentBodyOf(draft: SegmentDraft): Record<string, unknown> {
  return {
    name: draft.name,
    description: draft.description.trim() === '' ? null : draft.description,
    project: draft.project === '' ? null : draft.project,
    constraints: bodyOf({ ...newStrategyDraft(), constraints: draft.constraints }).constraints,
  };
}

/** The form field a message of the API names, or null. */
export function segmentFieldOf(message: string): string | null {
  const path = /^"([^"]+)"/.exec(message)?.[1];
  if (path === 'description' || path === 'project') return path;
  return fieldOfMessage(message);
}
