// The owner console: opportunities (public), then a wallet's books with the pasted key.
import { get, hasApiKey, setApiKey } from './api.js';
import { drawApyHistory } from './chart.js';
import { micros } from './format.js';
import { renderActivity, renderHarvests, renderOpportunities, renderPosition } from './views.js';
import { loadWebhookPanel } from './webhooks.js';

const $ = (id) => document.getElementById(id);
const status = (text, isError = false) => {
  $('status').textContent = text;
  $('status').className = isError ? 'error' : '';
};

async function showHistory(opportunity) {
  $('chart-title').textContent = `30-day APY — ${opportunity.venueId} (${opportunity.chain})`;
  const history = await get(
    `/svc/opportunities/${encodeURIComponent(opportunity.opportunityId)}/apy-history`,
    { window: '30d' },
  );
  drawApyHistory($('apy-chart'), history);
  $('apy-chart').dataset.points = String(
    history.points.filter((point) => point.samples > 0).length,
  );
}

/** The line `pnpm start` logs when no venue is ready (engine's NO_VENUE_READY_HINT). */
const NO_VENUE_READY_HINT =
  'No venue is ready: set its on-chain ids with SVC_VENUE_IDS, or SVC_PROFILE=mainnet for the real mainnet ids (docs/profiles.md); `pnpm demo` runs the whole flow on local chains.';

async function loadOpportunities() {
  const { opportunities } = await get('/svc/opportunities', { limit: 100 });
  const anyReady = opportunities.some((one) => one.depositable);
  $('setup-hint').textContent = anyReady ? '' : NO_VENUE_READY_HINT;
  $('setup-hint').hidden = anyReady;
  renderOpportunities($('opportunities').tBodies[0], opportunities, (opportunity) => {
    showHistory(opportunity).catch((error) => status(error.message, true));
  });
  const withApy = opportunities.filter((one) => one.grossApyBps !== null);
  const first = withApy.find((one) => one.depositable) ?? withApy[0] ?? opportunities[0];
  if (first) await showHistory(first);
}

/**
 * The wallet's books (owner and agent keys). The webhook panel loads beside them and settles on
 * its own: GET /svc/webhooks is owner-only, and an agent key's 403 must not hide the wallet.
 */
async function loadWallet(wallet) {
  const path = `/wallets/${encodeURIComponent(wallet)}`;
  delete $('wallet-section').dataset.loaded;
  delete $('webhooks-panel').dataset.state;
  const webhooks = loadWebhookPanel(wallet);
  const [position, activity, harvests, performance] = await Promise.all([
    get(`${path}/position`),
    get('/svc/activity', { wallet, limit: 100 }),
    get('/svc/webhooks/events', { wallet, type: 'harvest.completed', limit: 50 }),
    get(`${path}/performance`),
  ]);
  $('wallet-label').textContent = wallet;
  renderPosition($('totals'), $('by-chain').tBodies[0], position);
  renderActivity($('activity'), activity.activity);
  renderHarvests($('harvests').tBodies[0], harvests.events ?? []);
  $('performance').textContent =
    `Realized yield ${micros(performance.realizedYieldMicros)} USDC; principal ${micros(performance.principalMicros)} USDC.`;
  $('wallet-section').hidden = false;
  await webhooks;
  $('wallet-section').dataset.loaded = wallet;
}

$('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  setApiKey($('api-key').value);
  // The key lives in memory only: the field is cleared so the page holds no copy of it.
  $('api-key').value = '';
  const wallet = $('wallet').value.trim();
  if (!hasApiKey() || !wallet) {
    status('Paste an API key and a wallet address.', true);
    return;
  }
  status('Loading…');
  loadWallet(wallet).then(
    () => status(`Loaded ${wallet}.`),
    (error) => {
      // Never leave an earlier wallet's (or key's) books on screen under a failed load.
      $('wallet-section').hidden = true;
      status(error.message, true);
    },
  );
});

loadOpportunities().then(
  () => status('Opportunities loaded. Paste a key and a wallet to see its books.'),
  (error) => status(error.message, true),
);
