import { createEvmAdapter } from '@yieldrouter/chain-evm';
import { newPlanId } from '@yieldrouter/schemas';
import type { LegBuild, Receipt, VenueOnChain } from '@yieldrouter/schemas';
import { createPublicClient, createWalletClient, http } from 'viem';
import type { Address, Hash, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { fundUsdc } from './fundUsdc';

/** A receipt that did not settle, in one line (its amounts are bigints). */
const oneLine = (receipt: Receipt) =>
  JSON.stringify(receipt, (_key, value: unknown) =>
    typeof value === 'bigint' ? value.toString() : value,
  );

export interface RunVenueLegsParameters {
  /** An anvil node: a fork of the chain, or a local bed (tests). */
  readonly rpcUrl: string;
  readonly chainId: number;
  readonly chain: 'base' | 'arbitrum';
  readonly usdc: Address;
  readonly venue: VenueOnChain;
  /** The owner's key: an anvil dev key (public: never fund it on a real chain). */
  readonly ownerKey: Hex;
  readonly amountMicros: bigint;
}

/** One venue's round trip: what each step answered. */
export interface VenueLegsOutcome {
  readonly venueId: string;
  readonly ok: boolean;
  readonly steps: readonly string[];
}

/**
 * The EVM venue legs as a user runs them, against real contracts on a fork: the adapter
 * prepares a deposit (approve + venue call), the owner signs and sends each leg with its key,
 * the receipt must settle `confirmed` with shares; the position is read; a withdrawal of what
 * those shares are worth is prepared, signed, sent and must settle too. USDC comes from
 * `fundUsdc` (anvil storage write). Never throws for a venue's refusal: the outcome says where
 * it stopped.
 *
 * @example
 * await runVenueLegs({ rpcUrl, chainId: 8453, chain: 'base', usdc, venue, ownerKey, amountMicros: 10_000_000n })
 * // { venueId: 'aave-v3', ok: true, steps: ['deposit confirmed: 10000000 micros, 9523… shares', …] }
 */
export async function runVenueLegs({
  rpcUrl,
  chainId,
  chain,
  usdc,
  venue,
  ownerKey,
  amountMicros,
}: RunVenueLegsParameters): Promise<VenueLegsOutcome> {
  const account = privateKeyToAccount(ownerKey);
  const owner = account.address;
  const transport = http(rpcUrl, { timeout: 60_000 });
  const chainDefinition = {
    id: chainId,
    name: chain,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  } as const;
  const reader = createPublicClient({ chain: chainDefinition, transport });
  const wallet = createWalletClient({ account, chain: chainDefinition, transport });
  const adapter = createEvmAdapter({
    chain,
    rpcUrl,
    timeoutMs: 60_000,
    usdcAddress: usdc,
    registryAddress: undefined,
  });
  const steps: string[] = [];
  const stop = (step: string): VenueLegsOutcome => ({
    venueId: venue.venueId,
    ok: false,
    steps: [...steps, step],
  });

  /** Signs and sends each prepared leg in order; the last hash is the leg that settles. */
  const send = async (build: LegBuild): Promise<Hash | string> => {
    if (build.status !== 'prepared') {
      return `blocked: ${build.blockers.map((blocker) => blocker.code).join(', ')}`;
    }
    let last: Hash | undefined;
    for (const leg of build.legs) {
      if (leg.payload.encoding !== 'evm-transaction-request') return 'not an EVM leg';
      const { to, data, value } = leg.payload.transaction;
      last = await wallet.sendTransaction({
        to: to as Address,
        data: data as Hex,
        value: BigInt(value),
      });
      const mined = await reader.waitForTransactionReceipt({ hash: last, pollingInterval: 50 });
      if (mined.status !== 'success') return `${leg.action} reverted (${last})`;
    }
    return last ?? 'no legs';
  };
  const settle = async (
    action: 'deposit' | 'withdraw',
    amount: bigint,
  ): Promise<Receipt | string> => {
    const request = {
      planId: newPlanId(),
      owner,
      amountMicros: amount,
      target: { kind: 'venue', venue },
    } as const;
    const build =
      action === 'deposit'
        ? await adapter.buildDeposit(request)
        : await adapter.buildWithdraw(request);
    const sent = await send(build);
    if (!/^0x[0-9a-f]{64}$/i.test(sent)) return sent;
    return adapter.readReceipt({ ...request, txId: sent, action });
  };

  await fundUsdc(reader, usdc, owner, amountMicros);
  steps.push(`funded ${owner} with ${amountMicros} USDC micros`);
  const deposit = await settle('deposit', amountMicros);
  if (typeof deposit === 'string' || deposit.status !== 'confirmed') {
    return stop(`deposit: ${typeof deposit === 'string' ? deposit : oneLine(deposit)}`);
  }
  steps.push(`deposit confirmed: ${deposit.amountMicros} micros, ${deposit.shares} shares`);
  if (deposit.shares === null) return stop('deposit: the receipt names no shares');
  const position = await adapter.readPosition(venue, owner, deposit.shares);
  if (position.status !== 'ok') return stop(`position: ${position.detail}`);
  steps.push(`position: ${position.ownerShares} shares worth ${position.sharesValueMicros} micros`);
  const withdraw = await settle('withdraw', position.sharesValueMicros);
  if (typeof withdraw === 'string' || withdraw.status !== 'confirmed') {
    return stop(`withdraw: ${typeof withdraw === 'string' ? withdraw : oneLine(withdraw)}`);
  }
  steps.push(`withdraw confirmed: ${withdraw.amountMicros} micros, ${withdraw.shares} shares`);
  return { venueId: venue.venueId, ok: true, steps };
}
