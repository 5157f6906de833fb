// `@yieldrouter/sdk/verify`: the offline plan verifier, its own entry point so the core client
// does not carry it. Bundled from the internal @yieldrouter/verify package; it decodes legs with
// the chain SDKs the caller already has (viem, @solana/web3.js, @mysten/sui: optional peer
// dependencies, never bundled) and makes no network call.
export * from '@yieldrouter/verify';
