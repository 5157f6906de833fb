import { createPublicClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startEvmBed } from '@yieldrouter/chain-beds/evm';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import { createEvmAdapter } from '@yieldrouter/chain-evm';
import { postJournalEntry } from '@yieldrouter/ledger';
import type { AccountRef } from '@yieldrouter/ledger';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import type { ChainAdapters } from '../chains/chainsConfig';
import { reconcileBooks } from './reconcileBooks';

// Issue 40: reconciliation compares what the books say an owner's wallet holds with the chain's
// balances through the real EVM adapter (`readBalances`: ETH and the bed's USDC on anvil).
// Clean when they agree; one drift per asset when the chain shows less.

let bed: EvmBed;
let test: TestDatabase;
let adapters: ChainAdapters;
const ETH = 10n ** 18n;

beforeAll(async () => {
  [bed, test] = await Promise.all([startEvmBed(), createTestDatabase()]);
  // Only Base is read: the wallet's holdings are there.
  adapters = {
    base: createEvmAdapter({ chain: 'base', timeoutMs: 2_000, ...bed.adapterConfig }),
  } as unknown as ChainAdapters;
});
afterAll(async () => {
  await Promise.all([bed?.stop(), test?.drop()]);
});

async function credit(account: AccountRef, amount: bigint) {
  const asset = 'asset' in account ? account.asset : undefined;
  await test.db.transaction((tx) =>
    postJournalEntry(tx, {
      kind: 'test.funded',
      postings: [
        {
          account: { system: 'external', chain: 'base', ...(asset ? { asset } : {}) },
          amountMicros: -amount,
        },
        { account, amountMicros: amount },
      ],
    }),
  );
}

it('reads USDC and ETH of the owner on anvil and reports each asset the chain holds less of', async () => {
  const wallet = privateKeyToAccount(generatePrivateKey()).address;
  const rpc = createPublicClient({ transport: http(bed.adapterConfig.rpcUrl) });
  const setEth = (wei: bigint) =>
    rpc.request({
      method: 'anvil_setBalance' as never,
      params: [wallet, `0x${wei.toString(16)}`] as never,
    });
  await bed.fixtures.mintUsdc(wallet, 25_000_000n);
  await setEth(ETH);
  // The books: 25 USDC and 1 ETH liquid, in the owner's wallet.
  await credit({ wallet, chain: 'base', bucket: 'liquid' }, 25_000_000n);
  await credit({ wallet, chain: 'base', bucket: 'liquid', asset: 'native' }, ETH);
  const reconcile = () =>
    reconcileBooks({
      db: test.db,
      adapters,
      venues: { ids: {}, apyPools: {}, apyMaxAgeMs: 3_600_000, apyMeanMinSamples: 1 },
      thresholdMicros: 1n,
      trigger: 'manual',
      now: () => new Date(),
    });
  const clean = await reconcile();
  expect(clean).toMatchObject({ holdings: 2, unavailable: 0, aboveThreshold: 0 });

  // One micro more USDC on the books; one wei less ETH on the chain.
  await credit({ wallet, chain: 'base', bucket: 'liquid' }, 1n);
  await setEth(ETH - 1n);
  const report = await reconcile();
  expect(report.drifts.wallet_below_books).toEqual({ count: 2, micros: 2n });
  const rows = await test.db.reconciliationDrift.findMany({
    where: { runId: report.runId },
    orderBy: { chainMicros: 'asc' },
  });
  expect(rows.map((row) => [row.kind, row.booksMicros, row.chainMicros])).toEqual([
    ['wallet_below_books', 25_000_001n, 25_000_000n],
    ['wallet_below_books', ETH, ETH - 1n],
  ]);
});
