import { z } from 'zod';

/** Chains the service knows. Sui and Solana are Executable homes; Base and Arbitrum are Map. */
export const Chain = z.enum(['sui', 'solana', 'base', 'arbitrum']);
export type Chain = z.infer<typeof Chain>;

export const EXECUTABLE_CHAINS = ['sui', 'solana'] as const satisfies readonly Chain[];
export const MAP_CHAINS = ['base', 'arbitrum'] as const satisfies readonly Chain[];

/** Base and Arbitrum: discovery and prepare only, never broadcast. */
export const isMapChain = (chain: Chain): boolean =>
  (MAP_CHAINS as readonly Chain[]).includes(chain);

export const EVM_CHAIN_IDS = { base: 8453, arbitrum: 42161 } as const;

export const ExecutionMode = z.enum(['disabled', 'owner_sign_prepare', 'broadcast']);
export type ExecutionMode = z.infer<typeof ExecutionMode>;

/** Format checks for configured ids (adapters check addresses fully, checksums included). */
export const SuiObjectId = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, { error: 'must be 0x + 64 hex' });
export const SolanaPubkey = z
  .string()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, { error: 'must be a base58 public key' });
export const EvmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, { error: 'must be 0x + 40 hex' });
export const MoveCoinType = z
  .string()
  .regex(/^0x[0-9a-fA-F]{1,64}::[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*$/, {
    error: 'must be a Move coin type 0x<address>::<module>::<name>',
  });

const evmTxHash = z.string().regex(/^0x[0-9a-fA-F]{64}$/, { error: 'must be 0x + 64 hex' });

/**
 * On-chain ids of our own deployments, from configuration only. A missing id stays missing:
 * the package document reports it as null with a reason, and plans that need it are blocked.
 */
export const OnChainIds = z.object({
  sui: z.object({
    packageId: SuiObjectId.optional(),
    upgradeCapId: SuiObjectId.optional(),
    adapterRegistryId: SuiObjectId.optional(),
    yieldRouterId: SuiObjectId.optional(),
    protocolConfigId: SuiObjectId.optional(),
    testnetPackageId: SuiObjectId.optional(),
  }),
  solana: z.object({
    programId: SolanaPubkey.optional(),
    adapterRegistry: SolanaPubkey.optional(),
    yieldRouter: SolanaPubkey.optional(),
    upgradeAuthority: SolanaPubkey.optional(),
  }),
  base: z.object({ registryAddress: EvmAddress.optional(), deployTx: evmTxHash.optional() }),
  arbitrum: z.object({ registryAddress: EvmAddress.optional(), deployTx: evmTxHash.optional() }),
});
export type OnChainIds = z.infer<typeof OnChainIds>;

/** Per-chain switches. Map chains can never broadcast; env parsing refuses to turn it on. */
export const ChainSwitches = z.object({
  sui: z.object({ executionEnabled: z.boolean(), broadcastEnabled: z.boolean() }),
  solana: z.object({ executionEnabled: z.boolean(), broadcastEnabled: z.boolean() }),
  base: z.object({ executionEnabled: z.literal(false), broadcastEnabled: z.literal(false) }),
  arbitrum: z.object({ executionEnabled: z.literal(false), broadcastEnabled: z.literal(false) }),
});
export type ChainSwitches = z.infer<typeof ChainSwitches>;

/**
 * Circle's native USDC per chain (public facts, checked against Circle's published addresses).
 * Defaults only: configuration may override them (a local chain bed does). USDC has 6 decimals
 * everywhere, so one base unit is one micro.
 */
export const NATIVE_USDC = {
  sui: '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7::usdc::USDC',
  solana: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  base: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  arbitrum: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
} as const satisfies Record<Chain, string>;

export const USDC_DECIMALS = 6;
