import type { VenueWithApyRow } from '@yieldrouter/ledger';
import {
  PoolFacts as PoolFactsSchema,
  VenueChainFacts as VenueChainFactsSchema,
  formatMicros,
} from '@yieldrouter/schemas';
import type {
  Opportunity,
  OpportunityToken,
  PoolFacts,
  VenueChainFacts,
} from '@yieldrouter/schemas';
import { chainFactsUnknown } from './readChainFacts';

type Facts = Pick<Opportunity, 'tvl' | 'caps' | 'tokens' | 'risk'>;

/** The stored chain read, parsed; a row never read or stored in another shape is unknown. */
function chainFactsOf(row: VenueWithApyRow): VenueChainFacts & { readonly asOf: string | null } {
  if (row.chainRead === null) {
    return {
      ...chainFactsUnknown('not read on chain yet (the discovery refresh reads it)'),
      asOf: null,
    };
  }
  const parsed = VenueChainFactsSchema.safeParse(row.chainRead.facts);
  return parsed.success
    ? { ...parsed.data, asOf: row.chainRead.observedAt.toISOString() }
    : { ...chainFactsUnknown('the stored chain read is unreadable'), asOf: null };
}

/** The source's pool facts of the latest reading when it is the served one; else null. */
function poolFactsOf(row: VenueWithApyRow, served: boolean): PoolFacts | null {
  if (!served || row.latest === null) return null;
  const parsed = PoolFactsSchema.safeParse(row.latest.poolFacts);
  return parsed.success ? parsed.data : null;
}

const tokenOf = (
  token: { readonly address: string; readonly decimals: number | null } | null,
  source: OpportunityToken['source'],
): OpportunityToken | null => (token ? { ...token, source } : null);

/**
 * The configured id that names a venue's receipt token, by standard and chain, first match
 * wins: Kamino's and Save's cToken mint is `reserveCollateralMint`, Jupiter Lend's jlToken is
 * `fTokenMint` (its `vault` is the liquidity's USDC token account, not a receipt, so the
 * ERC-4626 `vault` comes last).
 */
const RECEIPT_ID_NAMES = [
  'receiptMint',
  'receiptCoinType',
  'aToken',
  'reserveCollateralMint',
  'fTokenMint',
  'vault',
] as const;

function configuredReceipt(ids: Readonly<Record<string, string>>): OpportunityToken | null {
  const name = RECEIPT_ID_NAMES.find((candidate) => ids[candidate] !== undefined);
  return name ? { address: ids[name] as string, decimals: null, source: 'configuration' } : null;
}

/** Lending standards: what a venue of that standard is, whatever the source says. */
const LENDING_STANDARDS = new Set(['erc4626', 'aave-v3', 'router-adapter']);

/**
 * TVL, caps, tokens and risk of one venue from its latest served reading, its latest chain read
 * and its configured ids (a receipt token named there, when the chain gave none). `apyReason`
 * is why the reading is not served (then nothing of it is used).
 */
export function buildOpportunityFacts(
  row: VenueWithApyRow,
  served: boolean,
  apyReason: string | null,
  configuredIds: Readonly<Record<string, string>>,
): Facts {
  const chain = chainFactsOf(row);
  const pool = poolFactsOf(row, served);
  const usdMicros =
    served && row.latest?.tvlUsdMicros != null ? formatMicros(row.latest.tvlUsdMicros) : null;
  const readingAsOf = served ? (row.latest?.observedAt.toISOString() ?? null) : null;
  const present = [
    usdMicros === null ? null : readingAsOf,
    chain.nativeTvlUnits === null ? null : chain.asOf,
  ].filter((time): time is string => time !== null);
  const unknown = [
    usdMicros === null ? `usdMicros: ${apyReason ?? 'the source gave no TVL'}` : null,
    chain.nativeTvlUnits === null ? `nativeUnits: ${chain.reason ?? 'not read'}` : null,
  ].filter((reason): reason is string => reason !== null);
  // Room under the cap as the venue counts it: Aave v3 counts the treasury's accrued share
  // besides the supply (the TVL), so the reading says what counts when it is not the TVL.
  const capUsed = chain.capUsedUnits ?? chain.nativeTvlUnits;
  const remaining =
    chain.totalCapUnits !== null && capUsed !== null
      ? BigInt(chain.totalCapUnits) - BigInt(capUsed)
      : null;
  const underlying =
    tokenOf(chain.underlying, 'chain') ??
    (pool?.underlyingTokens.length === 1
      ? {
          address: pool.underlyingTokens[0] as string,
          decimals: null,
          source: 'defillama' as const,
        }
      : null);
  const receipt = tokenOf(chain.receipt, 'chain') ?? configuredReceipt(configuredIds);
  const capsKnown = chain.totalCapUnits !== null && chain.maxDepositUnits !== null;
  return {
    tvl: {
      usdMicros,
      nativeUnits: chain.nativeTvlUnits,
      asOf: present.sort()[0] ?? null,
      reason: unknown.length === 0 ? null : unknown.join('; '),
    },
    caps: {
      totalUnits: chain.totalCapUnits,
      maxUnits: chain.maxDepositUnits,
      remainingUnits: remaining === null ? null : (remaining > 0n ? remaining : 0n).toString(10),
      asOf: chain.asOf,
      // A reading with every cap known still has a reason when the venue takes nothing now.
      reason: chain.reason ?? (capsKnown ? null : 'not read'),
    },
    tokens: {
      underlying,
      receipt,
      rewards: (pool?.rewardTokens ?? []).map((address) => ({
        address,
        decimals: null,
        source: 'defillama' as const,
      })),
      reason:
        underlying && receipt
          ? null
          : [
              underlying ? null : `underlying: ${chain.reason ?? 'not read'}`,
              receipt ? null : `receipt: ${chain.reason ?? 'not read'}`,
            ]
              .filter((reason): reason is string => reason !== null)
              .join('; '),
    },
    risk: {
      outlier: pool?.outlier ?? null,
      exposure: pool?.exposure ?? null,
      ilRisk: pool?.ilRisk ?? null,
      predictedClass: pool?.predictedClass ?? null,
      tags: [
        ...(pool?.stablecoin ? ['stablecoin'] : []),
        ...(LENDING_STANDARDS.has(row.standard) ? ['lending'] : []),
      ],
      source: pool ? (row.latest?.source ?? null) : null,
      asOf: pool ? readingAsOf : null,
      reason: pool
        ? null
        : served
          ? 'the source gave no risk fields with this reading'
          : (apyReason ?? 'no reading'),
    },
  };
}
