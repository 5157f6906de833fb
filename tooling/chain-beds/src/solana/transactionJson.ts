import bs58 from 'bs58';
import type { LedgerEntry } from './solanaLedger';

/** The `transaction` field of `getTransaction` in `json` encoding. */
export function transactionJson(entry: LedgerEntry): object {
  const { transaction } = entry;
  const message = transaction.message;
  return {
    signatures: transaction.signatures.map((signature) => bs58.encode(signature)),
    message: {
      accountKeys: message.staticAccountKeys.map((key) => key.toBase58()),
      header: message.header,
      recentBlockhash: message.recentBlockhash,
      instructions: message.compiledInstructions.map((instruction) => ({
        programIdIndex: instruction.programIdIndex,
        accounts: instruction.accountKeyIndexes,
        data: bs58.encode(instruction.data),
        stackHeight: null,
      })),
      ...(transaction.version === 0 ? { addressTableLookups: [] } : {}),
    },
  };
}

/** The `meta` field of `getTransaction`: balances as numbers, as nodes send them. */
export function transactionMetaJson(entry: LedgerEntry): object {
  return {
    err: entry.err,
    status: entry.err === null ? { Ok: null } : { Err: entry.err },
    fee: Number(entry.fee),
    preBalances: entry.preBalances.map(Number),
    postBalances: entry.postBalances.map(Number),
    innerInstructions: [],
    logMessages: entry.logMessages,
    preTokenBalances: entry.preTokenBalances,
    postTokenBalances: entry.postTokenBalances,
    rewards: [],
    loadedAddresses: { writable: [], readonly: [] },
    computeUnitsConsumed: Number(entry.computeUnitsConsumed),
  };
}
