/** A built-in role (docs/api-decisions.md "Projects, environments, users, roles, tokens"). */
export interface Role {
  id: number;
  name: 'Admin' | 'Editor' | 'Viewer' | 'Owner' | 'Member' | 'Reader';
  type: 'root' | 'project';
  description: string;
}

export const ROOT_ADMIN = 1;
export const ROOT_EDITOR = 2;
export const ROOT_VIEWER = 3;
export const PROJECT_OWNER = 4;
export const PROJECT_MEMBER = 5;
export const PROJECT_READER = 6;

/** The six built-in roles, in id order. */
export const ROLES: readonly Role[] = [
  { id: ROOT_ADMIN, name: 'Admin', type: 'root', description: 'Users with the root Admin role can do anything.' },
  { id: ROOT_EDITOR, name: 'Editor', type: 'root', description: 'Acts as a project Member in every project.' },
  { id: ROOT_VIEWER, name: 'Viewer', type: 'root', description: 'Acts as a project Reader in every project.' },
  { id: PROJECT_OWNER, name: 'Owner', type: 'project', description: 'Everything in the project, membership included.' },
  { id: PROJECT_MEMBER, name: 'Member', type: 'project', description: 'All flag and strategy work in the project.' },
  { id: PROJECT_READER, name: 'Reader', type: 'project', description: 'Reads the project.' },
];

export const isProjectRole = (roleId: number): boolean => ROLES.some((r) => r.id === roleId && r.type === 'project');
export const isRootRole = (roleId: number): boolean => ROLES.some((r) => r.id === roleId && r.type === 'root');
