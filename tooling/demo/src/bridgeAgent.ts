// A Base → Arbitrum bridge through the API against the `pnpm localnet` beds, as an agent and
// its owner do it: the SDK prepares the CCTP plan, the owner signs the fee transfer, the
// approval and the burn on the Base anvil and settles them from their receipts, the Iris fake
// attests, the owner signs the mint leg on the Arbitrum anvil, and the keeper's bridge watch
// finds the mint by its nonce and credits it (nothing reports the mint to the API). Used by
// `pnpm localnet:bridge` (against a running stack) and by its end-to-end test.
import { anvilChain } from '@yieldrouter/chain-beds/evm';
import { waitFor } from '@yieldrouter/jobs/testing';
import { createClient, formatMicros } from '@yieldrouter/sdk';
import type { YieldRouterClient } from '@yieldrouter/sdk';
import { createPublicClient, createWalletClient, http } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { WebhookReceiver } from './webhookReceiver';

export interface BridgeAgentOptions {
  /** The API, e.g. `http://127.0.0.1:3000`. */
  readonly baseUrl: string;
  /** An owner key scoped to the wallet (`pnpm localnet` puts one in `SVC_API_KEYS`). */
  readonly ownerKey: string;
  /** The owner's key on both anvils (the localnet demo wallet is anvil's second account). */
  readonly privateKey: Hex;
  /** The anvils' RPC URLs (`SVC_BASE_RPC_URL`, `SVC_ARBITRUM_RPC_URL`). */
  readonly rpcUrls: { readonly base: string; readonly arbitrum: string };
  readonly amountMicros: bigint;
  /** Subscribed to `bridge.delivered` (its signature verified) when given. */
  readonly webhookReceiver?: WebhookReceiver;
  /** How long to wait for the attestation, the keeper's credit and the webhook, each. */
  readonly timeoutMs?: number;
  readonly print?: (line: string) => void;
}

/** What the walk-through saw: the plan, its transactions and the books at each step. */
export interface BridgeAgentResult {
  readonly planId: string;
  readonly wallet: Address;
  readonly burnTx: Hex;
  readonly mintTx: Hex;
  readonly burnedMicros: string;
  readonly deliveredMicros: string;
  /** The position by chain right after the burn settled, and after the keeper credited. */
  readonly afterBurn: ChainBooks;
  readonly afterDelivery: ChainBooks;
  /** The bridge.delivered webhook (null without a receiver). */
  readonly webhook: { readonly eventId: string | undefined; readonly verified: boolean } | null;
}

export interface ChainBooks {
  readonly baseInFlightMicros: string;
  readonly arbitrumLiquidMicros: string;
}

interface Leg {
  readonly index: number;
  readonly settles?: boolean;
  readonly action?: string;
  readonly transaction?: unknown;
}

interface DeliveryState {
  readonly bridgeStatus?: string;
  readonly mintLeg?: { readonly transaction?: unknown };
  readonly destTxId?: string | null;
  readonly burnedMicros?: string | null;
  readonly deliveredMicros?: string | null;
}

type Side = 'base' | 'arbitrum';
const CHAIN_IDS: Readonly<Record<Side, number>> = { base: 8453, arbitrum: 42161 };

async function booksOf(api: YieldRouterClient, wallet: Address): Promise<ChainBooks> {
  const position = await api.getPosition({ params: { address: wallet } });
  return {
    baseInFlightMicros: position.byChain.base.inFlightMicros,
    arbitrumLiquidMicros: position.byChain.arbitrum.liquidMicros,
  };
}

