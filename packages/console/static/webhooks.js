// The webhook panel: the key's subscriptions (an owner-only route). It loads and fails on its
// own, so an agent key still sees the wallet.
import { get } from './api.js';
import { row, time } from './format.js';

const $ = (id) => document.getElementById(id);

/** Why the panel shows no subscriptions: a non-owner key (403), or the read failed. */
function subscriptionsNote(error) {
  if (error.status === 403) {
    return (
      'Webhook subscriptions need an owner key: this key may read the wallet but not its ' +
      'subscriptions (GET /svc/webhooks is owner-only).'
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

/**
 * Loads the panel for `wallet`; never rejects. Sets `#webhooks-panel[data-state]` to `loaded`,
 * `owner-only` (a non-owner key: no subscriptions list) or `error`.
 */
export async function loadWebhookPanel(wallet) {
  const panel = $('webhooks-panel');
  const [subscriptions] = await Promise.allSettled([get('/svc/webhooks')]);
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
  const forbidden = subscriptions.status === 'rejected' && subscriptions.reason.status === 403;
  panel.dataset.state = hooks ? 'loaded' : forbidden ? 'owner-only' : 'error';
  panel.dataset.wallet = wallet;
}
