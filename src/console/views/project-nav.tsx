/** @jsxImportSource hono/jsx */
/** The places of one project (its flags, its change requests, its history, two moments compared, its settings), under its heading. */

/** A place of a project's navigation. */
export type ProjectPlace = 'flags' | 'change-requests' | 'history' | 'compare' | 'transfer' | 'settings';

const PLACES: readonly { id: ProjectPlace; label: string; path: string }[] = [
  { id: 'flags', label: 'Flags', path: '' },
  { id: 'change-requests', label: 'Change requests', path: '/change-requests' },
  { id: 'history', label: 'History', path: '/history' },
  { id: 'compare', label: 'Compare', path: '/compare' },
  { id: 'transfer', label: 'Export and import', path: '/transfer' },
  { id: 'settings', label: 'Settings', path: '/settings' },
];

/**
 * The project's sub-navigation, the current place marked with `aria-current` (none on a page that is no place
 * of it, such as the past view, which `current` leaves out).
 *
 * @example <ProjectNav projectId="checkout" projectName="Checkout" current="history" />
 */
export function ProjectNav({ projectId, projectName, current }: { projectId: string; projectName: string; current?: ProjectPlace | undefined }) {
  const base = `/projects/${encodeURIComponent(projectId)}`;
  return (
    <nav aria-label={`Project ${projectName}`} class="project-nav">
      <ul>
        {PLACES.map((place) => (
          <li><a href={`${base}${place.path}`} aria-current={place.id === current ? 'page' : undefined}>{place.label}</a></li>
        ))}
      </ul>
    </nav>
  );
}
