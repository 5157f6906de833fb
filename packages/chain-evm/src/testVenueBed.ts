// The venue tests' anvil bed and owner wallets (tests only; not exported from index.ts).
import { anvilChain, deployEvmFixtures, startAnvil } from '@yieldrouter/chain-beds/evm';
import type { AaveBedRevision, AnvilInstance, EvmFixtures } from '@yieldrouter/chain-beds/evm';
import { newPlanId } from '@yieldrouter/schemas';
import type { LegBuild, LegTarget, VenueOnChain } from '@yieldrouter/schemas';
import { createPublicClient, createWalletClient, http } from 'viem';
import type { Address, Hash, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createEvmAdapter } from './createEvmAdapter';
import type { EvmChainAdapter } from './createEvmAdapter';

const CHAIN_ID = 8453;

/** A Base-like anvil node with the bed contracts, our adapter on it, and its two venues. */
export interface TestVenueBed {
  readonly anvil: AnvilInstance;
  readonly fixtures: EvmFixtures;
  readonly adapter: EvmChainAdapter;
  readonly vault: VenueOnChain;
  readonly aave: VenueOnChain;
}

/**
 * Starts anvil and deploys the bed contracts, the Aave stand-in accounting as `aaveRevision`
 * (v3.5 by default); stop it with `bed.anvil.stop()`.
 */
export async function startTestVenueBed(aaveRevision?: AaveBedRevision): Promise<TestVenueBed> {
  const anvil = await startAnvil({ chainId: CHAIN_ID });
  const fixtures = await deployEvmFixtures({
    rpcUrl: anvil.rpcUrl,
    chainId: CHAIN_ID,
    ...(aaveRevision ? { aaveRevision } : {}),
  });
  const adapter = createEvmAdapter({
    chain: 'base',
    rpcUrl: anvil.rpcUrl,
    timeoutMs: 2_000,
    usdcAddress: fixtures.usdc,
    registryAddress: fixtures.registry,
  });
  return {
    anvil,
    fixtures,
    adapter,
    vault: {
      venueId: 'bed-vault',
      chain: 'base',
      standard: 'erc4626',
      ids: { vault: fixtures.vault },
    },
    aave: {
      venueId: 'bed-aave',
      chain: 'base',
      standard: 'aave-v3',
      ids: { pool: fixtures.aavePool, aToken: fixtures.aToken },
    },
  };
}

/**
 * The bed for a test file: started in `beforeAll`, stopped in `afterAll`; its fields are read
 * inside tests (they are set once the bed is up).
 */
export function useTestVenueBed(aaveRevision?: AaveBedRevision): TestVenueBed {
  const bed = {} as { -readonly [K in keyof TestVenueBed]: TestVenueBed[K] };
  beforeAll(async () => {
    Object.assign(bed, await startTestVenueBed(aaveRevision));
  });
  afterAll(() => bed.anvil?.stop());
  return bed;
}

/** The owner's wallet: anvil account `index`, signing locally as a real wallet would. */
export function ownerWallet(anvil: AnvilInstance, index: number) {
  const key = anvil.accounts[index]?.privateKey;
  if (!key) throw new Error(`no anvil account ${index}`);
  const account = privateKeyToAccount(key);
  const chain = anvilChain(CHAIN_ID, anvil.rpcUrl);
  const transport = http(anvil.rpcUrl);
  const wallet = createWalletClient({ account, chain, transport });
  const reader = createPublicClient({ chain, transport });
  /** A fixed gas limit skips estimation, so a reverting transaction is still mined. */
  const sendRaw = async (to: Address, data: Hex): Promise<Hash> => {
    const hash = await wallet.sendTransaction({ to, data, gas: 300_000n });
    await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    return hash;
  };
  return {
    address: account.address,
    sendRaw,
    /** Signs and sends each leg in order, as the owner's wallet would. */
    async send(build: LegBuild): Promise<Hash[]> {
      if (build.status !== 'prepared') {
        throw new Error(`blocked: ${JSON.stringify(build.blockers)}`);
      }
      const hashes: Hash[] = [];
      for (const leg of build.legs) {
        if (leg.payload.encoding !== 'evm-transaction-request') throw new Error('not EVM');
        const { to, data, from, chainId } = leg.payload.transaction;
        if (from !== account.address || chainId !== CHAIN_ID) {
          throw new Error(`leg for ${from} on ${chainId}, not ${account.address} on ${CHAIN_ID}`);
        }
        hashes.push(await sendRaw(to as Address, data as Hex));
      }
      return hashes;
    },
  };
}

/** A venue leg's target. */
export function venueTarget(venue: VenueOnChain): LegTarget {
  return { kind: 'venue', venue };
}

/** The last item (the leg that settles); throws on an empty list. */
export function last<T>(items: readonly T[]): T {
  const item = items[items.length - 1];
  if (item === undefined) throw new Error('empty');
  return item;
}

/** Builds `owner`'s venue leg, signs and sends it as their wallet would, then reads its receipt back. */
export async function settleVenueLeg(
  adapter: EvmChainAdapter,
  venue: VenueOnChain,
  owner: ReturnType<typeof ownerWallet>,
  action: 'deposit' | 'withdraw',
  amountMicros: bigint,
) {
  const request = {
    planId: newPlanId(),
    owner: owner.address,
    amountMicros,
    target: venueTarget(venue),
  };
  const build =
    action === 'deposit'
      ? await adapter.buildDeposit(request)
      : await adapter.buildWithdraw(request);
  const txId = last(await owner.send(build));
  return adapter.readReceipt({ ...request, txId, action });
}
