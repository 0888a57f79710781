/** @jsxImportSource hono/jsx */
/** The administration's index (`/admin`): the places the viewer's roles open, each with what it holds. */
import { definePage } from '../page.js';
import { frameOf, renderPage } from '../render.js';
import { AdminFrame, adminPlacesFor } from '../views/admin/admin-frame.js';

export const adminPages = [
  definePage({
    method: 'get', path: '/admin', permission: 'READ',
    summary: 'The administration index',
    handle: ({ c }) => {
      const frame = frameOf(c);
      return renderPage(c, (
        <AdminFrame title="Administration" lead="Service-wide settings. Each project's own settings are on the project's Settings tab.">
          <ul class="project-grid admin-index">
            {adminPlacesFor(frame.permits).map((place) => (
              <li class="card">
                <h2 class="project-name"><a href={place.href}>{place.label}</a></h2>
                <p class="project-desc">{place.about}</p>
              </li>
            ))}
          </ul>
        </AdminFrame>
      ));
    },
  }),
];
