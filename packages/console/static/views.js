// Renders the API's documents into the page. Text only: nothing from the API is parsed as HTML.
import { bps, element, micros, row, time } from './format.js';

export function renderOpportunities(tbody, opportunities, onSelect) {
  tbody.replaceChildren(
    ...opportunities.map((opportunity) => {
      const link = element('a', opportunity.venueId);
      link.href = `#${opportunity.venueId}`;
      link.addEventListener('click', (event) => {
        event.preventDefault();
        onSelect(opportunity);
      });
      const apy = opportunity.apy;
      const source = apy.source ?? apy.reason ?? '—';
      return row([
        link,
        opportunity.chain,
        bps(opportunity.grossApyBps),
        bps(opportunity.apyMean30dBps),
        apy.stale ? `${source} (stale)` : source,
        time(apy.asOf),
        opportunity.tvlUsdMicros === null ? 'N/A' : `$${micros(opportunity.tvlUsdMicros)}`,
        // Whether a deposit plan prepares here, else why (the settings, the profile, pnpm demo).
        opportunity.depositable ? 'yes' : `no: ${opportunity.depositBlockedReason}`,
      ]);
    }),
  );
}

const AMOUNTS = [
  ['liquidMicros', 'Liquid'],
  ['stakedMicros', 'Staked'],
  ['pendingInMicros', 'Pending in'],
  ['pendingOutMicros', 'Pending out'],
  ['inFlightMicros', 'In flight'],
];

export function renderPosition(totals, byChain, position) {
  totals.replaceChildren(
    ...AMOUNTS.map(([key, label]) => {
      const card = element('div', undefined, 'card');
      card.append(element('span', label), element('strong', `${micros(position[key])} USDC`));
      return card;
    }),
  );
  const rows = [];
  for (const [chain, part] of Object.entries(position.byChain)) {
    const amounts = (entry) => AMOUNTS.map(([key]) => micros(entry[key] ?? '0'));
    rows.push(row([chain, 'all', ...amounts(part)]));
    for (const venue of part.venues ?? []) rows.push(row(['', venue.venueId, ...amounts(venue)]));
  }
  byChain.replaceChildren(...rows);
}

/** Activity grouped by plan: one block per plan, one line per leg with its status. */
export function renderActivity(container, activity) {
  const plans = new Map();
  for (const leg of activity) {
    if (!plans.has(leg.planId)) plans.set(leg.planId, []);
    plans.get(leg.planId).push(leg);
  }
  if (plans.size === 0) {
    container.replaceChildren(element('p', 'No activity yet.', 'muted'));
    return;
  }
  container.replaceChildren(
    ...[...plans].map(([planId, legs]) => {
      const block = element('div', undefined, 'plan');
      block.append(element('h4', planId));
      const table = element('table');
      table.append(
        row([
          'Leg',
          'Kind',
          'Chain',
          'Venue',
          'Amount in',
          'Amount out',
          'Status',
          'Tx',
          'Updated',
        ]),
        ...legs
          .sort((a, b) => a.legIndex - b.legIndex)
          .map((leg) =>
            row([
              leg.legIndex,
              leg.kind,
              leg.destChain ? `${leg.chain} → ${leg.destChain}` : leg.chain,
              leg.venueId,
              micros(leg.amountIn),
              micros(leg.amountOut),
              element('span', leg.status, `status ${leg.status}`),
              leg.txId ? `${leg.txId.slice(0, 10)}…` : '—',
              time(leg.updatedAt),
            ]),
          ),
      );
      block.append(table);
      return block;
    }),
  );
}

/** harvest.completed events (the event log of the key's wallets: `{ event, wallet, … }`). */
export function renderHarvests(tbody, events) {
  if (events.length === 0) {
    tbody.replaceChildren(row(['No harvest yet.', '', '', '', '']));
    return;
  }
  tbody.replaceChildren(
    ...events.map(({ event }) => {
      const data = event.data;
      const fees =
        `gross ${micros(data.grossYieldMicros)}, fee ${micros(data.protocolFeeMicros)}` +
        ` + ${micros(data.profitFeeMicros)}, net ${micros(data.netYieldMicros)}`;
      return row([data.harvestId, time(event.createdAt), data.venueId, fees, event.type]);
    }),
  );
}
