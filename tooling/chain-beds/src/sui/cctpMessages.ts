import { bytesToHex, concatHex, hexToBigInt, keccak256, numberToHex, sliceHex, toHex } from 'viem';
import type { Hex } from 'viem';
import { normalizeSuiAddress } from '@mysten/sui/utils';

// CCTP v2's wire formats as Circle's Sui packages (message_transmitter_v2::message,
// token_messenger_minter_v2::burn_message) write and read them; the same bytes as on EVM.

/** A CCTP v2 message (header) with its body. */
export interface CctpMessage {
  readonly version: number;
  readonly sourceDomain: number;
  readonly destinationDomain: number;
  readonly nonce: Hex;
  readonly sender: Hex;
  readonly recipient: Hex;
  readonly destinationCaller: Hex;
  readonly minFinalityThreshold: number;
  readonly finalityThresholdExecuted: number;
  readonly body: Hex;
}

/** A CCTP v2 burn message (the body a token messenger sends). */
export interface BurnMessage {
  readonly version: number;
  readonly burnToken: Hex;
  readonly mintRecipient: Hex;
  readonly amount: bigint;
  readonly messageSender: Hex;
  readonly maxFee: bigint;
  readonly feeExecuted: bigint;
  readonly expirationBlock: bigint;
  readonly hookData: Hex;
}

const HEADER = 148;
const BURN_HEADER = 228;
const u32 = (value: number) => numberToHex(value, { size: 4 });
const u256 = (value: bigint) => numberToHex(value, { size: 32 });
const word = (hex: Hex) => normalizeSuiAddress(hex) as Hex;

/** A Sui address (0x + 64 hex) as the 32 bytes a message carries. */
export const bytes32OfAddress = (address: string): Hex => word(address as Hex);

export function encodeMessage(message: CctpMessage): Hex {
  return concatHex([
    u32(message.version),
    u32(message.sourceDomain),
    u32(message.destinationDomain),
    word(message.nonce),
    word(message.sender),
    word(message.recipient),
    word(message.destinationCaller),
    u32(message.minFinalityThreshold),
    u32(message.finalityThresholdExecuted),
    message.body,
  ]);
}

/** The message's fields; undefined when it is shorter than a v2 header. */
export function decodeMessage(bytes: Uint8Array): CctpMessage | undefined {
  if (bytes.length < HEADER) return undefined;
  const hex = bytesToHex(bytes);
  const number = (start: number, end: number) => Number(hexToBigInt(sliceHex(hex, start, end)));
  return {
    version: number(0, 4),
    sourceDomain: number(4, 8),
    destinationDomain: number(8, 12),
    nonce: sliceHex(hex, 12, 44),
    sender: sliceHex(hex, 44, 76),
    recipient: sliceHex(hex, 76, 108),
    destinationCaller: sliceHex(hex, 108, 140),
    minFinalityThreshold: number(140, 144),
    finalityThresholdExecuted: number(144, 148),
    body: bytes.length > HEADER ? sliceHex(hex, HEADER) : '0x',
  };
}

export function encodeBurnMessage(burn: BurnMessage): Hex {
  return concatHex([
    u32(burn.version),
    word(burn.burnToken),
    word(burn.mintRecipient),
    u256(burn.amount),
    word(burn.messageSender),
    u256(burn.maxFee),
    u256(burn.feeExecuted),
    u256(burn.expirationBlock),
    burn.hookData,
  ]);
}

/** The burn message's fields; undefined when it is shorter than a v2 burn message. */
export function decodeBurnMessage(body: Hex): BurnMessage | undefined {
  if ((body.length - 2) / 2 < BURN_HEADER) return undefined;
  const big = (start: number, end: number) => hexToBigInt(sliceHex(body, start, end));
  return {
    version: Number(big(0, 4)),
    burnToken: sliceHex(body, 4, 36),
    mintRecipient: sliceHex(body, 36, 68),
    amount: big(68, 100),
    messageSender: sliceHex(body, 100, 132),
    maxFee: big(132, 164),
    feeExecuted: big(164, 196),
    expirationBlock: big(196, 228),
    hookData: (body.length - 2) / 2 > BURN_HEADER ? sliceHex(body, BURN_HEADER) : '0x',
  };
}

/**
 * keccak256 of a Move type's full name (`<64 hex>::module::Name`, no 0x), as an address: how
 * the packages name a token (`token_utils::calculate_token_id<T>`) and a caller
 * (`auth::auth_caller_identifier<Auth>`).
 */
export function typeNameHash(type: string): Hex {
  const [address = '', ...rest] = type.split('::');
  const full = `${normalizeSuiAddress(address).slice(2)}::${rest.join('::')}`;
  return keccak256(toHex(full));
}
