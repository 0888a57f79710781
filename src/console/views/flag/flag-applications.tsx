/** @jsxImportSource hono/jsx */
/** The applications that read the flag: those whose SDKs reported it in their usage metrics in the last 48 hours. */
import type { FlagPageModel } from './flag-model.js';
import { When } from '../form-parts.js';

/** The applications section of the flag page. */
export function FlagApplications({ model }: { model: FlagPageModel }) {
  const apps = model.applications ?? [];
  return (
    <section class="card" aria-labelledby="apps-title">
      <h2 id="apps-title">Applications</h2>
      {apps.length === 0
        ? <p class="muted">No application reported this flag in the last 48 hours.</p>
        : (
          <>
            <p class="muted">Applications whose SDKs reported evaluating this flag in the last 48 hours.</p>
            <ul class="app-list">
              {apps.map((app) => (
                <li><a href={`/applications/${encodeURIComponent(app.appName)}`}>{app.appName}</a> <span class="muted small">last reported <When at={app.seenAt} /></span></li>
              ))}
            </ul>
          </>
        )}
    </section>
  );
}
