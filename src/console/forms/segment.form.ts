/**
 * The segment form: name, description, project ('' for a global segment) and constraints, the constraints named
 * and read exactly as the strategy form's (`constraints.ts`), validated by the API's `UpsertSegmentSchema`.
 */
import * as v from 'valibot';
import type { Segment } from '../../domain/segment.js';
import { UpsertSegmentSchema } from '../../schemas/segment.schema.js';
import { constraintDraftOf, constraintField, constraintRows, constraintsBodyOf } from './constraints.form.js';
import { text, trimmed } from './fields.js';
import { defineForm } from './form.js';

const SegmentFields = v.object({ name: trimmed(), description: text(), project: text(), constraints: constraintRows() });
export type SegmentDraft = v.InferOutput<typeof SegmentFields>;

/** A stored segment as the form shows it. */
export function segmentDraftOf(segment: Segment): SegmentDraft {
  return { name: segment.name, description: segment.description ?? '', project: segment.project ?? '', constraints: segment.constraints.map(constraintDraftOf) };
}

/** The segment form, create and save alike. */
export const SegmentForm = defineForm({
  name: 'segment',
  fields: SegmentFields,
  body: (draft) => ({
    name: draft.name, description: draft.description.trim() === '' ? null : draft.description,
    project: draft.project === '' ? null : draft.project, constraints: constraintsBodyOf(draft.constraints),
  }),
  schema: UpsertSegmentSchema,
  field: (path) => (path === 'name' || path === 'description' || path === 'project' ? path : constraintField(path)),
});
