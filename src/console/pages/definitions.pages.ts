/**
 * The definition pages of the administration, in one list for the route table: context fields
 * (`/admin/context-fields`), tag types (`/admin/tag-types`) and strategy definitions (`/admin/strategies`).
 */
import type { RouteSpec } from '../../http/route.js';
import { contextFieldPages } from './context-fields.pages.js';
import { strategyDefinitionPages } from './strategy-definitions.pages.js';
import { tagTypePages } from './tag-types.pages.js';

export const definitionPages: RouteSpec[] = [...contextFieldPages, ...tagTypePages, ...strategyDefinitionPages];
