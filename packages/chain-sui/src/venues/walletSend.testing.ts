// Test helper (not exported from index.ts): what an owner's wallet does with a leg the adapter
// built in its unresolved JSON form on the Sui bed.
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { JsonRpcHTTPTransport, SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { Transaction } from '@mysten/sui/transactions';
import { startSuiFake } from '@yieldrouter/chain-beds/sui';
import type { SuiFake } from '@yieldrouter/chain-beds/sui';
import type { LegBuild, UnsignedLeg } from '@yieldrouter/schemas';
import { createSuiAdapter } from '../adapter';
import { WALLET_INTENTS } from '../legs';
import type { SuiChainAdapter } from '../adapter';
import { USDC, suiConfig } from '../testFixtures';

/** A fresh bed, a client of it and the adapter pointed at it. */
export async function startVenueBed(): Promise<{
  fake: SuiFake;
  client: SuiJsonRpcClient;
  adapter: SuiChainAdapter;
}> {
  const fake = await startSuiFake();
  const client = new SuiJsonRpcClient({
    network: 'localnet',
    transport: new JsonRpcHTTPTransport({ url: fake.rpcUrl }),
  });
  return { fake, client, adapter: createSuiAdapter(suiConfig({ rpcUrl: fake.rpcUrl })) };
}

/**
 * Registers a test file's hooks around one bed (`startVenueBed` before all, stopped after all);
 * its parts, for the tests to read once started.
 */
export function useVenueBed(): () => Awaited<ReturnType<typeof startVenueBed>> {
  let started: Awaited<ReturnType<typeof startVenueBed>> | undefined;
  beforeAll(async () => {
    started = await startVenueBed();
  });
  afterAll(() => started?.fake.stop());
  return () => {
    if (!started) throw new Error('the Sui bed is not started');
    return started;
  };
}

/** A new owner wallet holding 1 SUI and 50 USDC (`USDC` of testFixtures) on the bed. */
export function fundedWallet(fake: SuiFake): Ed25519Keypair {
  const wallet = new Ed25519Keypair();
  fake.setBalance(wallet.toSuiAddress(), '0x2::sui::SUI', 1_000_000_000n);
  fake.setBalance(wallet.toSuiAddress(), USDC, 50_000_000n);
  return wallet;
}

/** Resolves, signs and executes the leg's transaction as the owner's wallet would. */
export async function walletSend(
  fake: SuiFake,
  client: SuiJsonRpcClient,
  wallet: Ed25519Keypair,
  build: LegBuild,
) {
  if (build.status !== 'prepared') throw new Error(JSON.stringify(build));
  const payload = build.legs[0]?.payload;
  if (payload?.encoding !== 'sui-transaction-json') throw new Error('not json');
  const tx = Transaction.from(payload.transaction);
  tx.setGasPrice(fake.referenceGasPrice);
  tx.setGasBudget(10_000_000n);
  const bytes = await tx.build({ client });
  const { signature } = await wallet.signTransaction(bytes);
  const result = await client.executeTransactionBlock({
    transactionBlock: bytes,
    signature,
    options: { showEffects: true },
  });
  return { digest: result.digest, status: result.effects?.status.status, bytes };
}

/** `leg` with its payload swapped for `tx`, unresolved as the adapter serves legs (a cheat). */
export async function withTransaction(leg: UnsignedLeg, tx: Transaction): Promise<UnsignedLeg> {
  return {
    ...leg,
    payload: {
      encoding: 'sui-transaction-json',
      transaction: await tx.toJSON({ supportedIntents: WALLET_INTENTS }),
    },
  };
}
