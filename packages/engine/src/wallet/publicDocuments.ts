import { readActivityPage, readStakedPositions } from '@yieldrouter/ledger';
import type { ActivityCursor, ActivityLegRow, Books } from '@yieldrouter/ledger';
import type { Chain, PublicActivityDocument, PublicPortfolioDocument } from '@yieldrouter/schemas';
import { USDC_DECIMALS, formatMicros, formatUnits } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { ledgerWallet } from './walletAddress';

type Portfolio = PublicPortfolioDocument;
type Activity = PublicActivityDocument;

/**
 * Return on the cost basis in percent, two decimals truncated toward zero; null without a cost
 * basis (nothing deposited, or more withdrawn than deposited). 0 only at break-even.
 */
export function roiPct(depositedMicros: bigint, currentMicros: bigint): number | null {
  if (depositedMicros <= 0n) return null;
  const hundredths = ((currentMicros - depositedMicros) * 10_000n) / depositedMicros;
  return Number(hundredths) / 100;
}

/**
 * `/svc/portfolio?wallet=` (svc-wallet-portfolio.v1): the wallet's venue positions as the ledger
 * holds them. Only positions with a balance and an on-chain transaction are listed.
 */
export async function buildPublicPortfolio(
  db: Books,
  adapters: ChainAdapters,
  address: string,
  now: Date,
): Promise<Portfolio> {
  const wallet = ledgerWallet(adapters, address);
  const positions = (await readStakedPositions(db, wallet)).filter(
    (position) => position.balanceMicros > 0n && position.txId !== null,
  );
  let deposited = 0n;
  let current = 0n;
  const rows = positions.map((position) => {
    const basis = position.principalMicros > 0n ? position.principalMicros : 0n;
    deposited += basis;
    current += position.balanceMicros;
    return {
      opportunityId: position.opportunityId,
      venueId: position.venueId,
      protocol: position.protocol,
      chain: position.chain as Chain,
      depositedMicros: formatMicros(basis),
      currentMicros: formatMicros(position.balanceMicros),
      harvestedMicros: formatMicros(position.harvestedMicros),
      roiPct: roiPct(position.principalMicros, position.balanceMicros),
      txId: position.txId as string,
    };
  });
  return {
    schemaVersion: 'svc-wallet-portfolio.v1',
    wallet,
    count: rows.length,
    positions: rows,
    totalDepositedUsd: formatUnits(deposited, USDC_DECIMALS),
    totalCurrentUsd: formatUnits(current, USDC_DECIMALS),
    usdBasis: 'usdc_at_par',
    asOf: now.toISOString(),
  };
}

const encodeCursor = (cursor: ActivityCursor) =>
  Buffer.from(`${cursor.createdAt.toISOString()}|${cursor.planId}`).toString('base64url');

function decodeCursor(cursor: string): ActivityCursor {
  const [time, planId] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(time ?? '');
  if (!planId || Number.isNaN(createdAt.getTime())) {
    throw new EngineError(
      'BAD_REQUEST',
      'query.cursor: not a cursor from this API',
      'query.cursor',
    );
  }
  return { createdAt, planId };
}

const ACTIVITY_STATUS: Readonly<Record<string, Activity['activity'][number]['status']>> = {
  submitted: 'submitted',
  confirmed: 'confirmed',
  failed: 'failed',
};

// Object.hasOwn: an action is a stored string; only these own keys name a kind. An unwrap
// (gas sponsorship: wrapped native into native, 1:1) is a swap row, as is a wrap (the reverse).
const ACTIVITY_KIND = {
  swap: 'swap',
  unwrap: 'swap',
  wrap: 'swap',
  withdraw: 'withdraw',
  transfer: 'transfer',
} as const;
const activityKind = (action: string) =>
  Object.hasOwn(ACTIVITY_KIND, action)
    ? ACTIVITY_KIND[action as keyof typeof ACTIVITY_KIND]
    : ('deposit' as const);

/**
 * A bridge's burn row: in flight from the burn receipt until the mint is credited; then what the
 * mint receipt credited on the destination is its amount out.
 */
function burnRow(leg: ActivityLegRow, bridge: NonNullable<ActivityLegRow['bridge']>) {
  const delivered = bridge.deliveredMicros;
  const burned = leg.status === 'confirmed' ? leg.settledAmountMicros : null;
  return {
    amountOut: delivered === null ? null : formatMicros(delivered),
    inFlightMicros: delivered !== null ? '0' : burned === null ? null : formatMicros(burned),
    destTxId: bridge.mintTxId,
    status:
      delivered !== null
        ? ('confirmed' as const)
        : burned !== null
          ? ('in_flight' as const)
          : (ACTIVITY_STATUS[leg.status] ?? 'submitted'),
  };
}

/**
 * `/svc/activity?wallet=` (svc-wallet-activity.v1): one row per leg that reached the chain (or
 * failed), newest plan first, legs in order; `amountOut` is the settled amount from the receipt,
 * null until then; every leg of a bridge plan is a `bridge` row, its burn in flight until the
 * mint is credited. Pages hold whole plans (`limit` plans, 50 by default); `nextCursor` continues.
 */
export async function buildPublicActivity(
  db: Books,
  adapters: ChainAdapters,
  query: { wallet: string; cursor?: string | undefined; limit?: number | undefined },
): Promise<Activity> {
  const wallet = ledgerWallet(adapters, query.wallet);
  const page = await readActivityPage(db, wallet, {
    plans: query.limit ?? 50,
    ...(query.cursor ? { before: decodeCursor(query.cursor) } : {}),
  });
  const activity = page.legs.map((leg) => ({
    planId: leg.planId,
    legIndex: leg.legIndex,
    kind: leg.bridge ? ('bridge' as const) : activityKind(leg.action),
    txId: leg.txId,
    chain: leg.chain as Chain,
    destChain: (leg.bridge?.destChain ?? null) as Chain | null,
    venueId: leg.venueId,
    amountIn: formatMicros(leg.amountMicros),
    quotedAmountOut: formatMicros(leg.quotedAmountOutMicros ?? leg.amountMicros),
    ...(leg.bridge && leg.action === 'burn'
      ? burnRow(leg, leg.bridge)
      : {
          amountOut:
            leg.settledAmountMicros === null ? null : formatMicros(leg.settledAmountMicros),
          inFlightMicros: null,
          destTxId: null,
          status: ACTIVITY_STATUS[leg.status] ?? 'submitted',
        }),
    error: leg.failureReason,
    createdAt: leg.createdAt.toISOString(),
    updatedAt: leg.updatedAt.toISOString(),
  }));
  return {
    schemaVersion: 'svc-wallet-activity.v1',
    wallet,
    count: activity.length,
    activity,
    nextCursor: page.next ? encodeCursor(page.next) : null,
  };
}
