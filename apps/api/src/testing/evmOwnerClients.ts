import { createPublicClient, createWalletClient, erc20Abi, http } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { anvilChain } from '@yieldrouter/chain-beds/evm';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';

/** An unsigned EVM leg as a plan document carries it. */
interface EvmLeg {
  readonly transaction?: unknown;
}

/**
 * An owner's clients on an anvil bed: a reader, the owner's wallet (an anvil key), a token
 * balance, and the legs of a plan signed and sent in order (anvil mines each at once).
 */
export function evmOwnerClients(bed: EvmBed, privateKey: Hex, chainId = 8453) {
  const chain = anvilChain(chainId, bed.anvil.rpcUrl);
  const reader = createPublicClient({ chain, transport: http(bed.anvil.rpcUrl) });
  const wallet = createWalletClient({
    chain,
    transport: http(bed.anvil.rpcUrl),
    account: privateKeyToAccount(privateKey),
  });
  return {
    reader,
    wallet,
    balanceOf: (token: Address, who: Address) =>
      reader.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [who],
      }),
    /** Each leg's transaction hash, in leg order; a reverted leg fails the call. */
    sendLegs: async (legs: readonly EvmLeg[]): Promise<Hex[]> => {
      const hashes: Hex[] = [];
      for (const leg of legs) {
        const tx = leg.transaction as { to: Address; data: Hex; value?: string };
        const hash = await wallet.sendTransaction({
          to: tx.to,
          data: tx.data,
          value: BigInt(tx.value ?? '0'),
          gas: 400_000n,
        });
        const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
        if (receipt.status !== 'success') throw new Error(`leg ${hashes.length} reverted`);
        hashes.push(hash);
      }
      return hashes;
    },
  };
}
