/**
 * Configuration of the Solana adapter. Every on-chain id comes from here; a missing one blocks
 * the legs that need it (it is never invented).
 */
export interface SolanaAdapterConfig {
  /** JSON-RPC endpoint (http or https). Unset: reads are `rpc_not_configured`. */
  readonly rpcUrl: string | undefined;
  /** Upper bound on every RPC call, in milliseconds. */
  readonly timeoutMs: number;
  /** Whether `broadcast` may submit owner-signed transactions. */
  readonly broadcastEnabled: boolean;
  /** The USDC mint (base58). Unset: the USDC leg is `asset_not_configured`. */
  readonly usdcMint: string | undefined;
  /** Our router program id. */
  readonly programId: string | undefined;
  /** The router's state account; its USDC vault is the router's associated token account. */
  readonly yieldRouter: string | undefined;
  /** The adapter registry account of the router program. */
  readonly adapterRegistry: string | undefined;
}
