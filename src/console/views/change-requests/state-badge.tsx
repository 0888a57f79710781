/** @jsxImportSource hono/jsx */
/** A change request's state as a badge, in words (never by colour alone; a schedule that did not run says so), and its name. */
import type { ChangeRequest } from '../../../domain/change-request.js';

const CLASS: Record<ChangeRequest['state'], string> = {
  Draft: 'cr-s-draft', 'In review': 'cr-s-review', Approved: 'cr-s-approved', Scheduled: 'cr-s-scheduled', Applied: 'cr-s-applied', Cancelled: 'cr-s-closed', Rejected: 'cr-s-rejected',
};

/**
 * The state, and a scheduled request's trouble (`Scheduled, suspended`).
 *
 * @example <StateBadge request={request} />
 */
export function StateBadge({ request }: { request: Pick<ChangeRequest, 'state' | 'schedule'> }) {
  const trouble = request.state === 'Scheduled' && request.schedule && request.schedule.status !== 'pending' ? `, ${request.schedule.status}` : '';
  return <span class={`cr-state ${CLASS[request.state]}${trouble ? ' cr-s-trouble' : ''}`}>{`${request.state}${trouble}`}</span>;
}

/**
 * A request as people name it: its title, with its number first unless the title holds it already (the default
 * title, `Change Request #3`, does).
 *
 * @example requestName({ id: 3, title: 'Launch' }) // '#3 Launch'
 */
export const requestName = (r: Pick<ChangeRequest, 'id' | 'title'>): string => (r.title.includes(`#${r.id}`) ? r.title : `#${r.id} ${r.title}`);
