/** The console's API token list (`/admin/tokens`): admin, client and frontend tokens found by name, paged. */
import type { Registry } from '../actors/registry.js';
import type { StoredToken } from '../domain/service-state.js';
import { apiTokens } from './access.query.js';
import { projectName } from './project-list.query.js';
import { pageOf, type ListPage } from './paging.js';

/** Tokens on one page of the list. */
export const TOKENS_PER_PAGE = 50;

/** The API tokens (never personal ones) whose name, type or a project contains `q` (any case), oldest first, on page `page`. */
export function tokenList(registry: Registry, input: { q?: string | undefined; page?: number | undefined }): ListPage<StoredToken> {
  const q = input.q?.trim().toLowerCase() ?? '';
  const tokens = apiTokens(registry);
  const matches = q === '' ? tokens : tokens.filter((t) => t.tokenName.toLowerCase().includes(q) || t.type === q || t.projects.some((p) => p.toLowerCase().includes(q)));
  return pageOf(matches, input.page ?? 1, TOKENS_PER_PAGE);
}

/** What a new token's scope may name: every project (id and name, by name) and every environment (in order). */
export function tokenScopeChoices(registry: Registry): { projects: { id: string; name: string }[]; environments: string[] } {
  const projects = registry.projectIds().map((id) => ({ id, name: projectName(registry, id) ?? id })).sort((a, b) => a.name.localeCompare(b.name));
  return { projects, environments: registry.service.state.environments.map((e) => e.name) };
}
