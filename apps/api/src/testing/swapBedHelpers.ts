import request from 'supertest';
import { createPublicClient, createWalletClient, http } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createChainAdapters } from '@yieldrouter/engine';
import { watchSettlements } from '@yieldrouter/jobs';
import { testJobDeps } from '@yieldrouter/jobs/testing';
import { postJournalEntry } from '@yieldrouter/ledger';
import type { LedgerChain } from '@yieldrouter/ledger';
import { StoredPlanDocument } from '@yieldrouter/schemas';
import { anvilChain } from '@yieldrouter/chain-beds/evm';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import type { TestApp } from './startTestApp';

/** Viem clients on the bed's Base node: a reader, the owner's wallet, and raw anvil calls. */
export function bedClients(bed: EvmBed, privateKey: Hex) {
  const chain = anvilChain(8453, bed.anvil.rpcUrl);
  const transport = http(bed.anvil.rpcUrl);
  const reader = createPublicClient({ chain, transport });
  return {
    reader,
    wallet: createWalletClient({ chain, transport, account: privateKeyToAccount(privateKey) }),
    anvil: (method: string, params: unknown[]) =>
      reader.request({ method: method as never, params: params as never }),
  };
}

/** Sends a leg's transaction request from the owner and waits for it to be mined. */
export async function sendLeg(
  clients: ReturnType<typeof bedClients>,
  transaction: unknown,
  fees: { maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint } = {},
): Promise<Hex> {
  const tx = transaction as { to: Address; data: Hex; value: string };
  const hash = await clients.wallet.sendTransaction({
    to: tx.to,
    data: tx.data,
    value: BigInt(tx.value),
    ...fees,
  });
  await clients.reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  return hash;
}

/** One run of the keeper's settlement watch against the app's chains. */
export function watchOnce(t: TestApp) {
  const adapters = createChainAdapters({
    chains: t.config.chains,
    ids: t.config.onChainIds,
    switches: t.config.switches,
  });
  return watchSettlements(
    testJobDeps(
      { url: '', db: t.db, drop: async () => undefined },
      { adapters, venues: t.config.venues },
    ),
  );
}

/** A plan as GET /svc/plans/{planId} answers it. */
export async function storedPlan(t: TestApp, planId: string) {
  return StoredPlanDocument.parse(
    (await request(t.app).get(`/api/v1/svc/plans/${planId}`).expect(200)).body,
  );
}

/** The books' side of a route that settled earlier: `amount` USDC in the wallet's liquid. */
export function seedLiquid(t: TestApp, wallet: string, chain: LedgerChain, amount: bigint) {
  return t.db.transaction((tx) =>
    postJournalEntry(tx, {
      kind: 'test.routed',
      postings: [
        { account: { system: 'external', chain }, amountMicros: -amount },
        { account: { wallet, chain, bucket: 'liquid' }, amountMicros: amount },
      ],
    }),
  );
}
