/**
 * What the readiness fields mean, wherever they appear (status, packages, venues, discovery):
 * one meaning per name, at the scope of the document that carries it.
 */
export const READINESS_DESCRIPTIONS = {
  /** A venue's catalog status: the same in every deployment. */
  readiness:
    "The venue's catalog status, the same in every deployment: `ready` = vetted for deposits (enterable once the on-chain ids it needs are configured: see `ready`), `listed` = shown on the map, never enterable, `planned` = not yet integrated. It says nothing about this deployment's configuration.",
  /** A venue's readiness in this deployment. */
  ready:
    'This deployment can build plans for the venue: its catalog `readiness` is `ready` and every on-chain id it needs is configured (`missingIds` is empty). `readiness: "ready"` with `ready: false` means configuration is missing, not that the venue is unvetted. It counts the venue\'s ids only: on Solana and Sui a plan also needs our router\'s ids, and is `blocked` with `router_not_configured` until they are set.',
  /** Whether writes can be built at a venue. */
  venueWriteReady:
    "Deposits and withdrawals can be prepared at this venue now: `ready` is true and the venue's chain is `writeReady`. A chain can be `writeReady` while none of its venues is (their ids are not configured).",
  /** Whether writes can be built on a chain. */
  chainWriteReady:
    'The service has live write adapters for this chain (it is an executable home, not a map): it can build transactions there. A property of the code and the chain, not of any venue: each venue is `writeReady` only when it is also `ready` (configured). Broadcasting is `broadcastEnabled`; real money needs `liveMoneyPath`.',
} as const;
