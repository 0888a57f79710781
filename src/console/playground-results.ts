/**
 * The playground's results as the page lists them: the explanation of every flag in each chosen environment
 * (the playground query's answer, the one `POST /api/admin/playground` gives per environment), one entry per
 * flag, filtered by what `show` asks and cut into pages.
 */
import type { FlagExplanation } from '../domain/evaluation/index.js';
import type { EvaluationQuery } from '../queries/sdk/evaluation.query.js';
import type { PlaygroundRequest, Show } from './playground-form.js';

/** One flag: its explanation in each chosen environment (absent where its project does not serve it). */
export interface FlagResult {
  projectId: string;
  name: string;
  environments: Map<string, FlagExplanation>;
}

/** One page of results, with the counts of the whole answer. */
export interface ResultPage {
  flags: FlagResult[];
  page: number;
  pages: number;
  /** Flags listed (after `show`). */
  total: number;
  /** Flags evaluated, and of those, on in each environment. */
  evaluated: number;
  onIn: Map<string, number>;
}

/** Flags on one page of results. */
export const RESULTS_PAGE_SIZE = 50;

/**
 * Evaluates the request in every environment it names and gathers the answers per flag (by name, then project).
 *
 * @example resultPage(deps.evaluation, request, 'all', 1).flags[0].environments.get('production')?.isEnabled
 */
export function resultPage(evaluation: EvaluationQuery, request: PlaygroundRequest, show: Show, page: number): ResultPage {
  const byFlag = new Map<string, FlagResult>();
  const onIn = new Map<string, number>();
  for (const environment of request.environments) {
    let on = 0;
    for (const feature of evaluation.playground({ projects: request.projects, environment }, request.context)) {
      const key = `${feature.projectId}\u0000${feature.name}`;
      let entry = byFlag.get(key);
      if (entry === undefined) {
        entry = { projectId: feature.projectId, name: feature.name, environments: new Map() };
        byFlag.set(key, entry);
      }
      entry.environments.set(environment, feature);
      if (feature.isEnabled) on += 1;
    }
    onIn.set(environment, on);
  }
  const all = [...byFlag.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.projectId < b.projectId ? -1 : a.projectId > b.projectId ? 1 : 0));
  const isOn = (flag: FlagResult) => [...flag.environments.values()].some((e) => e.isEnabled);
  const listed = show === 'all' ? all : all.filter((flag) => (show === 'on' ? isOn(flag) : [...flag.environments.values()].some((e) => !e.isEnabled)));
  const pages = Math.max(1, Math.ceil(listed.length / RESULTS_PAGE_SIZE));
  const at = Math.min(page, pages);
  return {
    flags: listed.slice((at - 1) * RESULTS_PAGE_SIZE, at * RESULTS_PAGE_SIZE), page: at, pages, total: listed.length, evaluated: all.length, onIn,
  };
}
