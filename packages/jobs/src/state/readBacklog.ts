import type { Books } from '@yieldrouter/ledger';
import type { ServiceBacklog } from '@yieldrouter/metrics';

/**
 * What the books hold that ops watches (read at each metrics scrape): webhook deliveries still
 * to send and the oldest of them, and per venue the age of its newest available APY reading.
 * Three indexed queries.
 */
export async function readBacklog(db: Books, now: Date): Promise<ServiceBacklog> {
  const [pending, venues, newest] = await Promise.all([
    db.webhookDelivery.aggregate({
      where: { status: 'pending' },
      _count: { _all: true },
      _min: { createdAt: true },
    }),
    db.venue.findMany({ select: { id: true }, orderBy: { id: 'asc' } }),
    db.apySample.groupBy({
      by: ['venueId'],
      where: { status: 'ok' },
      _max: { observedAt: true },
    }),
  ]);
  const newestOf = new Map(newest.map((row) => [row.venueId, row._max.observedAt]));
  const age = (at: Date | null | undefined) =>
    at ? Math.max(0, now.getTime() - at.getTime()) : null;
  return {
    pendingDeliveries: pending._count._all,
    oldestPendingDeliveryAgeMs: age(pending._min.createdAt),
    apyAgeMs: venues.map((venue) => ({ venue: venue.id, ageMs: age(newestOf.get(venue.id)) })),
  };
}
