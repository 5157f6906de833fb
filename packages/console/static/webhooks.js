// The webhook panel: the key's subscriptions (an owner-only route) and the recent deliveries of
// the wallet's events. It loads and fails on its own, so an agent key still sees the wallet.
import { get } from './api.js';
import { element, row, time } from './format.js';

const $ = (id) => document.getElementById(id);

/** Why the panel shows no subscriptions: a non-owner key (403), or the read failed. */
function subscriptionsNote(error) {
  if (error.status === 403) {
    return (
      'Webhook subscriptions need an owner key: this key may read the wallet but not its ' +
      'subscriptions (GET /svc/webhooks is owner-only). Deliveries of the wallet’s events ' +
      'are listed below by subscription id.'
    );
  }
  return `Webhook subscriptions could not be read: ${error.message}`;
}

export function renderSubscriptions(tbody, webhooks) {
  if (webhooks.length === 0) {
    tbody.replaceChildren(row(['No subscriptions.', '', '', '', '']));
    return;
  }
  tbody.replaceChildren(
    ...webhooks.map((hook) =>
      row([
        hook.id,
        hook.url,
        hook.eventTypes.join(', '),
        hook.wallets.join(', '),
        hook.rotatedAt
          ? `${time(hook.createdAt)} (key rotated ${time(hook.rotatedAt)})`
          : time(hook.createdAt),
      ]),
    ),
  );
}

/** What the receiver last answered: its HTTP status, else the error (no answer). */
function lastAnswer(delivery) {
  const last = delivery.attempts.at(-1);
  if (!last) return '—';
  const answer = last.httpStatus === null ? (last.error ?? 'no answer') : `HTTP ${last.httpStatus}`;
  return `${answer} in ${last.latencyMs} ms`;
}

const DELIVERY_COLUMNS = ['Event', 'At', 'Status', 'Attempts', 'Last answer', 'Delivered / next'];

function deliveryRow({ event }, delivery) {
  const when =
    delivery.status === 'pending'
      ? `next try ${time(delivery.nextAttemptAt)}`
      : delivery.status === 'delivered'
        ? time(delivery.deliveredAt)
        : (delivery.lastError ?? 'failed');
  return row([
    event.type,
    time(event.createdAt),
    element('span', delivery.status, `status ${delivery.status}`),
    delivery.attemptCount,
    lastAnswer(delivery),
    when,
  ]);
}

/**
 * Recent deliveries, one block per subscription: the key's subscriptions (owner), or the
 * subscription ids the deliveries name (an agent key sees ids only), newest event first.
 */
export function renderDeliveries(container, events, subscriptions) {
  const bySubscription = new Map(subscriptions?.map((hook) => [hook.id, []]) ?? []);
  for (const entry of events) {
    for (const delivery of entry.deliveries) {
      if (!bySubscription.has(delivery.subscriptionId)) {
        bySubscription.set(delivery.subscriptionId, []);
      }
      bySubscription.get(delivery.subscriptionId).push(deliveryRow(entry, delivery));
    }
  }
  if (bySubscription.size === 0) {
    container.replaceChildren(element('p', 'No deliveries of this wallet’s events.', 'muted'));
    return;
  }
  const urls = new Map(subscriptions?.map((hook) => [hook.id, hook.url]) ?? []);
  container.replaceChildren(
    ...[...bySubscription].map(([id, rows]) => {
      const block = element('div', undefined, 'subscription');
      block.append(element('h4', urls.has(id) ? `${id} → ${urls.get(id)}` : id));
      if (rows.length === 0) {
        block.append(element('p', 'No deliveries of this wallet’s events yet.', 'muted'));
        return block;
      }
      const table = element('table', undefined, 'deliveries');
      const head = element('tr');
      head.append(...DELIVERY_COLUMNS.map((title) => element('th', title)));
      table.append(head, ...rows);
      block.append(table);
      return block;
    }),
  );
}

/**
 * Loads the panel for `wallet`; never rejects. Sets `#webhooks-panel[data-state]` to `loaded`,
 * `owner-only` (a non-owner key: no subscriptions list) or `error`.
 */
export async function loadWebhookPanel(wallet) {
  const panel = $('webhooks-panel');
  const [subscriptions, events] = await Promise.allSettled([
    get('/svc/webhooks'),
    get('/svc/webhooks/events', { wallet, limit: 50 }),
  ]);
  const note = $('webhooks-note');
  const hooks = subscriptions.status === 'fulfilled' ? subscriptions.value.webhooks : null;
  if (hooks) {
    note.hidden = true;
    $('webhooks').hidden = false;
    renderSubscriptions($('webhooks').tBodies[0], hooks);
  } else {
    note.textContent = subscriptionsNote(subscriptions.reason);
    note.hidden = false;
    $('webhooks').hidden = true;
  }
  if (events.status === 'fulfilled') {
    renderDeliveries($('deliveries'), events.value.events, hooks);
  } else {
    $('deliveries').replaceChildren(
      element('p', `Deliveries could not be read: ${events.reason.message}`, 'error-text'),
    );
  }
  const forbidden = subscriptions.status === 'rejected' && subscriptions.reason.status === 403;
  panel.dataset.state =
    events.status === 'rejected' || (!hooks && !forbidden)
      ? 'error'
      : forbidden
        ? 'owner-only'
        : 'loaded';
  panel.dataset.wallet = wallet;
}
