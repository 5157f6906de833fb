// The Solana part of `pnpm demo`: a kamino deposit through our router into the bed's klend
// stand-in, signed by a bed key, settled from its receipt; interest accrues in the Reserve and a
// harvest books it on our cTokens.
import { VersionedTransaction } from '@solana/web3.js';
import { createClient } from '@yieldrouter/sdk';
import type { DemoStack } from './demoStack';

const DEPOSIT_MICROS = 10_000_000n; // 10 USDC
const SLOTS_PER_YEAR = 63_072_000n;

export async function runKaminoAgent(
  stack: DemoStack,
  print: (line: string) => void,
): Promise<string> {
  const { solana, solanaRouter } = stack.localnet;
  const agent = createClient({ baseUrl: stack.baseUrl, apiKey: stack.ownerKey });
  const owner = solana.createFundedKeypair();
  const wallet = owner.publicKey.toBase58();
  solana.mintUsdc(owner.publicKey, DEPOSIT_MICROS);

  print(`\nSolana: kamino (klend, through our router) for ${wallet}`);
  print('   → POST /api/v1/svc/strategies/deposit/plan {strategyId: kamino, 10 USDC}');
  const deposit = await agent.prepareDepositPlan({
    body: { strategyId: 'kamino', amountMicros: String(DEPOSIT_MICROS), owner: wallet },
  });
  const leg = deposit.legs?.[0] as { readonly transaction?: unknown } | undefined;
  if (deposit.status !== 'prepared' || typeof leg?.transaction !== 'string') {
    throw new Error(`kamino deposit plan: ${JSON.stringify(deposit)}`);
  }
  const transaction = VersionedTransaction.deserialize(Buffer.from(leg.transaction, 'base64'));
  transaction.sign([owner]);
  const outcome = solana.send(transaction);
  if (!outcome.landed || outcome.entry.err !== null) {
    const error = outcome.landed ? outcome.entry.err : outcome.err;
    throw new Error(`kamino deposit did not land: ${JSON.stringify(error)}`);
  }
  const settled = await agent.settlePlanLeg({
    params: { planId: deposit.planId ?? '', legIndex: 0 },
    body: { txId: outcome.entry.signature },
  });
  const cUsdc = solana.tokenBalance(solanaRouter.kamino.ids.reserveCollateralMint, wallet);
  print(
    `   leg 0 ${settled.status}, ${settled.settledAmountMicros} micros; ${cUsdc} cUSDC to the owner`,
  );

  print('   → a year of interest in the Reserve, then POST /api/v1/wallets/{address}/harvest');
  solanaRouter.kamino.accrue(SLOTS_PER_YEAR);
  const harvest = await agent.harvest({ params: { address: wallet }, body: {} });
  print(
    `   ${harvest.outcome}: gross ${harvest.grossYieldMicros}, protocol fee ` +
      `${harvest.protocolFeeMicros}, net ${harvest.netYieldMicros} (micros)`,
  );
  return wallet;
}
