import { BOOKS_ASSET, listWalletHoldings, readBucketDifferences } from '@yieldrouter/ledger';
import type { DriftInput, HoldingCursor, Books, WalletHolding } from '@yieldrouter/ledger';
import type { AssetBalance, Chain } from '@yieldrouter/schemas';
import { errorMessage, formatMicros } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { mapWithLimit } from '../mapWithLimit';
import { NATIVE_ASSET } from './swapBooking';
import { ownerOn } from './walletAddress';

/** How each chain's balance read (`ChainAdapter.readBalances`) names its gas coin. */
const NATIVE_SYMBOL: Readonly<Record<Chain, string>> = {
  solana: 'SOL',
  sui: 'SUI',
  base: 'ETH',
  arbitrum: 'ETH',
};

/** The chain's reading of a books asset among what `readBalances` answered (by symbol or id). */
function readingOf(
  balances: readonly AssetBalance[],
  chain: Chain,
  asset: string,
): AssetBalance | undefined {
  const name = asset === NATIVE_ASSET ? NATIVE_SYMBOL[chain] : asset;
  const evm = /^0x[0-9a-fA-F]{40}$/.test(name);
  return balances.find((balance) =>
    evm ? balance.asset.toLowerCase() === name.toLowerCase() : balance.asset === name,
  );
}

const driftOf = (
  thresholdMicros: bigint,
  fields: Omit<DriftInput, 'aboveThreshold' | 'opportunityId' | 'venueId'> & {
    readonly opportunityId?: string | null;
  },
): DriftInput => ({
  opportunityId: null,
  venueId: null,
  ...fields,
  aboveThreshold: fields.driftMicros >= thresholdMicros,
});

export interface WalletBucketParameters {
  readonly db: Books;
  readonly adapters: ChainAdapters;
  readonly thresholdMicros: bigint;
  readonly pageSize: number;
  readonly concurrency: number;
}

/**
 * The owners' wallets against the chain, a page of holdings at a time: every asset the books say
 * a wallet holds there (liquid in any asset; for USDC also auto_pay and pending_out, still in the
 * owner's wallet) is compared with what `readBalances` proves (one read per wallet and chain).
 * Less on chain than on the books is `wallet_below_books`; more is money outside the books (not
 * a drift). An asset the read does not answer, or answers unavailable, is counted, never
 * concluded on. `keep` records each page's drifts.
 */
export async function reconcileWalletHoldings(
  parameters: WalletBucketParameters,
  keep: (drifts: DriftInput[]) => Promise<void>,
): Promise<{ readonly holdings: number; readonly unavailable: number }> {
  let after: HoldingCursor | undefined;
  let holdings = 0;
  let unavailable = 0;
  for (;;) {
    const page = await listWalletHoldings(parameters.db, {
      limit: parameters.pageSize,
      ...(after ? { after } : {}),
    });
    const wallets = [...new Set(page.map((row) => `${row.wallet}\n${row.chain}`))];
    const reads = new Map<string, readonly AssetBalance[] | string>();
    await mapWithLimit(wallets, parameters.concurrency, async (key) => {
      const [wallet = '', chain = 'solana'] = key.split('\n');
      try {
        const adapter = parameters.adapters[chain as Chain];
        reads.set(
          key,
          await adapter.readBalances(ownerOn(parameters.adapters, wallet, chain as Chain)),
        );
      } catch (error) {
        reads.set(key, errorMessage(error));
      }
    });
    const drifts: DriftInput[] = [];
    for (const holding of page) {
      holdings += 1;
      const read = reads.get(`${holding.wallet}\n${holding.chain}`);
      const reading =
        read === undefined || typeof read === 'string'
          ? undefined
          : readingOf(read, holding.chain as Chain, holding.asset);
      if (!reading || reading.status !== 'ok') {
        unavailable += 1;
        continue;
      }
      const drift = holdingDrift(holding, reading.amount, parameters.thresholdMicros);
      if (drift) drifts.push(drift);
    }
    await keep(drifts);
    const last = page.at(-1);
    if (!last || page.length < parameters.pageSize) break;
    after = { wallet: last.wallet, chain: last.chain, asset: last.asset };
  }
  return { holdings, unavailable };
}

/** A holding the chain shows less of than the books: `wallet_below_books`. */
export function holdingDrift(
  holding: WalletHolding,
  chainAmount: bigint,
  thresholdMicros: bigint,
): DriftInput | undefined {
  if (chainAmount >= holding.booksMicros) return undefined;
  const unit = holding.asset === BOOKS_ASSET ? 'micros' : `base units of ${holding.asset}`;
  return driftOf(thresholdMicros, {
    wallet: holding.wallet,
    chain: holding.chain,
    kind: 'wallet_below_books',
    booksMicros: holding.booksMicros,
    chainMicros: chainAmount,
    driftMicros: holding.booksMicros - chainAmount,
    cause: `the books hold ${formatMicros(holding.booksMicros)} ${unit} in the owner's wallet; the chain shows ${formatMicros(chainAmount)}`,
  });
}

const BUCKET_KIND = {
  in_flight: 'in_flight_without_bridge',
  auto_pay: 'auto_pay_without_payout',
} as const;

/**
 * Buckets the books keep against their own records: `in_flight` against the bridges not
 * delivered yet, `auto_pay` against the runs with a payout still open, `staked:…` against the
 * position it belongs to. Each difference is a drift of the bucket's kind.
 */
export async function bucketDrifts(db: Books, thresholdMicros: bigint): Promise<DriftInput[]> {
  const rows = await readBucketDifferences(db, 10_000);
  return rows.map((row) => {
    const drift =
      row.booksMicros > row.expectedMicros
        ? row.booksMicros - row.expectedMicros
        : row.expectedMicros - row.booksMicros;
    const kind =
      row.bucket === 'in_flight' || row.bucket === 'auto_pay'
        ? BUCKET_KIND[row.bucket]
        : ('staked_without_position' as const);
    const records =
      kind === 'in_flight_without_bridge'
        ? 'bridges not delivered yet burned'
        : kind === 'auto_pay_without_payout'
          ? 'runs with a payout still open hold'
          : 'its position marks (less fees retained)';
    return driftOf(thresholdMicros, {
      wallet: row.wallet,
      chain: row.chain,
      opportunityId: row.opportunityId,
      kind,
      booksMicros: row.booksMicros,
      chainMicros: row.expectedMicros,
      driftMicros: drift,
      cause: `${row.bucket} holds ${formatMicros(row.booksMicros)}; ${records} ${formatMicros(row.expectedMicros)}`,
    });
  });
}
