// The scripted agent of `pnpm demo`: the real flow through the SDK against the running stack,
// with the owner signing on the Base bed (anvil) with a bed key, and the demo's webhook receiver
// subscribed to the wallet's events.
import { anvilChain } from '@yieldrouter/chain-beds/evm';
import { createClient, formatMicros } from '@yieldrouter/sdk';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  erc20Abi,
  erc4626Abi,
  http,
} from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { DemoStack } from './demoStack';

const DEPOSIT_MICROS = 25_000_000n; // 25 USDC
const YIELD_MICROS = 2_000_000n; // what the bed vault earns between deposit and harvest
const WEBHOOK_EVENTS = [
  'deposit.settled',
  'harvest.completed',
  'withdraw.settled',
  'position.updated',
] as const;

interface Leg {
  readonly transaction?: unknown;
}

export async function runAgent(stack: DemoStack, print: (line: string) => void): Promise<string> {
  const base = stack.localnet.base;
  const privateKey = base.anvil.accounts[1]?.privateKey;
  if (!privateKey) throw new Error('anvil has no second account');
  const owner = privateKeyToAccount(privateKey);
  const wallet = owner.address;
  if (wallet !== stack.wallet) throw new Error(`the demo wallet is ${stack.wallet}, not ${wallet}`);
  const chain = anvilChain(8453, base.anvil.rpcUrl);
  const signer = createWalletClient({ account: owner, chain, transport: http(base.anvil.rpcUrl) });
  const reader = createPublicClient({ chain, transport: http(base.anvil.rpcUrl) });
  const anvil = createTestClient({ mode: 'anvil', chain, transport: http(base.anvil.rpcUrl) });
  const agent = createClient({ baseUrl: stack.baseUrl, apiKey: stack.ownerKey });
  const receiver = stack.webhookReceiver;
  let step = 0;
  const heading = (title: string, request: string) => {
    step += 1;
    print(`\n${step}. ${title}\n   → ${request}`);
  };
  const balances = async () => {
    const [usdc, shares] = await Promise.all([
      reader.readContract({
        address: base.fixtures.usdc,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [wallet],
      }),
      reader.readContract({
        address: base.fixtures.vault,
        abi: erc4626Abi,
        functionName: 'balanceOf',
        args: [wallet],
      }),
    ]);
    const position = await agent.getPosition({ params: { address: wallet } });
    print(
      `   balances: wallet ${formatMicros(usdc)} USDC on chain, vault shares ${shares}; books: ` +
        `liquid ${position.liquidMicros}, staked ${position.stakedMicros}, pending in ` +
        `${position.pendingInMicros}, pending out ${position.pendingOutMicros} (micros)`,
    );
  };
  /** The owner signs every leg with the bed key and sends it; returns the transaction hashes. */
  const signAndSend = async (legs: readonly Leg[]) => {
    const hashes: Hex[] = [];
    for (const leg of legs) {
      const tx = leg.transaction as { to: Address; data: Hex };
      const hash = await signer.sendTransaction({ to: tx.to, data: tx.data, gas: 300_000n });
      await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      hashes.push(hash);
    }
    return hashes;
  };

  heading('Discover', 'GET /api/v1/svc/opportunities');
  const listed = await agent.listOpportunities();
  const opportunities = listed.opportunities;
  for (const opportunity of opportunities) {
    print(
      `   ${opportunity.venueId.padEnd(8)} ${opportunity.chain.padEnd(9)} APY ` +
        `${opportunity.grossApyBps ?? 'N/A'} bps (${opportunity.apy.source ?? opportunity.apy.reason}), ` +
        `30-day mean ${opportunity.apyMean30dBps ?? 'N/A'} bps`,
    );
  }
  const history = await agent.getOpportunityApyHistory({ params: { id: 'morpho' } });
  print(
    `   → GET /api/v1/svc/opportunities/morpho/apy-history: ${history.points.length} daily points`,
  );

  heading('Subscribe a webhook receiver', `POST /api/v1/svc/webhooks {url: ${receiver.url}}`);
  const subscription = await agent.createWebhook({
    body: {
      url: receiver.url,
      eventTypes: [...WEBHOOK_EVENTS],
      description: 'pnpm demo: the local receiver (verifies every signature)',
    },
  });
  receiver.setKey(subscription.hmacKey);
  print(`   ${subscription.id}: ${subscription.eventTypes.join(', ')} (hmacKey shown once)`);

  heading('Deposit plan', `POST /api/v1/svc/strategies/deposit/plan {strategyId: morpho, 25 USDC}`);
  await balances();
  const deposit = await agent.prepareDepositPlan({
    body: { strategyId: 'morpho', amountMicros: String(DEPOSIT_MICROS), owner: wallet },
  });
  print(`   plan ${deposit.planId} ${deposit.status}, ${deposit.legs?.length ?? 0} legs to sign`);

  heading('Owner signs with the bed key and sends', 'eth_sendTransaction on anvil (Base bed)');
  const [, depositTx] = await signAndSend(deposit.legs ?? []);
  print(`   deposit tx ${depositTx}`);

  heading('Settle from the receipt', `POST /api/v1/svc/plans/${deposit.planId}/legs/1/settle`);
  const settled = await agent.settlePlanLeg({
    params: { planId: deposit.planId ?? '', legIndex: 1 },
    body: { txId: depositTx ?? '' },
  });
  print(`   leg 1 ${settled.status}, ${settled.settledAmountMicros} micros from the chain`);
  await balances();

  heading('Position, activity and portfolio', `GET /api/v1/wallets/${wallet}/position …`);
  const activity = await agent.getPublicActivity({ query: { wallet } });
  for (const entry of activity.activity) {
    print(`   activity: ${entry.planId} leg ${entry.legIndex} ${entry.kind} ${entry.status}`);
  }
  const portfolio = await agent.getPublicPortfolio({ query: { wallet } });
  print(`   portfolio: ${portfolio.count} position(s), $${portfolio.totalCurrentUsd} current`);

  heading('The vault earns', `mint ${formatMicros(YIELD_MICROS)} USDC into the bed vault`);
  await base.fixtures.mintUsdc(base.fixtures.vault, YIELD_MICROS);
  heading('Harvest', `POST /api/v1/wallets/${wallet}/harvest`);
  const harvest = await agent.harvest({ params: { address: wallet }, body: {} });
  print(
    `   ${harvest.outcome}: gross ${harvest.grossYieldMicros}, protocol fee ` +
      `${harvest.protocolFeeMicros}, net ${harvest.netYieldMicros} (micros)`,
  );
  await balances();

  const staked = (await agent.getPosition({ params: { address: wallet } })).stakedMicros;
  heading('Withdraw', `POST /api/v1/svc/strategies/withdraw/plan {strategyId: morpho, ${staked}}`);
  const exit = await agent.prepareWithdrawPlan({
    body: { strategyId: 'morpho', amountMicros: staked, owner: wallet },
  });
  print(`   plan ${exit.planId} ${exit.status}`);
  // The owner reports the transaction while it is still in anvil's mempool (mining paused): the
  // leg is held as submitted, and the keeper's settlement watch settles it once it is mined.
  await anvil.setAutomine(false);
  const exitLeg = (exit.legs?.[0] ?? {}) as Leg;
  const sent = exitLeg.transaction as { to: Address; data: Hex };
  const exitTx = await signer.sendTransaction({ to: sent.to, data: sent.data, gas: 300_000n });
  const held = await agent.settlePlanLeg({
    params: { planId: exit.planId ?? '', legIndex: 0 },
    body: { txId: exitTx },
  });
  print(`   withdraw tx ${exitTx} reported while unmined: leg ${held.status}`);
  await anvil.mine({ blocks: 1 });
  await anvil.setAutomine(true);
  heading('The keeper settles', `settlement-watch; GET /api/v1/svc/plans/${exit.planId}`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const plan = await agent.getPlan({ params: { planId: exit.planId ?? '' } });
    const status = plan.legs?.[0]?.status;
    if (status === 'confirmed') break;
    if (Date.now() > deadline)
      throw new Error(`the keeper did not settle the withdrawal (${status})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  print('   leg 0 confirmed by the keeper from the receipt');
  await balances();

  heading('Webhooks delivered', `GET /api/v1/svc/webhooks/events?wallet=${wallet}`);
  // The keeper relays the outbox and delivers every second; the last event (the withdrawal) is
  // a few seconds old here. Wait until each of this subscription's deliveries has an outcome.
  const webhookDeadline = Date.now() + 30_000;
  for (;;) {
    const { events } = await agent.listWebhookEvents({ query: { wallet, limit: 50 } });
    const mine = events.flatMap((entry) =>
      entry.deliveries
        .filter((one) => one.subscriptionId === subscription.id)
        .map((delivery) => ({ type: entry.event.type, delivery })),
    );
    const outcomes = mine.filter(({ delivery }) => delivery.status !== 'pending');
    if (mine.some(({ type }) => type === 'withdraw.settled') && outcomes.length === mine.length) {
      for (const { type, delivery } of outcomes.reverse()) {
        print(`   ${type.padEnd(17)} ${delivery.status}, ${delivery.attemptCount} attempt(s)`);
      }
      break;
    }
    if (Date.now() > webhookDeadline) {
      throw new Error(`webhooks: ${outcomes.length} of ${mine.length} deliveries settled in 30 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const verified = receiver.received.filter((one) => one.verified).length;
  print(`   the receiver verified ${verified} of ${receiver.received.length} signatures`);
  return wallet;
}
