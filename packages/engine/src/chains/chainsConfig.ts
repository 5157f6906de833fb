import type { Chain, ChainAdapter } from '@yieldrouter/schemas';

/** RPC endpoints and asset ids per chain. An RPC left unset reads as `rpc_not_configured`. */
export interface ChainsConfig {
  /** Upper bound on every RPC call, in milliseconds. */
  readonly timeoutMs: number;
  readonly sui: {
    readonly rpcUrl: string | undefined;
    readonly network: 'mainnet' | 'testnet' | 'devnet' | 'localnet';
    readonly usdc: string;
  };
  readonly solana: {
    readonly rpcUrl: string | undefined;
    /** The cluster `/svc/packages` names (`localnet` under `pnpm localnet`). */
    readonly network: 'mainnet-beta' | 'testnet' | 'devnet' | 'localnet';
    readonly usdc: string;
  };
  readonly base: { readonly rpcUrl: string | undefined; readonly usdc: string };
  readonly arbitrum: { readonly rpcUrl: string | undefined; readonly usdc: string };
}

/** One adapter per chain the service knows. */
export type ChainAdapters = Readonly<Record<Chain, ChainAdapter>>;
