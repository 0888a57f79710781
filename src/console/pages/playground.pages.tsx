/** @jsxImportSource hono/jsx */
/**
 * The playground page (`GET /playground`): the form's whole state is its address; once sent, the request it stands
 * for is checked as the API checks its body, and every flag is explained in each chosen environment by the query
 * `POST /api/admin/playground` answers from, rendered here.
 */
import { contextFields } from '../../queries/definitions.query.js';
import { definePage } from '../page.js';
import { formOf, requestOf } from '../playground-form.js';
import { resultPage } from '../playground-results.js';
import { renderPage } from '../render.js';
import { PlaygroundPage } from '../views/playground/playground-page.js';

export const playgroundPages = [
  definePage({
    method: 'get', path: '/playground', permission: 'READ',
    summary: 'The playground: every flag\'s result and its reasons for a context (environments, projects and context in the query)',
        handle: ({ c, deps }) => {
      const { registry } = deps;
      const environments = registry.service.state.environments;
      const form = formOf(new URL(c.req.url).searchParams, (environments.find((e) => e.enabled) ?? environments[0])?.name);
      const projects = registry.projectIds().map((id) => ({ id, name: registry.project(id)!.state.meta.name }))
        .sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.id.localeCompare(b.id));
      const checked = form.sent ? requestOf(form) : undefined;
      const results = checked?.ok ? { page: resultPage(deps.evaluation, checked.request, form.show, form.page), context: checked.request.context } : undefined;
      const page = (
        <PlaygroundPage form={form} environments={environments} projects={projects} contextFields={contextFields(registry)}
          refusal={checked && !checked.ok ? checked.refusal : undefined} results={results} />
      );
      return renderPage(c, page, checked && !checked.ok ? 400 : 200);
    },
  }),
];
