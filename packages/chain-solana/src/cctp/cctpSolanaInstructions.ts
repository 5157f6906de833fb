import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { SystemProgram, TransactionInstruction } from '@solana/web3.js';
import type { AccountMeta, PublicKey } from '@solana/web3.js';
import type { CctpSolanaPrograms } from './cctpSolanaPrograms';
import { cctpSolanaPdas } from './cctpSolanaPrograms';
import { readCctpV2Message } from './cctpSolanaMessage';

/** Anchor discriminators of the published v2 IDLs. */
export const DEPOSIT_FOR_BURN_DISCRIMINATOR = Uint8Array.from([215, 60, 61, 46, 114, 55, 128, 176]);
export const RECEIVE_MESSAGE_DISCRIMINATOR = Uint8Array.from([38, 144, 127, 225, 31, 225, 238, 25]);

/** `DepositForBurnParams` (repr C, borsh): what the burn asks of TokenMessengerMinterV2. */
export interface DepositForBurnParams {
  readonly amount: bigint;
  readonly destinationDomain: number;
  /** bytes32: an EVM address left-padded, a Sui address, a Solana token account. */
  readonly mintRecipient: Uint8Array;
  /** bytes32; all zeros lets anyone relay the mint. */
  readonly destinationCaller: Uint8Array;
  readonly maxFee: bigint;
  readonly minFinalityThreshold: number;
}

const DEPOSIT_DATA_LENGTH = 8 + 8 + 4 + 32 + 32 + 8 + 4;

const startsWith = (data: Uint8Array, prefix: Uint8Array) =>
  data.length >= prefix.length && prefix.every((byte, index) => data[index] === byte);

/** The instruction data of `deposit_for_burn`: discriminator + borsh `DepositForBurnParams`. */
export function encodeDepositForBurnData(params: DepositForBurnParams): Buffer {
  if (params.mintRecipient.length !== 32 || params.destinationCaller.length !== 32) {
    throw new Error('mintRecipient and destinationCaller must be 32 bytes');
  }
  const data = Buffer.alloc(DEPOSIT_DATA_LENGTH);
  data.set(DEPOSIT_FOR_BURN_DISCRIMINATOR, 0);
  data.writeBigUInt64LE(params.amount, 8);
  data.writeUInt32LE(params.destinationDomain, 16);
  data.set(params.mintRecipient, 20);
  data.set(params.destinationCaller, 52);
  data.writeBigUInt64LE(params.maxFee, 84);
  data.writeUInt32LE(params.minFinalityThreshold, 92);
  return data;
}

/** The params of a `deposit_for_burn` instruction's data; undefined for any other data. */
export function decodeDepositForBurnData(data: Uint8Array): DepositForBurnParams | undefined {
  if (data.length !== DEPOSIT_DATA_LENGTH || !startsWith(data, DEPOSIT_FOR_BURN_DISCRIMINATOR)) {
    return undefined;
  }
  const view = Buffer.from(data);
  return {
    amount: view.readBigUInt64LE(8),
    destinationDomain: view.readUInt32LE(16),
    mintRecipient: Uint8Array.from(view.subarray(20, 52)),
    destinationCaller: Uint8Array.from(view.subarray(52, 84)),
    maxFee: view.readBigUInt64LE(84),
    minFinalityThreshold: view.readUInt32LE(92),
  };
}

/** The instruction data of `receive_message`: discriminator + borsh `{message, attestation}`. */
export function encodeReceiveMessageData(message: Uint8Array, attestation: Uint8Array): Buffer {
  const data = Buffer.alloc(8 + 4 + message.length + 4 + attestation.length);
  data.set(RECEIVE_MESSAGE_DISCRIMINATOR, 0);
  data.writeUInt32LE(message.length, 8);
  data.set(message, 12);
  data.writeUInt32LE(attestation.length, 12 + message.length);
  data.set(attestation, 16 + message.length);
  return data;
}

/** The message of a `receive_message` instruction's data; undefined for any other data. */
export function decodeReceiveMessageData(data: Uint8Array): Uint8Array | undefined {
  if (data.length < 16 || !startsWith(data, RECEIVE_MESSAGE_DISCRIMINATOR)) return undefined;
  const view = Buffer.from(data);
  const length = view.readUInt32LE(8);
  if (12 + length + 4 > data.length) return undefined;
  return Uint8Array.from(view.subarray(12, 12 + length));
}

const meta = (pubkey: PublicKey, isWritable = false, isSigner = false): AccountMeta => ({
  pubkey,
  isSigner,
  isWritable,
});