export async function runBridgeAgent(options: BridgeAgentOptions): Promise<BridgeAgentResult> {
  const print = options.print ?? (() => undefined);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const owner = privateKeyToAccount(options.privateKey);
  const wallet = owner.address;
  const api = createClient({ baseUrl: options.baseUrl, apiKey: options.ownerKey });
  /** The owner signs `tx` on `side` and sends it; its hash once mined successfully. */
  const send = async (side: Side, tx: unknown): Promise<Hex> => {
    const { to, data } = tx as { to: Address; data: Hex };
    const chain = anvilChain(CHAIN_IDS[side], options.rpcUrls[side]);
    const transport = http(options.rpcUrls[side], { retryCount: 0 });
    const signer = createWalletClient({ account: owner, chain, transport });
    const hash = await signer.sendTransaction({ to, data, gas: 1_000_000n });
    const reader = createPublicClient({ chain, transport });
    const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (receipt.status !== 'success') throw new Error(`${side}: ${hash} reverted`);
    return hash;
  };
  const delivery = async (planId: string) =>
    (await api.confirmBridgeDelivery({ body: { planId } })) as DeliveryState;

  const receiver = options.webhookReceiver;
  if (receiver) {
    print(`→ POST /api/v1/svc/webhooks {url: ${receiver.url}, eventTypes: [bridge.delivered]}`);
    const subscription = await api.createWebhook({
      body: {
        url: receiver.url,
        eventTypes: ['bridge.delivered'],
        description: 'pnpm localnet:bridge: the local receiver (verifies every signature)',
      },
    });
    receiver.setKey(subscription.hmacKey);
  }

  const amount = formatMicros(options.amountMicros);
  print(`→ POST /api/v1/svc/bridge/plan {base → arbitrum, ${amount} USDC, ${wallet}}`);
  const plan = await api.prepareBridgePlan({
    body: {
      sourceChain: 'base',
      destChain: 'arbitrum',
      amountMicros: options.amountMicros.toString(),
      sourceAddress: wallet,
      destinationAddress: wallet,
    },
  });
  const planId = plan.planId;
  const legs = (plan.legs ?? []) as readonly Leg[];
  if (plan.status !== 'prepared' || !planId || legs.length === 0) {
    throw new Error(`the bridge plan is ${plan.status}: ${JSON.stringify(plan.blockers ?? [])}`);
  }
  print(`  plan ${planId}: ${legs.map((leg) => leg.action).join(', ')}`);

  let burnTx: Hex | undefined;
  for (const leg of legs) {
    const hash = await send('base', leg.transaction);
    print(`  ${leg.action} signed and sent on Base: ${hash}`);
    if (!leg.settles) continue;
    const settled = await api.settlePlanLeg({
      params: { planId, legIndex: leg.index },
      body: { txId: hash },
    });
    print(`  → POST /api/v1/svc/plans/${planId}/legs/${leg.index}/settle: ${settled.status}`);
    if (settled.status !== 'confirmed') throw new Error(`leg ${leg.index} is ${settled.status}`);
    if (leg.action === 'burn') burnTx = hash;
  }
  if (!burnTx) throw new Error('the plan has no burn leg');
  const afterBurn = await booksOf(api, wallet);
  print(`  books: in flight on base ${afterBurn.baseInFlightMicros} micros`);

  print(`→ POST /api/v1/svc/bridge/delivery {planId} until the attestation is there`);
  const attested = await waitFor(
    async () => {
      const state = await delivery(planId);
      return state.mintLeg?.transaction ? state : undefined;
    },
    timeoutMs,
    'the mint leg (attestation)',
  );
  const mintTx = await send('arbitrum', attested.mintLeg?.transaction);
  print(`  mint signed and sent on Arbitrum: ${mintTx}`);

  print(`  waiting for the keeper's bridge watch to find the mint and credit it`);
  const delivered = await waitFor(
    async () => {
      const state = await delivery(planId);
      return state.bridgeStatus === 'delivered' ? state : undefined;
    },
    timeoutMs,
    "the keeper's credit",
  );
  const afterDelivery = await booksOf(api, wallet);
  print(
    `  delivered by ${delivered.destTxId}: ${delivered.deliveredMicros} micros; books: in flight ` +
      `on base ${afterDelivery.baseInFlightMicros}, liquid on arbitrum ` +
      `${afterDelivery.arbitrumLiquidMicros}`,
  );

  let webhook: BridgeAgentResult['webhook'] = null;
  if (receiver) {
    const received = await waitFor(
      async () => receiver.received.find((one) => one.eventType === 'bridge.delivered'),
      timeoutMs,
      'the bridge.delivered webhook',
    );
    webhook = { eventId: received.eventId, verified: received.verified };
    print(
      `  webhook bridge.delivered ${received.eventId}: signature verified ${received.verified}`,
    );
  }
  return {
    planId,
    wallet,
    burnTx,
    mintTx,
    burnedMicros: delivered.burnedMicros ?? '',
    deliveredMicros: delivered.deliveredMicros ?? '',
    afterBurn,
    afterDelivery,
    webhook,
  };
}
