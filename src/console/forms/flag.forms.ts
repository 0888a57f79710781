/**
 * The forms of a flag's page besides its strategies (`strategy.form.ts`) and variants (`variants.form.ts`): the
 * details, a tag added or removed, a dependency added or removed, a clone, and the buttons of the lifecycle and
 * of each strategy (their only field is the `ifMatch` every flag form carries: `conditional` pages).
 */
import * as v from 'valibot';
import { FlagNameSchema, DescriptionSchema } from '../../schemas/common.schema.js';
import { CreateDependencySchema } from '../../schemas/dependency.schema.js';
import { CloneFeatureSchema, FlagTypeSchema } from '../../schemas/feature.schema.js';
import { TagSchema } from '../../schemas/tag.schema.js';
import { checkbox, text, trimmed } from './fields.js';
import { defineForm, type PageForm } from './form.js';

/** A form of one button (or of fields the page reads itself): nothing to refuse, its refusals the form's as a whole. */
export function buttonForm(name: string): PageForm<Record<string, never>, Record<string, never>> {
  return defineForm({ name, fields: v.object({}), schema: v.object({}) }) as PageForm<Record<string, never>, Record<string, never>>;
}

/** The flag's details (its name is the page's). */
export const MetadataForm = defineForm({
  name: 'metadata',
  fields: v.object({ description: text(), type: text(), stale: checkbox(), impressionData: checkbox() }),
  schema: v.object({ description: DescriptionSchema, type: FlagTypeSchema, stale: v.boolean(), impressionData: v.boolean() }),
});

/** A tag added (`type`, `value`). */
export const TagForm = defineForm({ name: 'tags', fields: v.object({ type: text(), value: trimmed() }), schema: TagSchema });

/** A tag removed: its refusal is the form's as a whole. */
export const RemoveTagForm = defineForm({ name: 'tags', fields: v.object({ type: text(), value: text() }), schema: TagSchema, field: () => undefined });

/** A copy of the flag under another name. */
export const CloneForm = defineForm({ name: 'clone', fields: v.object({ name: trimmed() }), schema: CloneFeatureSchema });

/** A parent flag to depend on: on (optionally with one of its variants, names separated by commas) or off. */
export const DependencyForm = defineForm({
  name: 'dependencies',
  fields: v.object({ feature: text(), enabled: text('true'), variants: text() }),
  body: (draft) => {
    const variants = draft.variants.split(',').map((name) => name.trim()).filter((name) => name !== '');
    return { feature: draft.feature, enabled: draft.enabled !== 'false', ...(variants.length > 0 ? { variants } : {}) };
  },
  schema: CreateDependencySchema,
  field: (path) => { const head = path.split('.')[0]!; return head === 'feature' || head === 'variants' ? head : undefined; },
});

/** A dependency removed (`parent`). */
export const RemoveDependencyForm = defineForm({ name: 'dependencies', fields: v.object({ parent: text() }), schema: v.object({ parent: FlagNameSchema }), field: () => undefined });

/** A strategy moved one place up or down (`direction`); the environments page's move form too. */
export const MoveForm = defineForm({ name: 'move', fields: v.object({ direction: text() }), schema: v.object({ direction: v.picklist(['up', 'down']) }) });

/** An environment's strategies copied from another (`fromEnvironment`); refused, the form's as a whole. */
export const CopyForm = defineForm({ name: 'copy', fields: v.object({ fromEnvironment: text() }), schema: v.object({ fromEnvironment: v.string() }), field: () => undefined });
