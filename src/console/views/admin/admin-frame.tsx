/** @jsxImportSource hono/jsx */
/**
 * The frame of every administration page: the main layout with "Admin" marked, the page's heading and lead,
 * and the administration's own navigation (only the places the viewer's roles grant, the current one marked).
 */
import type { Child } from 'hono/jsx';
import type { Permission } from '../../../auth/permissions.js';
import { Layout } from '../../layout.js';
import { useFrame } from '../../render.js';

/** The places of the administration, each shown to those whose roles grant its permission. */
export const ADMIN_PLACES = [
  { id: 'users', href: '/admin/users', label: 'Users', permission: 'ADMIN', about: 'People, their root roles and passwords.' },
  { id: 'tokens', href: '/admin/tokens', label: 'API tokens', permission: 'ADMIN', about: 'Client, frontend and admin tokens.' },
  { id: 'environments', href: '/admin/environments', label: 'Environments', permission: 'READ', about: 'Where flags are evaluated, in their order.' },
  { id: 'segments', href: '/admin/segments', label: 'Segments', permission: 'READ', about: 'Named sets of constraints shared by strategies.' },
  { id: 'context-fields', href: '/admin/context-fields', label: 'Context fields', permission: 'READ', about: 'The fields constraints test, with legal values.' },
  { id: 'tag-types', href: '/admin/tag-types', label: 'Tag types', permission: 'READ', about: 'The kinds of tag flags can carry.' },
  { id: 'strategies', href: '/admin/strategies', label: 'Strategies', permission: 'READ', about: 'Built-in and custom activation strategies.' },
  { id: 'integrations', href: '/admin/integrations', label: 'Integrations', permission: 'READ', about: 'Events sent to webhooks, Slack, Teams, Datadog or New Relic.' },
] as const satisfies readonly { id: string; href: string; label: string; permission: Permission; about: string }[];

/** A place of the administration. */
export type AdminPlace = (typeof ADMIN_PLACES)[number]['id'];

/** The administration places the viewer may open (their roles grant the place's permission). */
export function adminPlacesFor(permits: ReadonlySet<Permission>) {
  return ADMIN_PLACES.filter((place) => permits.has(place.permission));
}

export interface AdminFrameProps {
  /** The page's heading, also its `<title>`. */
  title: string;
  /** A sentence under the heading. */
  lead?: string | undefined;
  current?: AdminPlace | undefined;
  /** Controls beside the heading (a "New …" button). */
  actions?: Child;
  children?: Child;
}

/**
 * An administration page.
 *
 * @example <AdminFrame title="Segments" current="segments">…</AdminFrame>
 */
export function AdminFrame({ title, lead, current, actions, children }: AdminFrameProps) {
  return (
    <Layout title={title} current="admin">
      <div class="page-header">
        <div>
          <h1>{title}</h1>
          {lead ? <p class="lead">{lead}</p> : null}
        </div>
        {actions ? <div class="header-actions">{actions}</div> : null}
      </div>
      <nav aria-label="Administration" class="project-nav admin-nav">
        <ul>
          {adminPlacesFor(useFrame().permits).map((place) => (
            <li><a href={place.href} aria-current={place.id === current ? 'page' : undefined}>{place.label}</a></li>
          ))}
        </ul>
      </nav>
      {children}
    </Layout>
  );
}
