import { z } from 'zod';
import { Chain } from './chains';
import { Blocker } from './errors';
import { MicrosOut, MicrosString, PositiveMicrosString } from './money';

/**
 * A wallet in the chain's own format, or a free-form label (SPEC walkthrough). Chain-specific
 * validation happens where the chain is known.
 */
export const WalletAddress = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_.:-]+$/, { error: 'must be a wallet address or label of [A-Za-z0-9_.:-]' });

export const WalletParams = z.strictObject({ address: WalletAddress });
export const IdParams = z.strictObject({ id: z.string().min(1).max(128) });
export const AddressQuery = z.strictObject({ address: z.string().min(1).max(128) });
export const WalletQuery = z.strictObject({ wallet: WalletAddress });

/** Accepts `opportunityId`, or the deprecated `strategyId` (bare venue id or `form-<id>`). */
export const DepositPlanRequest = z.strictObject({
  strategyId: z.string().min(1).max(128),
  amountMicros: PositiveMicrosString,
  owner: z.string().min(1).max(128).optional(),
});
export type DepositPlanRequest = z.input<typeof DepositPlanRequest>;

export const WithdrawPlanRequest = DepositPlanRequest;

export const ExecuteRequest = z.strictObject({
  planId: z.string().min(1).max(128),
  signedTransaction: z
    .string()
    .min(1)
    .max(262144)
    .meta({ description: "Owner-signed transaction bytes in the chain's own encoding (base64)." }),
  signatures: z.array(z.string().max(1024)).max(16).optional(),
});

export const PreviewRequest = z.strictObject({
  amountMicros: PositiveMicrosString,
  stake: z.boolean().optional(),
  chain: Chain.optional(),
});

export const RouteRequest = z.strictObject({
  amountMicros: PositiveMicrosString,
  token: z.string().min(1).max(16),
  stake: z.boolean().optional(),
  chain: Chain,
});
export type RouteRequest = z.input<typeof RouteRequest>;

export const HarvestRequest = z
  .object({ execute: z.boolean().optional() })
  .meta({ description: 'Amounts in the body are ignored: yield is read from the venue on chain.' });

export const WithdrawRequest = z.strictObject({
  amountMicros: PositiveMicrosString,
  chain: Chain.optional(),
});

export const AutoPayRequest = z.strictObject({
  payees: z
    .array(z.strictObject({ address: z.string().min(1).max(128), shareBps: z.number().int() }))
    .min(1)
    .max(20),
  chain: Chain.optional(),
});

export const RebalanceRequest = z.strictObject({
  chain: Chain,
  fromOpportunityId: z.string().min(1).max(128),
  toOpportunityId: z.string().min(1).max(128),
  amountMicros: PositiveMicrosString.optional(),
});

export const AutoYieldSetting = z.strictObject({
  enabled: z.boolean(),
  opportunityId: z.string().min(1).max(128).optional(),
});

export const BatchPositionsRequest = z.strictObject({
  wallets: z.array(WalletAddress).min(1).max(50),
});

export const UnavailableReasonCode = z.enum([
  'rpc_not_configured',
  'rpc_timeout',
  'rpc_error',
  'rpc_bad_response',
  'asset_not_configured',
  'no_standard_reader',
]);

export const BalanceLeg = z
  .object({
    asset: z.string().meta({ examples: ['USDC'] }),
    decimals: z.number().int().min(0),
    status: z.enum(['ok', 'unavailable']),
    amount: z.string().regex(/^\d+$/).nullable().meta({
      description: 'Base units (micros for USDC); null when unavailable. Never invented.',
    }),
    display: z.string().meta({
      description: "Decimal amount for people, or 'N/A' when unavailable.",
      examples: ['12.5', 'N/A'],
    }),
    reason: UnavailableReasonCode.optional(),
    detail: z.string().optional(),
  })
  .meta({ description: 'One asset of a wallet; a failed RPC read is N/A with a reason.' });

export const WalletBalanceDocument = z.object({
  chain: Chain,
  address: z.string().meta({ description: "The address in the chain's canonical form." }),
  complete: z.boolean().meta({ description: 'False when at least one leg is N/A.' }),
  legs: z.array(BalanceLeg),
  asOf: z.string(),
});
export type WalletBalanceDocument = z.infer<typeof WalletBalanceDocument>;

