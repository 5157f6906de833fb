import { InvalidChainInputError, isPlanId } from '@yieldrouter/schemas';
import type { UnsignedLeg } from '@yieldrouter/schemas';
import { encodeFunctionData, isHex } from 'viem';
import { messageTransmitterV2Abi } from './cctpAbi';
import type { EvmContext } from './evmContext';
import { evmLeg } from './evmLeg';
import { normalizeEvmAddress } from './normalizeEvmAddress';

export interface BuildCctpMintParameters {
  readonly planId: string;
  /** Who signs the mint (the owner; anyone may relay a message with no destination caller). */
  readonly owner: string;
  /** What the mint is expected to credit, for the leg's amount. */
  readonly amountMicros: bigint;
  readonly messageTransmitter: string;
  /** The attested message and the attestation, as the attestation service returned them. */
  readonly message: string;
  readonly attestation: string;
  readonly summary: string;
}

/**
 * The mint side of a CCTP v2 transfer: `MessageTransmitterV2.receiveMessage(message,
 * attestation)` on the destination, from the owner, tagged with the plan. Offline.
 *
 * @throws InvalidChainInputError for a bad owner, transmitter, planId or non-hex message.
 * @example
 * buildCctpMint(context, { planId, owner, amountMicros, messageTransmitter, message, attestation, summary })
 */
export function buildCctpMint(
  context: EvmContext,
  parameters: BuildCctpMintParameters,
): UnsignedLeg {
  if (!isPlanId(parameters.planId)) {
    throw new InvalidChainInputError('planId', 'planId: must be plan_ + 32 hex');
  }
  const owner = normalizeEvmAddress(parameters.owner);
  const transmitter = normalizeEvmAddress(parameters.messageTransmitter);
  if (!owner || !transmitter) {
    throw new InvalidChainInputError('owner', 'owner, messageTransmitter: must be EVM addresses');
  }
  const { message, attestation } = parameters;
  if (!isHex(message, { strict: true }) || !isHex(attestation, { strict: true })) {
    throw new InvalidChainInputError('message', 'message, attestation: must be 0x-prefixed hex');
  }
  return evmLeg(
    context,
    { planId: parameters.planId, amountMicros: parameters.amountMicros },
    owner,
    {
      action: 'mint',
      to: transmitter,
      call: encodeFunctionData({
        abi: messageTransmitterV2Abi,
        functionName: 'receiveMessage',
        args: [message, attestation],
      }),
      summary: parameters.summary,
    },
  );
}
