/** @jsxImportSource hono/jsx */
/** A change request's state as a badge, in words (never by colour alone); a schedule that did not run says so. */
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