export const PlanDocument = z
  .looseObject({
    planId: z.string().optional(),
    status: z.enum(['prepared', 'blocked']),
    submitted: z.boolean(),
    ownerMustSign: z.boolean(),
    feeMicros: MicrosOut,
    strategyId: z.string().optional(),
    amountMicros: MicrosOut.optional(),
    blockers: z.array(Blocker).optional(),
  })
  .meta({ description: 'A prepared or blocked plan.' });

export const PositionDocument = z.looseObject({
  wallet: z.string(),
  liquidMicros: MicrosOut,
  stakedMicros: MicrosOut,
});

export const HarvestResult = z.looseObject({
  mode: z.string(),
  outcome: z.string(),
  reason: z.string().optional(),
  grossYieldMicros: MicrosOut,
  protocolFeeMicros: MicrosOut,
  prepared: z.boolean().optional(),
  httpStatus: z.number().int(),
});

export const SwapPlanRequest = z.strictObject({
  inputAsset: z.string().min(1).max(128),
  outputAsset: z.string().min(1).max(128),
  amountInMicros: PositiveMicrosString,
  owner: z.string().min(1).max(128),
  slippageBps: z.number().int().optional(),
});

export const EvmSwapPlanRequest = SwapPlanRequest.extend({ chain: z.enum(['base', 'arbitrum']) });

export const GasSponsorRequest = z.strictObject({
  chain: Chain,
  owner: z.string().min(1).max(128),
  action: z.enum(['deposit', 'withdraw', 'swap', 'bridge']),
});

export const BridgePlanRequest = z.strictObject({
  sourceChain: Chain,
  destChain: Chain,
  amountMicros: PositiveMicrosString,
  sourceAddress: z.string().min(1).max(128),
  destAddress: z.string().min(1).max(128),
});

export const BridgeDeliveryRequest = z.strictObject({
  planId: z.string().min(1).max(128),
  destTxId: z.string().min(1).max(256),
});

export const BridgeRescueRequest = z.strictObject({ planId: z.string().min(1).max(128) });

export const EstimateQuery = z.strictObject({
  opportunityId: z.string().min(1).max(128).optional(),
  amountMicros: MicrosString.optional(),
  days: z.coerce.number().int().min(1).max(3650).optional(),
});

export const EstimateRequest = z.strictObject({
  opportunityId: z.string().min(1).max(128),
  amountMicros: PositiveMicrosString,
  days: z.number().int().min(1).max(3650),
  apyBasis: z.enum(['live', 'mean30d']).optional(),
});

export const DiscoverRequest = z.strictObject({
  chain: Chain.optional(),
  protocol: z.string().min(1).max(64).optional(),
  asset: z.string().min(1).max(32).optional(),
  minApyBps: z.number().int().min(0).optional(),
  minTvlUsd: z.number().int().min(0).optional(),
  ready: z.boolean().optional(),
  sort: z.enum(['apy_desc', 'apy_asc', 'tvl_desc', 'priority']).optional(),
  limit: z.number().int().min(1).max(200).optional(),
});

export const AutoPayPlanRequest = z.strictObject({
  wallet: WalletAddress,
  payees: AutoPayRequest.shape.payees,
  chain: Chain,
});

export const AutopilotDecideRequest = z.strictObject({
  chain: Chain.optional(),
  dryRun: z.boolean().optional(),
});

export const WebhookCreateRequest = z.strictObject({
  url: z.string().url().max(2048),
  eventTypes: z.array(z.string().min(1).max(64)).min(1).max(7),
  description: z.string().max(256).optional(),
});

export const CageAction = z.enum(['ROUTE', 'EXIT', 'REBALANCE', 'HARVEST', 'COMPOUND', 'AUTOPAY']);

export const CagePrepareRequest = z.strictObject({
  wallet: WalletAddress,
  action: CageAction,
  amountMicros: PositiveMicrosString.optional(),
});

export const CagePolicyRequest = z.strictObject({
  allowedActions: z.array(CageAction).min(1).max(6),
  payees: z.array(z.string().min(1).max(128)).max(20).optional(),
});

export const SettleLegRequest = z.strictObject({
  txId: z.string().min(1).max(256),
});

export const HarvestBatchRequest = z.strictObject({
  chain: Chain.optional(),
  pageSize: z.number().int().min(1).max(500).optional(),
});

/** Response of a route whose shape is defined when its handler lands. */
export const OpenDocument = z.looseObject({});
