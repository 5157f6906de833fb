import type { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { JsonRpcHTTPTransport, SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { Transaction } from '@mysten/sui/transactions';
import { cctpBedAttester } from '@yieldrouter/chain-beds/evm';
import { startSuiFake } from '@yieldrouter/chain-beds/sui';
import type { SuiFake, SuiFakeCctp } from '@yieldrouter/chain-beds/sui';

/** The Sui bed's USDC, and where the service's bridge fee goes on Sui. */
export const SUI_BED_USDC = `0x${'a1'.repeat(32)}::usdc::USDC`;
export const SUI_BRIDGE_FEE_RECIPIENT = `0x${'9b'.repeat(32)}`;
/** Where CCTP on the Sui fake mints a message's rail fee. */
export const SUI_CCTP_FEE_RECIPIENT = `0x${'fe'.repeat(32)}`;

/** The Sui fake running Circle's CCTP v2 packages, and what a test does with it. */
export interface SuiCctpFake {
  readonly sui: SuiFake;
  /** The packages; link remote domains with `cctp.addRemote` (or `linkCctpSolana`). */
  readonly cctp: SuiFakeCctp;
  /** A wallet's client of the Sui fake (resolves legs, executes, reads balances). */
  readonly client: SuiJsonRpcClient;
  /** The app's settings for Sui and its CCTP ids (SVC_SUI_*, SVC_CCTP_SUI_*). */
  readonly suiSettings: Record<string, string>;
  /** Resolves a Sui leg's transaction JSON as a wallet does, signs it with `wallet`, runs it. */
  executeSuiLeg(
    transaction: string,
    wallet: Ed25519Keypair,
  ): Promise<{ digest: string; ok: boolean }>;
  /** USDC micros `owner` holds on the Sui fake. */
  suiUsdcOf(owner: string): Promise<bigint>;
}

/**
 * Starts the Sui fake with Circle's CCTP v2 packages for `SUI_BED_USDC` (the bed attester
 * trusted, no remote domain yet: the caller links them) and a wallet's client of it.
 */
export async function startSuiCctpFake(): Promise<SuiCctpFake> {
  const sui = await startSuiFake();
  const cctp = sui.addCctp({
    usdcCoinType: SUI_BED_USDC,
    attester: cctpBedAttester().address,
    remotes: [],
    feeRecipient: SUI_CCTP_FEE_RECIPIENT,
  });
  const client = new SuiJsonRpcClient({
    network: 'localnet',
    transport: new JsonRpcHTTPTransport({ url: sui.rpcUrl }),
  });
  return {
    sui,
    cctp,
    client,
    suiSettings: {
      SVC_SUI_RPC_URL: sui.rpcUrl,
      SVC_SUI_NETWORK: 'localnet',
      SVC_SUI_USDC_COIN_TYPE: SUI_BED_USDC,
      SVC_SUI_BRIDGE_FEE_RECIPIENT: SUI_BRIDGE_FEE_RECIPIENT,
      SVC_CCTP_SUI_TOKEN_MESSENGER_MINTER_PACKAGE: cctp.tokenMessengerMinterPackage,
      SVC_CCTP_SUI_MESSAGE_TRANSMITTER_PACKAGE: cctp.messageTransmitterPackage,
      SVC_CCTP_SUI_STABLECOIN_HANDLER_PACKAGE: cctp.stablecoinHandlerPackage,
      SVC_CCTP_SUI_TOKEN_MESSENGER_MINTER_STATE: cctp.tokenMessengerMinterState.objectId,
      SVC_CCTP_SUI_MESSAGE_TRANSMITTER_STATE: cctp.messageTransmitterState.objectId,
      SVC_CCTP_SUI_STABLECOIN_HANDLER_STATE: cctp.stablecoinHandlerState.objectId,
      SVC_CCTP_SUI_USDC_TREASURY: cctp.usdcTreasury.objectId,
    },
    async executeSuiLeg(transaction, wallet) {
      const tx = Transaction.from(transaction);
      tx.setSender(wallet.toSuiAddress());
      tx.setGasPrice(sui.referenceGasPrice);
      tx.setGasBudget(20_000_000n);
      const bytes = await tx.build({ client });
      const { signature } = await wallet.signTransaction(bytes);
      const result = await client.executeTransactionBlock({
        transactionBlock: bytes,
        signature,
        options: { showEffects: true },
      });
      return { digest: result.digest, ok: result.effects?.status.status === 'success' };
    },
    suiUsdcOf: async (owner) =>
      BigInt((await client.getBalance({ owner, coinType: SUI_BED_USDC })).totalBalance),
  };
}
