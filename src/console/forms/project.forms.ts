/**
 * The forms of the project list and a project's settings: a new project, its name and description, a member
 * added (a user by username, email or id, with a project role), a member's role, an environment connected.
 */
import * as v from 'valibot';
import { CreateProjectSchema, UpdateProjectSchema } from '../../schemas/project.schema.js';
import { text, trimmed } from './fields.js';
import { defineForm } from './form.js';

/** A role id as the form sends it (the use case decides whether it is a project role). */
const roleId = () => v.pipe(text(), v.transform((id) => (/^\d{1,9}$/.test(id) ? Number(id) : Number.NaN)));

/** A new project (the project list's form). */
export const NewProjectForm = defineForm({ name: 'new-project', fields: v.object({ id: trimmed(), name: trimmed(), description: text() }), schema: CreateProjectSchema, taken: 'id' });

/** A project's name and description. */
export const ProjectForm = defineForm({ name: 'general', fields: v.object({ name: trimmed(), description: text() }), schema: UpdateProjectSchema });

/** A member added: `user` as typed (found by the page), `roleId`. */
export const AddMemberForm = defineForm({
  name: 'add-member', fields: v.object({ user: trimmed(), roleId: roleId() }), schema: v.object({ user: v.string(), roleId: v.number() }),
});

/** A member's role changed or removed (`roleId`: the role they hold); a refusal is the form's as a whole. */
export const MemberForm = defineForm({ name: 'member', fields: v.object({ roleId: roleId() }), schema: v.object({ roleId: v.number() }), field: () => undefined });

/** An enabled environment connected to the project; a refusal is the form's as a whole. */
export const ConnectForm = defineForm({ name: 'connect', fields: v.object({ environment: text() }), schema: v.object({ environment: v.string() }), field: () => undefined });
