/** What a project's settings page shows: the project, its members, environments and segments, and what the viewer may do. */
import type { Segment } from '../../../domain/segment.js';
import type { ProjectEnvironment } from '../../../queries/environments.query.js';
import type { StrategyFormModel } from '../flag/strategy-form.js';

/** One member with the role they hold. */
export interface SettingsMember {
  id: number;
  /** How people read them: name, then username or email. */
  label: string;
  detail: string | null;
  roleId: number;
}

/** What the viewer's roles allow on this page (from the permission table). */
export interface SettingsPermissions {
  /** `UPDATE_PROJECT`: name, description, environments, default strategies, delete, the project's segments. */
  update: boolean;
  /** `PROJECT_USER_ACCESS`: members and their roles. */
  access: boolean;
}

/** Everything the settings page's views need; the strategy form's pieces (segments a strategy may use...) too. */
export interface SettingsModel extends StrategyFormModel {
  project: { id: string; name: string; description: string; activeFlags: number; archivedFlags: number };
  members: SettingsMember[];
  /** The project roles, in id order. */
  roles: { id: number; name: string }[];
  /** Users who are not members yet, for the add form's suggestions (bounded). */
  candidates: { id: number; label: string; username: string | null; email: string | null }[];
  /** Every environment of the service as the project sees it (`visible`: connected). */
  environments: ProjectEnvironment[];
  /** The segments of this project. */
  projectSegments: Segment[];
  may: SettingsPermissions;
  /** The base path of the page and its forms. */
  base: string;
  notice?: string | undefined;
}
