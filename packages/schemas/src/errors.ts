import { z } from 'zod';

/**
 * Every error code the API answers with. Renaming one is a breaking change (SPEC §Versioning);
 * adding one is not. The SPEC's casing is kept as published (`strategy_unknown` is lower case).
 */
export const ErrorCode = z.enum([
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'INVALID_API_KEY',
  'WALLET_SCOPE',
  'CHARACTER_SCOPE',
  'NOT_FOUND',
  'NOT_OFFERED',
  'strategy_unknown',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'MISSING_FORM_ID',
  'FORM_NOT_FOUND',
  'FORM_NOT_READY',
  'INSUFFICIENT_LIQUID',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_IN_PROGRESS',
  'SETTLEMENT_CONFLICT',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'NOT_IMPLEMENTED',
  'SERVICE_UNAVAILABLE',
  'DATABASE_UNAVAILABLE',
  'PLAN_NOT_FOUND',
  'KEY_MATERIAL_REFUSED',
  'SIGNED_TRANSACTION_MISMATCH',
  'BROADCAST_DISABLED',
  'BROADCAST_REJECTED',
  'WEBHOOK_LIMIT_REACHED',
  'RECEIPT_MISMATCH',
  'PLAN_NOT_CANCELLABLE',
  'PLAN_AMBIGUOUS',
  'AMOUNT_OUT_OF_RANGE',
  'AUTOPILOT_NOT_CONFIGURED',
  'AUTOPILOT_DISABLED',
  'AUTOPILOT_DECISION_NOT_FOUND',
  'INSUFFICIENT_STAKED',
  'CROSS_CHAIN_REBALANCE',
  'AUTO_PAY_OFF',
  'AUTO_PAY_NOTHING_PAYABLE',
  'AUTO_PAY_WOULD_TOUCH_PRINCIPAL',
  'AUTO_PAY_WITHDRAW_NOT_SETTLED',
  'BRIDGE_DESTINATION_NOT_OWNER',
  'BRIDGE_NOT_DELIVERABLE',
  'QUOTE_EXPIRED',
  'BRIDGE_NOT_FAILED',
  'BRIDGE_RESCUE_OWNER_ONLY',
  'RESCUE_DESTINATION_LOCKED',
  'BRIDGE_NOT_DELIVERED',
  'SWAP_NOT_SETTLED',
  'NATIVE_TOKEN_NOT_SWAPPABLE',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/**
 * How to tell the two kinds of code apart (GET /svc/errors `description`, docs/api.md): a rule the
 * codes follow, checked by a test; shipped codes are never renamed to fit it.
 */
export const CODE_RULE =
  'Two kinds of code. UPPER_SNAKE_CASE codes (BAD_REQUEST, RATE_LIMITED, …) are HTTP error codes: they come in an error body {code, message, requestId} with a 4xx or 5xx status. lower_snake_case codes (venue_not_ready, …) are blocker codes: they come in blockers[] of a plan answered 200 with status "blocked", never as an HTTP error. The one exception is strategy_unknown, an HTTP error code (404) in lower case as the SPEC published it; it is kept, since renaming a shipped code is a breaking change.';

/** Version of the error and blocker catalog served at GET /svc/errors. */
export const ERROR_CATALOG_VERSION = '1.0.0';

interface CatalogEntry {
  readonly status: number;
  readonly meaning: string;
}

/** Exhaustive code → HTTP status and meaning. */
export function describeErrorCode(code: ErrorCode): CatalogEntry {
  switch (code) {
    case 'BAD_REQUEST':
      return { status: 400, meaning: 'The request is malformed; the message names the field.' };
    case 'UNAUTHORIZED':
      return {
        status: 403,
        meaning: 'Wrong role for this route (403), or no X-API-Key on a keyed route (401).',
      };
    case 'INVALID_API_KEY':
      return { status: 401, meaning: 'The X-API-Key is unknown or revoked.' };
    case 'WALLET_SCOPE':
      return { status: 403, meaning: 'The key is not allowed for that wallet.' };
    case 'CHARACTER_SCOPE':
      return { status: 403, meaning: "The character's wallet is outside the key's scope." };
    case 'NOT_FOUND':
      return { status: 404, meaning: 'Unknown route or resource.' };
    case 'NOT_OFFERED':
      return {
        status: 404,
        meaning:
          "A peer service's route this API does not offer on purpose (wallet-created strategies, vaults, wallet profiles); the message names what to use instead.",
      };
    case 'strategy_unknown':
      return { status: 404, meaning: 'Unknown strategy id on the strategy lookup.' };
    case 'METHOD_NOT_ALLOWED':
      return { status: 405, meaning: 'The path exists but not with this method; see Allow.' };
    case 'PAYLOAD_TOO_LARGE':
      return { status: 413, meaning: 'The JSON body is over the size limit.' };
    case 'UNSUPPORTED_MEDIA_TYPE':
      return { status: 415, meaning: 'Request bodies must be application/json.' };
    case 'MISSING_FORM_ID':
      return { status: 400, meaning: 'A form id is required (legacy forms).' };
    case 'FORM_NOT_FOUND':
      return { status: 404, meaning: 'Unknown form id (legacy forms).' };
    case 'FORM_NOT_READY':
      return { status: 409, meaning: 'The form exists but its venue is not ready.' };
    case 'INSUFFICIENT_LIQUID':
      return { status: 422, meaning: 'The liquid balance is smaller than the amount asked.' };
    case 'IDEMPOTENCY_KEY_REUSED':
      return { status: 422, meaning: 'The Idempotency-Key was used with a different request.' };
    case 'IDEMPOTENCY_IN_PROGRESS':
      return { status: 409, meaning: 'A request with this Idempotency-Key is still running.' };
    case 'SETTLEMENT_CONFLICT':
      return {
        status: 409,
        meaning:
          'The leg already settled with another transaction, or the txId settled another leg.',
      };
    case 'RECEIPT_MISMATCH':
      return {
        status: 422,
        meaning:
          "The transaction is not this leg's (another owner, plan, venue or asset, or it moved nothing the leg expects). Nothing was recorded: the leg and the txId are untouched.",
      };
    case 'PLAN_NOT_CANCELLABLE':
      return {
        status: 409,
        meaning:
          'Only a prepared plan whose legs are all unsigned can be cancelled; a leg with a transaction settles or expires instead.',
      };
    case 'RATE_LIMITED':
      return { status: 429, meaning: 'Too many requests; wait for Retry-After seconds.' };
    case 'INTERNAL_ERROR':
      return { status: 500, meaning: 'Server error; nothing internal is disclosed.' };
    case 'NOT_IMPLEMENTED':
      return { status: 501, meaning: 'Declared in the manifest; its handler has not landed yet.' };
    case 'SERVICE_UNAVAILABLE':
      return { status: 503, meaning: 'A dependency (database, queue) is unavailable.' };
    case 'DATABASE_UNAVAILABLE':
      return {
        status: 503,
        meaning:
          'The database cannot be reached or dropped the connection (restart, failover); nothing was changed unless a retry with the same Idempotency-Key says so. Retry after Retry-After seconds.',
      };
    case 'PLAN_NOT_FOUND':
      return { status: 404, meaning: 'No plan with that id, or the plan has no such leg.' };
    case 'KEY_MATERIAL_REFUSED':
      return {
        status: 400,
        meaning:
          'The body carries what looks like a private key or seed phrase; only owner-signed bytes are accepted. Nothing of it is stored or logged.',
      };
    case 'SIGNED_TRANSACTION_MISMATCH':
      return {
        status: 400,
        meaning:
          "The signed transaction is not the plan leg's prepared transaction, fully signed by the plan owner.",
      };
    case 'BROADCAST_DISABLED':
      return {
        status: 422,
        meaning:
          'Server broadcast is off for the chain; the owner submits the signed transaction and settles the leg with its txId.',
      };
    case 'QUOTE_EXPIRED':
      return {
        status: 409,
        meaning:
          "The plan's swap quote is past its expiresAt: its price no longer holds. Nothing was " +
          'recorded; prepare a new plan.',
      };
    case 'BROADCAST_REJECTED':
      return {
        status: 422,
        meaning: 'The chain refused the signed transaction; nothing was recorded.',
      };
    case 'WEBHOOK_LIMIT_REACHED':
      return {
        status: 409,
        meaning: 'The key has the most webhook subscriptions allowed; delete one first.',
      };
    case 'AMOUNT_OUT_OF_RANGE':
      return {
        status: 422,
        meaning:
          'The amounts would take a ledger balance past 2^63 − 1 micros (the most the books ' +
          'hold); nothing was written.',
      };
    case 'AUTOPILOT_NOT_CONFIGURED':
      return {
        status: 409,
        meaning: 'The wallet has no autopilot policy yet: the owner enables it with a chain.',
      };
    case 'AUTOPILOT_DECISION_NOT_FOUND':
      return {
        status: 404,
        meaning:
          "No decision with this id in the wallet's autopilot history (another wallet's is not shown).",
      };
    case 'AUTOPILOT_DISABLED':
      return {
        status: 409,
        meaning: 'The autopilot is off for this wallet: a tick runs only while it is enabled.',
      };
    case 'INSUFFICIENT_STAKED':
      return {
        status: 422,
        meaning:
          'The staked balance in the opportunity is smaller than the amount asked; nothing was ' +
          'stored.',
      };
    case 'BRIDGE_DESTINATION_NOT_OWNER':
      return {
        status: 422,
        meaning:
          "A bridge delivers only to the owner: the destination must be the owner's own address " +
          '(on EVM chains, the same address as the source). Nothing was stored.',
      };
    case 'BRIDGE_NOT_DELIVERABLE':
      return {
        status: 409,
        meaning:
          'The bridge plan cannot take a delivery now: its burn has not settled, it was already ' +
          'delivered with another transaction, or it is not a bridge plan. Nothing was credited.',
      };
    case 'BRIDGE_NOT_FAILED':
      return {
        status: 409,
        meaning:
          'Only a failed bridge is rescued (its attestation did not come within the window, or ' +
          'its mint reverted); this one is awaiting its burn, in flight or delivered. Nothing was ' +
          'prepared or credited.',
      };
    case 'BRIDGE_RESCUE_OWNER_ONLY':
      return {
        status: 403,
        meaning:
          'Retired (issue 41): an agent key on bridge rescue is 403 UNAUTHORIZED, as for every ' +
          'route its role may not call. Kept in the catalog: a code is never renamed.',
      };
    case 'RESCUE_DESTINATION_LOCKED':
      return {
        status: 400,
        meaning:
          "A rescue pays the owner's address from the bridge plan's own record; a request naming " +
          'another destination or recipient is refused. Nothing was prepared or credited.',
      };
    case 'BRIDGE_NOT_DELIVERED':
      return {
        status: 409,
        meaning:
          "A cross-chain deposit's deposit legs wait for its bridge: they are sent and settle " +
          'only once the bridge is delivered and credited on the destination chain, for at least ' +
          'what they deposit (POST /svc/bridge/delivery). Nothing was sent or credited.',
      };
    case 'SWAP_NOT_SETTLED':
      return {
        status: 409,
        meaning:
          'A cross-chain deposit that swaps into USDC first bridges what its swap leg bought: the ' +
          "bridge's fee transfer and burn are sent and settle only once that swap leg settled. " +
          'Nothing was sent or recorded.',
      };
    case 'CROSS_CHAIN_REBALANCE':
      return {
        status: 422,
        meaning:
          'A rebalance stays on one chain: move the funds across chains with a bridge plan ' +
          '(POST /svc/bridge/plan), then deposit there. Nothing was stored.',
      };
    case 'PLAN_AMBIGUOUS':
      return {
        status: 409,
        meaning:
          'An execute without planId (strategyId, owner, amountMicros) matches several prepared ' +
          'plans; send planId.',
      };
    case 'AUTO_PAY_OFF':
      return {
        status: 422,
        meaning:
          'Auto-pay is not set, disabled, or under emergencyPause (PUT /wallets/{address}/auto-pay); nothing was prepared.',
      };
    case 'AUTO_PAY_NOTHING_PAYABLE':
      return {
        status: 422,
        meaning:
          'No harvested yield is payable now (none booked, below the threshold trigger, every payee under dust or at the daily cap); nothing was prepared.',
      };
    case 'AUTO_PAY_WOULD_TOUCH_PRINCIPAL':
      return {
        status: 422,
        meaning:
          'The payout is more than the position holds above its principal (a loss, or an exit took the yield); principal is never paid out, nothing was prepared.',
      };
    case 'NATIVE_TOKEN_NOT_SWAPPABLE':
      return {
        status: 400,
        meaning:
          "A route's token (a cross-asset deposit or route) names the chain's native token (SOL on Solana, ETH on Base and Arbitrum), which those plans do not wrap yet: name the wrapped token (WSOL, WETH); swap plans take it either way; native gas is bought with POST /svc/gas-sponsor/plan. The message names the field; nothing is stored.",
      };
    case 'AUTO_PAY_WITHDRAW_NOT_SETTLED':
      return {
        status: 409,
        meaning:
          "A transfer leg pays from the yield its plan's withdraw leg brings out: settle the withdraw leg first, then this one.",
      };
  }
}

/** HTTP status of an error code. */
export function codeToStatus(code: ErrorCode): number {
  return describeErrorCode(code).status;
}

/** Reasons a plan comes back `blocked`; published in the same catalog as error codes. */
export const BlockerCode = z.enum([
  'venue_unknown',
  'venue_not_ready',
  'chain_not_write_ready',
  'execution_disabled',
  'broadcast_disabled',
  'router_not_configured',
  'venue_not_configured',
  'asset_not_configured',
  'rpc_unavailable',
  'amount_below_minimum',
  'owner_missing',
  'owner_malformed',
  'nothing_staked',
  'no_yield',
  'yield_source_unavailable',
  'no_ready_venue',
  'bridge_not_available',
  'auto_yield_cap_reached',
  'quote_source_not_configured',
  'quote_unavailable',
  'quote_timeout',
  'no_route',
  'guardrail_chain_not_allowed',
  'guardrail_venue_not_allowed',
  'guardrail_max_allocation',
  'guardrail_max_per_opportunity',
  'guardrail_min_net_apy',
  'auto_pay_off',
  'auto_pay_nothing_payable',
  'auto_pay_would_touch_principal',
  'transfer_not_supported',
  'gas_estimate_unavailable',
  'bridge_lane_unsupported',
  'bridge_rail_not_configured',
  'bridge_rail_unavailable',
  'bridge_attestation_pending',
  'bridge_required',
]);
export type BlockerCode = z.infer<typeof BlockerCode>;

/** Exhaustive blocker code → meaning. */
export function describeBlockerCode(code: BlockerCode): string {
  switch (code) {
    case 'venue_unknown':
      return 'No venue with that id.';
    case 'venue_not_ready':
      return 'The venue is listed but not ready for deposits.';
    case 'chain_not_write_ready':
      return "The chain's write adapters are not ready (Map chains: Base, Arbitrum).";
    case 'execution_disabled':
      return 'Execution is switched off for this chain in this environment.';
    case 'broadcast_disabled':
      return 'Server broadcast is off for this chain; the owner submits the signed transaction.';
    case 'router_not_configured':
      return 'The on-chain router id for this chain is not configured.';
    case 'venue_not_configured':
      return 'An on-chain id the venue needs is not configured.';
    case 'asset_not_configured':
      return 'The asset is not configured on this chain.';
    case 'rpc_unavailable':
      return 'The chain RPC did not answer in time; nothing was invented.';
    case 'amount_below_minimum':
      return "The amount is below the venue's minimum.";
    case 'owner_missing':
      return 'An owner address is required to build the transaction.';
    case 'owner_malformed':
      return "The owner address is not valid in the chain's format.";
    case 'nothing_staked':
      return 'The wallet has nothing staked.';
    case 'no_yield':
      return 'The position has accrued no yield.';
    case 'yield_source_unavailable':
      return 'The venue position could not be read; gross is reported as 0 with a reason.';
    case 'no_ready_venue':
      return 'Route with stake: no ready venue on that chain (and no auto-yield venue set there).';
    case 'auto_yield_cap_reached':
      return (
        "The route would stake past the wallet's auto-yield maxStakeMicros: route less, route " +
        'without stake, or raise the cap (PUT /wallets/{address}/auto-yield).'
      );
    case 'quote_source_not_configured':
      return 'No swap quote source is configured for this chain; no price is made up.';
    case 'quote_unavailable':
      return 'The swap quote source failed or answered something unusable; no price is made up.';
    case 'quote_timeout':
      return 'The swap quote source did not answer in time; no price is made up.';
    case 'no_route':
      return 'The swap quote source has no route (no liquidity) for this pair and amount.';
    case 'guardrail_chain_not_allowed':
      return "The wallet's guardrails do not allow this chain (allowedChains).";
    case 'guardrail_venue_not_allowed':
      return "The opportunity is not on the wallet's guardrail allowlist (venueAllowlist).";
    case 'guardrail_max_allocation':
      return (
        "The move would put more of the wallet's staked principal on the chain into the " +
        'opportunity than its guardrail allows (maxAllocationBps).'
      );
    case 'guardrail_max_per_opportunity':
      return (
        'The move would take the staked amount in the opportunity past the guardrail ' +
        '(maxPerOpportunityMicros).'
      );
    case 'guardrail_min_net_apy':
      return (
        "The opportunity's net APY is unknown or below the guardrail (minNetApyBps); an unknown " +
        'APY never passes.'
      );
    case 'auto_pay_off':
      return 'Auto-pay is not set, disabled, or under emergencyPause.';
    case 'auto_pay_nothing_payable':
      return 'No harvested yield is payable now (none, below the threshold, dust or capped).';
    case 'auto_pay_would_touch_principal':
      return 'The payout is more than the position holds above its principal; principal is never paid.';
    case 'transfer_not_supported':
      // Every chain served builds transfer legs now; plans stored blocked before Sui did carry it.
      return "The chain's adapter builds no transfer legs.";
    case 'gas_estimate_unavailable':
      return (
        "The chain could not size the legs' gas (the estimate reverted, or the chain cannot " +
        'dry-run them here); no amount is made up.'
      );
    case 'bridge_lane_unsupported':
      return (
        'No rail runs this lane (source → destination chain) today; supportedLanes lists those ' +
        'that run.'
      );
    case 'bridge_rail_not_configured':
      return (
        "The rail's contracts or attestation service are not configured for this lane " +
        '(SVC_CCTP_*, SVC_<CHAIN>_CCTP_*).'
      );
    case 'bridge_rail_unavailable':
      return "The rail's fee or the source chain could not be read; nothing is guessed.";
    case 'bridge_attestation_pending':
      return (
        "The rail's attestation of the burn has not come (or its service cannot be read): the " +
        'rescue mint cannot be built yet; the amount stays in flight for the owner. Ask again.'
      );
    case 'bridge_required':
      return (
        "The funds are on another chain than the plan's: nothing bridges silently. Run the " +
        'bridge plan the details name (POST /api/v1/svc/bridge/plan with that body) first, or ' +
        'ask a deposit plan with `bridge: true` to bridge then deposit under one planId.'
      );
    case 'bridge_not_available':
      return (
        'A route stays on one chain (autoBridge is not offered): move the funds with a bridge ' +
        'plan (POST /svc/bridge/plan) first, then route on the destination chain.'
      );
  }
}

/** The error body every failing response carries. */
export const ErrorBody = z
  .object({
    code: ErrorCode,
    message: z.string(),
    requestId: z.string(),
    field: z.string().optional().meta({ description: 'The request field at fault, if any.' }),
  })
  .meta({ description: 'The body of every error response.' });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** A blocker on a blocked plan. */
export const Blocker = z.object({
  code: BlockerCode,
  message: z.string(),
  field: z.string().optional(),
  details: z.record(z.string(), z.string()).optional(),
});
export type Blocker = z.infer<typeof Blocker>;
