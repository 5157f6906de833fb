// The decision fields of an opportunity beyond its APY: TVL, deposit caps, tokens, risk.
// Every figure is a value or null with a reason; none is ever 0 or a guess.
import { z } from 'zod';
import { MicrosOut } from './money';

const Bps = z.number().int();
const Reason = z.string().nullable();
const AsOf = z.string().nullable().meta({ description: 'When the figures were read (ISO 8601).' });

/** An amount in a token's base units (wei, lamports, mist, micros) as a decimal string. */
export const UnitsOut = z
  .string()
  .regex(/^(0|[1-9][0-9]*)$/)
  .meta({
    description: 'Integer base units of the token as a decimal string.',
    examples: ['1000000'],
  });

/** Provenance and history of an APY. A null value always carries a reason; never 0 or a guess. */
export const ApyProvenance = z.object({
  totalBps: Bps.nullable().meta({
    description: 'Live total APY (base + reward): the value of grossApyBps, kept with its parts.',
  }),
  baseBps: Bps.nullable(),
  rewardBps: Bps.nullable(),
  d1Bps: Bps.nullable().meta({
    description: 'Mean of the ok samples stored in the last 24 hours; null without one.',
  }),
  d1Samples: z.number().int().meta({ description: 'Samples behind d1Bps.' }),
  d7Bps: Bps.nullable().meta({
    description: 'Mean of the ok samples stored in the last 7 days; null with too few.',
  }),
  d7Samples: z.number().int().meta({ description: 'Samples behind d7Bps.' }),
  source: z.string().nullable().meta({ description: 'e.g. defillama; null before any read.' }),
  asOf: AsOf,
  stale: z.boolean(),
  reason: Reason.meta({
    description: 'Why grossApyBps is null (source_not_configured, stale, …).',
  }),
});
export type ApyProvenance = z.infer<typeof ApyProvenance>;

export const OpportunityTvl = z.object({
  usdMicros: MicrosOut.nullable().meta({
    description: 'TVL in USD micros, from the yields source.',
  }),
  nativeUnits: UnitsOut.nullable().meta({
    description: 'TVL in base units of the underlying, read on chain (ERC-4626 totalAssets).',
  }),
  asOf: AsOf.meta({ description: 'Time of the oldest figure present; null when none is.' }),
  reason: Reason.meta({ description: 'Why a figure is null; null when both are known.' }),
});
export type OpportunityTvl = z.infer<typeof OpportunityTvl>;

export const OpportunityCaps = z.object({
  totalUnits: UnitsOut.nullable().meta({
    description:
      'The venue total deposit cap, where the venue exposes one (Aave v3: the reserve supply cap × 10^decimals); null when uncapped or not exposed.',
  }),
  maxUnits: UnitsOut.nullable().meta({
    description:
      'Most one deposit can put in now (ERC-4626 maxDeposit; Aave v3: the room under the supply cap, 0 while the reserve is inactive, frozen or paused); null when uncapped.',
  }),
  remainingUnits: UnitsOut.nullable().meta({
    description:
      "Room left under the total cap: totalUnits − what counts against it (the native TVL; on Aave v3 the supply plus the treasury's accrued share, as Aave's own check counts), floored at 0.",
  }),
  asOf: AsOf,
  reason: Reason.meta({
    description:
      'Why a cap is null (uncapped, not exposed, read failed), or why maxUnits is 0 (e.g. a frozen Aave reserve).',
  }),
});
export type OpportunityCaps = z.infer<typeof OpportunityCaps>;

export const OpportunityToken = z.object({
  address: z.string().meta({ description: 'EVM address, Solana mint or Sui coin type.' }),
  decimals: z.number().int().nullable().meta({ description: 'Null when no source states it.' }),
  source: z.enum(['configuration', 'chain', 'defillama']),
});
export type OpportunityToken = z.infer<typeof OpportunityToken>;

export const OpportunityTokens = z.object({
  underlying: OpportunityToken.nullable(),
  receipt: OpportunityToken.nullable().meta({ description: 'The share / LP / receipt token.' }),
  rewards: z.array(OpportunityToken),
  reason: Reason.meta({ description: 'Why underlying or receipt is null.' }),
});
export type OpportunityTokens = z.infer<typeof OpportunityTokens>;

export const RiskExposure = z.enum(['single', 'multi']);
export const RiskIlRisk = z.enum(['no', 'yes']);

export const OpportunityRisk = z.object({
  outlier: z.boolean().nullable().meta({ description: "The source's outlier flag." }),
  exposure: RiskExposure.nullable(),
  ilRisk: RiskIlRisk.nullable().meta({ description: 'Impermanent-loss risk.' }),
  predictedClass: z
    .string()
    .nullable()
    .meta({ description: "The source's APY prediction class (e.g. Stable/Up)." }),
  tags: z.array(z.string()).meta({ description: 'e.g. stablecoin, lending.' }),
  source: z.string().nullable(),
  asOf: AsOf,
  reason: Reason.meta({ description: 'Why the source figures are null.' }),
});
export type OpportunityRisk = z.infer<typeof OpportunityRisk>;

/** The facts of a venue the yields source gives beside APY (stored with each ok reading). */
export const PoolFacts = z.object({
  outlier: z.boolean().nullable(),
  exposure: RiskExposure.nullable(),
  ilRisk: RiskIlRisk.nullable(),
  predictedClass: z.string().nullable(),
  stablecoin: z.boolean().nullable(),
  underlyingTokens: z.array(z.string()),
  rewardTokens: z.array(z.string()),
});
export type PoolFacts = z.infer<typeof PoolFacts>;

const TokenOnChain = z.object({ address: z.string(), decimals: z.number().int().nullable() });

/**
 * What a chain adapter reads of a venue off the request path (in the discovery refresh): its
 * TVL in native units, its deposit limits and its tokens. Unit amounts are decimal strings.
 */
export const VenueChainFacts = z.object({
  nativeTvlUnits: UnitsOut.nullable(),
  /**
   * The most one deposit can put in now: ERC-4626 maxDeposit for a fresh receiver (null when
   * uint256 max); Aave v3 the room under the supply cap (null without one; 0 when the reserve is
   * inactive, paused or frozen).
   */
  maxDepositUnits: UnitsOut.nullable(),
  /** The venue's total cap (Aave v3: supply cap × 10^decimals); null when none is exposed or set. */
  totalCapUnits: UnitsOut.nullable(),
  /**
   * What counts against totalCapUnits where the venue counts more than its TVL (Aave v3: the
   * supply plus the treasury's accrued share); null: the native TVL does. Reads stored before
   * this field existed parse as null.
   */
  capUsedUnits: UnitsOut.nullable().default(null),
  underlying: TokenOnChain.nullable(),
  receipt: TokenOnChain.nullable(),
  /** Why a figure is null (uncapped, not exposed by the standard, …) or the venue takes nothing. */
  reason: z.string().nullable(),
});
export type VenueChainFacts = z.infer<typeof VenueChainFacts>;
