/**
 * What the readiness fields mean, wherever they appear (status, packages, venues, discovery):
 * one meaning per name, at the scope of the document that carries it. docs/discovery.md
 * ("Readiness") explains how they fit together; a test compares them with what a deposit plan
 * answers for every venue (apps/api/src/readiness.flow.test.ts).
 */
export const READINESS_DESCRIPTIONS = {
  /** A venue's catalog status: the same in every deployment. */
  catalogStatus:
    "The venue's catalog status, the same in every deployment: `vetted` = we take deposits there once the ids it needs are configured, `listed` = shown on the map, never enterable, `planned` = not yet integrated. It says nothing about this deployment's configuration (see `ready`, `depositable`).",
  /** The deprecated name of `catalogStatus`. */
  readiness:
    'Deprecated: read `catalogStatus` (the same status; `ready` here is `vetted` there). Kept with its meaning unchanged for existing clients: `ready` = vetted for deposits (not that this deployment can build plans: that is the boolean `ready`), `listed`, `planned`.',
  /** A venue's readiness in this deployment. */
  ready:
    "The venue's own configuration is complete: it is vetted (`catalogStatus: vetted`) and every on-chain id it needs is configured (`missingIds` is empty). Chain-wide settings (a router program, an RPC) are not part of it: `depositable` is the flag that says a deposit plan prepares here.",
  /** Whether a deposit plan prepares. */
  depositable:
    "A deposit plan prepares here (`status: prepared`) for a well-formed owner and an amount at least `minDepositMicros` within the owner's guardrails: the venue is `ready`, takes deposits, and every chain-wide setting its legs need is set. True on Map chains too (Base, Arbitrum): the owner signs and submits there, the service does not broadcast (`writeReady` false). A plan can still be `blocked` for the request itself or a chain that does not answer (`rpc_unavailable`). When false, `depositBlocker` is the blocker code the plan answers.",
  /** Whether a withdraw plan prepares. */
  redeemable:
    'As `depositable`, for withdraw plans: the venue takes withdrawals and its configuration is complete. The plan still needs something to withdraw (and, where receipts are burned, a chain read).',
  /** What a deposit plan is blocked by. */
  depositBlocker:
    "The blocker code a deposit plan answers here whatever the request (`venue_not_ready`: not vetted; `venue_not_configured`: a venue id is missing; `router_not_configured`: our router's ids on the chain; `rpc_unavailable`: the chain's RPC is not set); null when `depositable`.",
  /** Why a deposit plan is blocked, in words. */
  depositBlockedReason:
    'Why no deposit plan prepares here, naming the settings that would change it (`missingSettings`), the mainnet profile (`SVC_PROFILE=mainnet`, docs/profiles.md) and `pnpm demo`; null when `depositable`.',
  /** Every setting still missing. */
  missingSettings:
    "Every setting a plan here still needs, by its name: the venue's ids as `SVC_VENUE_IDS.<venueId>.<idName>`, then chain-wide settings (`SVC_SOLANA_PROGRAM_ID`, `SVC_SOLANA_RPC_URL`, …). Empty when the configuration is complete.",
  /** Whether writes can be built at a venue. */
  venueWriteReady:
    'The venue is `ready` and its chain has live write adapters (an Executable home: the service checks the owner-signed bytes, broadcasts behind the switches and settles from receipts). False on Map chains (Base, Arbitrum) even where deposit plans prepare: read `depositable` to know whether a plan prepares, `writeReady` to know whether the service executes beyond it.',
  /** Whether writes can be built on a chain. */
  chainWriteReady:
    "The service has live write adapters for this chain (it is an Executable home, not a Map): it checks owner-signed bytes, broadcasts behind the switches and settles from receipts. A property of the code and the chain, not of any venue: each venue is `writeReady` only when it is also `ready` (configured). Plans prepare on Map chains too (see a venue's `depositable`). Broadcasting is `broadcastEnabled`; real money needs `liveMoneyPath`.",
} as const;
