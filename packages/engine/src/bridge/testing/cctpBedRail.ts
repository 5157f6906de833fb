// Test support: the CCTP rail on the CCTP bed (two anvils standing for Base and Arbitrum, the
// CCTP v2 stand-ins on both, the Iris fake), and legs signed and sent on one of the anvils.
import { createPublicClient, createWalletClient, http } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { UnsignedLeg } from '@yieldrouter/schemas';
import { anvilChain } from '@yieldrouter/chain-beds/evm';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import type { CctpBed } from '@yieldrouter/chain-beds/bridges';
import type { BridgeRail } from '../bridgeRail';
import { parseCctpSettings } from '../cctpSettings';
import { createCctpRail } from '../createCctpRail';

/** The rail on `cctp`, Base ↔ Arbitrum (no Solana or Sui side). */
export function cctpBedRail(cctp: CctpBed): BridgeRail {
  const { base, arbitrum, iris } = cctp;
  const { base: onBase, arbitrum: onArbitrum } = cctp.contracts;
  return createCctpRail({
    bridges: parseCctpSettings({
      SVC_CCTP_ATTESTATION_URL: iris.url,
      SVC_CCTP_TIMEOUT_MS: 2_000,
      SVC_BASE_CCTP_TOKEN_MESSENGER: onBase.tokenMessenger,
      SVC_BASE_CCTP_MESSAGE_TRANSMITTER: onBase.messageTransmitter,
      SVC_ARBITRUM_CCTP_TOKEN_MESSENGER: onArbitrum.tokenMessenger,
      SVC_ARBITRUM_CCTP_MESSAGE_TRANSMITTER: onArbitrum.messageTransmitter,
      SVC_BRIDGE_MIN_MICROS: 1_000_000n,
      SVC_CCTP_MINT_LOOKBACK_BLOCKS: 10_000n,
    }),
    chains: {
      timeoutMs: 2_000,
      sui: { rpcUrl: undefined, network: 'localnet', usdc: '0x2::usdc::USDC' },
      solana: {
        rpcUrl: undefined,
        network: 'localnet',
        usdc: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      },
      base: { rpcUrl: base.anvil.rpcUrl, usdc: base.fixtures.usdc },
      arbitrum: { rpcUrl: arbitrum.anvil.rpcUrl, usdc: arbitrum.fixtures.usdc },
    },
  });
}

/** A reader of `bed` (chain `chainId`) and a wallet of `key` on it. */
export const bedClients = (bed: EvmBed, chainId: number, key: Hex) => ({
  reader: createPublicClient({
    chain: anvilChain(chainId, bed.anvil.rpcUrl),
    transport: http(bed.anvil.rpcUrl),
  }),
  wallet: createWalletClient({
    chain: anvilChain(chainId, bed.anvil.rpcUrl),
    transport: http(bed.anvil.rpcUrl),
    account: privateKeyToAccount(key),
  }),
});

/** Signs and sends each leg in order with `key`; the last leg's hash, mined (throws on a revert). */
export async function sendLegs(
  bed: EvmBed,
  chainId: number,
  legs: readonly UnsignedLeg[],
  key: Hex,
): Promise<Hex> {
  const { reader, wallet } = bedClients(bed, chainId, key);
  let last: Hex | undefined;
  for (const leg of legs) {
    if (leg.payload.encoding !== 'evm-transaction-request') throw new Error('not an EVM leg');
    const tx = leg.payload.transaction as { to: Address; data: Hex };
    last = await wallet.sendTransaction({ to: tx.to, data: tx.data, gas: 1_000_000n });
    const receipt = await reader.waitForTransactionReceipt({ hash: last, pollingInterval: 20 });
    if (receipt.status !== 'success') throw new Error(`${leg.action} reverted`);
  }
  if (!last) throw new Error('no legs');
  return last;
}
