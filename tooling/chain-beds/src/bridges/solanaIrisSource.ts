import { Connection, PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';
import type { Hex } from 'viem';
import type { IrisFakeSource } from './startIrisFake';

export interface SolanaIrisSourceParameters {
  /** The bed's JSON-RPC endpoint. */
  readonly rpcUrl: string;
  /** TokenMessengerMinterV2's program id (base58): whose `deposit_for_burn`s are read. */
  readonly tokenMessengerMinter: string;
  /** Solana's CCTP domain (5). */
  readonly domain?: number;
}

// Anchor discriminators: `global:deposit_for_burn` and `account:MessageSent`.
const DEPOSIT_FOR_BURN = Buffer.from([215, 60, 61, 46, 114, 55, 128, 176]);
const MESSAGE_SENT = Buffer.from([131, 100, 133, 56, 166, 225, 151, 60]);
/** `deposit_for_burn`'s accounts: the 12th is the MessageSent event account. */
const EVENT_ACCOUNT_INDEX = 11;
// MessageSent: discriminator, rent payer, created_at (i64), message (u32 LE length + bytes).
const MESSAGE_LENGTH_AT = 48;

const startsWith = (data: Uint8Array, prefix: Buffer) =>
  data.length >= prefix.length && Buffer.from(data.subarray(0, prefix.length)).equals(prefix);

/**
 * Solana as a source of the Iris fake, as Circle's service reads it: the transaction (by its
 * base58 signature) from the bed's RPC, each TokenMessengerMinterV2 `deposit_for_burn` in it,
 * and the v2 message from the MessageSent account the burn wrote (the account's data, not the
 * instruction). A failed or unknown transaction sends nothing.
 *
 * @example
 * startIrisFake({ domains: [solanaIrisSource({ rpcUrl: bed.rpcUrl, tokenMessengerMinter })] })
 */
export function solanaIrisSource(parameters: SolanaIrisSourceParameters): IrisFakeSource {
  const connection = new Connection(parameters.rpcUrl, 'confirmed');
  const program = new PublicKey(parameters.tokenMessengerMinter);
  return {
    domain: parameters.domain ?? 5,
    isTxId: (txId) => bs58.decodeUnsafe(txId)?.length === 64,
    async readMessages(txId) {
      const transaction = await connection.getTransaction(txId, {
        commitment: 'confirmed',
        maxSupportedTransactionVersion: 0,
      });
      if (!transaction || transaction.meta?.err !== null) return undefined;
      const keys = transaction.transaction.message.getAccountKeys({
        accountKeysFromLookups: transaction.meta.loadedAddresses ?? null,
      });
      const events = transaction.transaction.message.compiledInstructions
        .filter((instruction) => keys.get(instruction.programIdIndex)?.equals(program))
        .filter((instruction) => startsWith(instruction.data, DEPOSIT_FOR_BURN))
        .map((instruction) => keys.get(instruction.accountKeyIndexes[EVENT_ACCOUNT_INDEX] ?? -1));
      const messages: Hex[] = [];
      for (const event of events) {
        if (!event) return undefined;
        const account = await connection.getAccountInfo(event, 'confirmed');
        if (!account || !startsWith(account.data, MESSAGE_SENT)) return undefined;
        const data = Buffer.from(account.data);
        const length = data.readUInt32LE(MESSAGE_LENGTH_AT);
        const message = data.subarray(MESSAGE_LENGTH_AT + 4, MESSAGE_LENGTH_AT + 4 + length);
        messages.push(`0x${message.toString('hex')}`);
      }
      return messages;
    },
  };
}