export interface DepositForBurnInstructionParameters {
  readonly programs: CctpSolanaPrograms;
  readonly owner: PublicKey;
  readonly burnTokenAccount: PublicKey;
  readonly mint: PublicKey;
  /** A fresh key that signs for the MessageSent event account the burn creates. */
  readonly messageSentEventData: PublicKey;
  readonly params: DepositForBurnParams;
}

/**
 * TokenMessengerMinterV2 `deposit_for_burn` with the IDL's accounts in order (the owner pays the
 * event account's rent; `#[event_cpi]` appends the event authority and the program).
 *
 * @example
 * depositForBurnInstruction({ programs, owner, burnTokenAccount, mint, messageSentEventData, params })
 */
export function depositForBurnInstruction(
  parameters: DepositForBurnInstructionParameters,
): TransactionInstruction {
  const { programs, owner, mint } = parameters;
  const pdas = cctpSolanaPdas(programs);
  return new TransactionInstruction({
    programId: programs.tokenMessengerMinter,
    keys: [
      meta(owner, false, true),
      meta(owner, true, true),
      meta(pdas.senderAuthority()),
      meta(parameters.burnTokenAccount, true),
      meta(pdas.denylist(owner)),
      meta(pdas.messageTransmitter(), true),
      meta(pdas.tokenMessenger()),
      meta(pdas.remoteTokenMessenger(parameters.params.destinationDomain)),
      meta(pdas.tokenMinter()),
      meta(pdas.localToken(mint), true),
      meta(mint, true),
      meta(parameters.messageSentEventData, true, true),
      meta(programs.messageTransmitter),
      meta(programs.tokenMessengerMinter),
      meta(TOKEN_PROGRAM_ID),
      meta(SystemProgram.programId),
      meta(pdas.tokenMessengerEventAuthority()),
      meta(programs.tokenMessengerMinter),
    ],
    data: encodeDepositForBurnData(parameters.params),
  });
}

export interface ReceiveMessageInstructionParameters {
  readonly programs: CctpSolanaPrograms;
  /** Pays the used-nonce account and calls (no destination caller: anyone may). */
  readonly payer: PublicKey;
  readonly mint: PublicKey;
  /** The token account the burn named (the message's mintRecipient). */
  readonly recipientTokenAccount: PublicKey;
  /** TokenMessengerV2's fee recipient's USDC token account. */
  readonly feeRecipientTokenAccount: PublicKey;
  readonly message: Uint8Array;
  readonly attestation: Uint8Array;
}

/**
 * MessageTransmitterV2 `receive_message` with the IDL's accounts, then the receiver's
 * (TokenMessengerMinterV2 `handle_receive_*_message`) accounts as remaining accounts, the token
 * pair from the message's source domain and burn token, the used nonce from its nonce.
 *
 * @throws Error when `message` is not a v2 burn message.
 */
export function receiveMessageInstruction(
  parameters: ReceiveMessageInstructionParameters,
): TransactionInstruction {
  const { programs, payer, mint } = parameters;
  const fields = readCctpV2Message(parameters.message);
  if (!fields) throw new Error('message: not a CCTP v2 burn message');
  const pdas = cctpSolanaPdas(programs);
  return new TransactionInstruction({
    programId: programs.messageTransmitter,
    keys: [
      meta(payer, true, true),
      meta(payer, false, true),
      meta(pdas.transmitterAuthority()),
      meta(pdas.messageTransmitter()),
      meta(pdas.usedNonce(fields.nonce), true),
      meta(programs.tokenMessengerMinter),
      meta(SystemProgram.programId),
      meta(pdas.transmitterEventAuthority()),
      meta(programs.messageTransmitter),
      // remaining accounts: the receiver's
      meta(pdas.tokenMessenger()),
      meta(pdas.remoteTokenMessenger(fields.sourceDomain)),
      meta(pdas.tokenMinter(), true),
      meta(pdas.localToken(mint), true),
      meta(pdas.tokenPair(fields.sourceDomain, fields.burnToken)),
      meta(parameters.feeRecipientTokenAccount, true),
      meta(parameters.recipientTokenAccount, true),
      meta(pdas.custody(mint), true),
      meta(TOKEN_PROGRAM_ID),
      meta(pdas.tokenMessengerEventAuthority()),
      meta(programs.tokenMessengerMinter),
    ],
    data: encodeReceiveMessageData(parameters.message, parameters.attestation),
  });
}
