/** @jsxImportSource hono/jsx */
/** A change request's state as a badge, in words (never by colour alone); a schedule that did not run says so. */
import type { ChangeRequest } from '../../../domain/change-request.js';

const CLASS: Record<ChangeRequest['state'], string> = {
  Draft: 'cr-draft', 'In review': 'cr-review', Approved: 'cr-approved', Scheduled: 'cr-scheduled', Applied: 'cr-applied', Cancelled: 'cr-closed', Rejected: 'cr-rejected',
};

/**
 * The state, and a scheduled request's trouble (`Scheduled, suspended`).
 *
 * @example <StateBadge request={request} />
 */
export function StateBadge({ request }: { request: Pick<ChangeRequest, 'state' | 'schedule'> }) {
  const trouble = request.state === 'Scheduled' && request.schedule && request.schedule.status !== 'pending' ? `, ${request.schedule.status}` : '';
  return <span class={`cr-state ${CLASS[request.state]}${trouble ? ' cr-trouble' : ''}`}>{`${request.state}${trouble}`}</span>;
}
