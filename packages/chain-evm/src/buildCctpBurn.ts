import { InvalidChainInputError, MAX_MICROS, isPlanId } from '@yieldrouter/schemas';
import type { UnsignedLeg } from '@yieldrouter/schemas';
import { encodeFunctionData, pad, zeroHash } from 'viem';
import { erc20Abi } from './abis';
import { tokenMessengerV2Abi } from './cctpAbi';
import type { EvmContext } from './evmContext';
import { evmLeg } from './evmLeg';
import { normalizeEvmAddress } from './normalizeEvmAddress';

export interface BuildCctpBurnParameters {
  readonly planId: string;
  readonly owner: string;
  /** USDC micros burned on this chain. */
  readonly amountMicros: bigint;
  /** The CCTP domain of the destination chain. */
  readonly destinationDomain: number;
  /** Who the destination mints to (an EVM address, padded to bytes32). */
  /** An EVM address (left-padded), or already the bytes32 a non-EVM destination names (0x + 64 hex). */
  readonly mintRecipient: string;
  readonly tokenMessenger: string;
  /** The most the rail may keep on the destination (fast transfers); 0 for standard. */
  readonly maxFeeMicros: bigint;
  /** 1000 (fast) or 2000 (standard, finalized). */
  readonly minFinalityThreshold: number;
  /** The owner's USDC allowance to the token messenger, read by the caller. */
  readonly allowance: bigint;
  /** The service's bridge fee, paid in USDC to its recipient before the burn (none when 0). */
  readonly serviceFee?: { readonly recipient: string; readonly amountMicros: bigint };
  readonly summaries: {
    readonly fee?: string;
    readonly approve: string;
    readonly burn: string;
  };
}

/**
 * The burn side of a CCTP v2 transfer: the service fee as a USDC `transfer` to its recipient
 * (when there is one), `usdc.approve(tokenMessenger, amount)` when the
 * allowance is short, then `TokenMessengerV2.depositForBurn(amount, destinationDomain,
 * mintRecipient, usdc, destinationCaller = 0 (anyone may relay), maxFee, minFinalityThreshold)`,
 * both from the owner, tagged with the plan. The fee transfer and the burn settle. Offline.
 *
 * @throws InvalidChainInputError for a bad amount, fee, owner, recipient or planId, or no USDC.
 * @example
 * buildCctpBurn(context, { planId, owner, amountMicros: 10_000_000n, destinationDomain: 3,
 *   mintRecipient: owner, tokenMessenger, maxFeeMicros: 0n, minFinalityThreshold: 2000,
 *   allowance: 0n, summaries }) // [approve, burn]
 */
export function buildCctpBurn(
  context: EvmContext,
  parameters: BuildCctpBurnParameters,
): UnsignedLeg[] {
  const { amountMicros, maxFeeMicros } = parameters;
  if (amountMicros <= 0n || amountMicros > MAX_MICROS) {
    throw new InvalidChainInputError('amountMicros', 'amountMicros: must be > 0 and <= 2^63 - 1');
  }
  if (maxFeeMicros < 0n || maxFeeMicros >= amountMicros) {
    throw new InvalidChainInputError('maxFeeMicros', 'maxFeeMicros: must be >= 0 and < amount');
  }
  if (!isPlanId(parameters.planId)) {
    throw new InvalidChainInputError('planId', 'planId: must be plan_ + 32 hex');
  }
  const owner = normalizeEvmAddress(parameters.owner);
  const bytes32 = /^0x[0-9a-fA-F]{64}$/.test(parameters.mintRecipient)
    ? (parameters.mintRecipient as `0x${string}`)
    : undefined;
  const evmRecipient = bytes32 ? undefined : normalizeEvmAddress(parameters.mintRecipient);
  const recipient = bytes32 ?? evmRecipient;
  const messenger = normalizeEvmAddress(parameters.tokenMessenger);
  if (!owner || !recipient || !messenger) {
    throw new InvalidChainInputError(
      'owner',
      'owner, mintRecipient, tokenMessenger: must be EVM addresses',
    );
  }
  if (!context.usdc) {
    throw new InvalidChainInputError('usdc', `no USDC is configured for ${context.label}`);
  }
  const request = { planId: parameters.planId, amountMicros };
  const legs: UnsignedLeg[] = [];
  const fee = parameters.serviceFee;
  if (fee && fee.amountMicros > 0n) {
    const recipient = normalizeEvmAddress(fee.recipient);
    if (!recipient)
      throw new InvalidChainInputError('serviceFee', 'serviceFee.recipient: not an address');
    legs.push({
      ...evmLeg(context, { ...request, amountMicros: fee.amountMicros }, owner, {
        action: 'transfer',
        to: context.usdc,
        call: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'transfer',
          args: [recipient, fee.amountMicros],
        }),
        summary: parameters.summaries.fee ?? `Pay the service's bridge fee`,
      }),
      // Settles: its receipt books what the owner paid the service (fees:protocol).
      settles: true,
    });
  }
  if (parameters.allowance < amountMicros) {
    legs.push(
      evmLeg(context, request, owner, {
        action: 'approve',
        to: context.usdc,
        call: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'approve',
          args: [messenger, amountMicros],
        }),
        summary: parameters.summaries.approve,
      }),
    );
  }
  legs.push(
    evmLeg(context, request, owner, {
      action: 'burn',
      to: messenger,
      call: encodeFunctionData({
        abi: tokenMessengerV2Abi,
        functionName: 'depositForBurn',
        args: [
          amountMicros,
          parameters.destinationDomain,
          bytes32 ?? pad(recipient as `0x${string}`, { size: 32 }),
          context.usdc,
          zeroHash,
          maxFeeMicros,
          parameters.minFinalityThreshold,
        ],
      }),
      summary: parameters.summaries.burn,
    }),
  );
  return legs;
}
