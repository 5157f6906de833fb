import { ACCOUNT_SIZE, ASSOCIATED_TOKEN_PROGRAM_ID } from '@solana/spl-token';
import type { AddressLookupTableAccount, PublicKey, VersionedTransaction } from '@solana/web3.js';
import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { GasSizing, GasSizingQuery } from '@yieldrouter/schemas';
import { decodeSolanaWire } from './decodeSolanaWire';
import { SolanaBadResponseError, describeRpcFailure, rpcNotConfigured } from './describeRpcFailure';
import { parsePublicKey } from './parsePublicKey';
import type { SolanaContext } from './solanaContext';

export type SizeSolanaGasParameters = GasSizingQuery;
export type SizeSolanaGasReturnType = GasSizing;

/** The associated token program's instructions that create an account: Create, CreateIdempotent. */
const CREATES_ACCOUNT = new Set([0, 1]);

/** Account keys of a message, its lookup tables resolved (static keys first, as the runtime). */
export async function accountKeysOf(context: SolanaContext, transaction: VersionedTransaction) {
  const message = transaction.message;
  if (message.addressTableLookups.length === 0) return message.getAccountKeys();
  if (context.rpc.status !== 'ok') throw new Error(context.rpc.detail);
  const tables: AddressLookupTableAccount[] = [];
  for (const lookup of message.addressTableLookups) {
    const table = (await context.rpc.connection.getAddressLookupTable(lookup.accountKey)).value;
    if (!table) {
      throw new SolanaBadResponseError(
        `address lookup table ${lookup.accountKey.toBase58()} does not exist`,
      );
    }
    tables.push(table);
  }
  return message.getAccountKeys({ addressLookupTableAccounts: tables });
}

/** The associated token accounts a leg's instructions create (index 1 of Create[Idempotent]). */
async function createdTokenAccounts(
  context: SolanaContext,
  transaction: VersionedTransaction,
): Promise<PublicKey[]> {
  const keys = await accountKeysOf(context, transaction);
  return transaction.message.compiledInstructions.flatMap((instruction) => {
    const program = keys.get(instruction.programIdIndex);
    const kind = instruction.data.length === 0 ? 0 : instruction.data[0];
    if (!program?.equals(ASSOCIATED_TOKEN_PROGRAM_ID) || !CREATES_ACCOUNT.has(kind ?? -1)) {
      return [];
    }
    const account = keys.get(instruction.accountKeyIndexes[1] ?? -1);
    return account ? [account] : [];
  });
}

/**
 * The lamports `owner` needs for a plan's unsigned Solana legs, fail-closed: Σ
 * `getFeeForMessage` of each leg's message (the base fee per signature plus its priority fee;
 * asked with the latest blockhash in place of the leg's, so a leg prepared a while ago is still
 * priced — the fee does not depend on the blockhash), plus the rent-exempt minimum of a token
 * account (`getMinimumBalanceForRentExemption(165)`) for each associated token account a leg
 * creates (Create / CreateIdempotent) that does not exist yet (`getMultipleAccounts`; each
 * counted once), and the wallet's lamports (`getBalance`). Not counted: lamports a leg's own
 * instructions send (system transfers), rent of accounts other programs create. No RPC, an RPC
 * that fails or answers a null fee, an unresolvable lookup table → `unavailable`.
 *
 * @throws InvalidChainInputError for an owner that is not a Solana key, a leg that is not a
 *   base64 Solana transaction, or EVM calls.
 * @example
 * await sizeSolanaGas(context, { owner, transactions: [leg.payload.transaction] })
 * // { status: 'ok', nativeRequired: 2_044_280n, nativeHeld, solana: { legFees: [5000n], … } }
 */
export async function sizeSolanaGas(
  context: SolanaContext,
  query: SizeSolanaGasParameters,
): Promise<SizeSolanaGasReturnType> {
  const owner = parsePublicKey(query.owner);
  if (!owner) throw new InvalidChainInputError('owner', 'owner: not a base58 Solana public key');
  if (!query.transactions) {
    throw new InvalidChainInputError('calls', 'calls: Solana sizes a plan’s legs, not EVM calls');
  }
  const transactions = query.transactions.map((text) => decodeSolanaWire(text).transaction);
  const what = `Solana gas of ${transactions.length} leg(s) of ${owner.toBase58()}`;
  if (context.rpc.status !== 'ok') return rpcNotConfigured(what, context.rpc.detail);
  const connection = context.rpc.connection;
  try {
    const { blockhash } = (await connection.getLatestBlockhashAndContext('confirmed')).value;
    const legFees: bigint[] = [];
    const created = new Map<string, PublicKey>();
    for (const [index, transaction] of transactions.entries()) {
      const message = transaction.message;
      message.recentBlockhash = blockhash;
      const fee = (await connection.getFeeForMessage(message, 'confirmed')).value;
      if (fee === null || !Number.isSafeInteger(fee) || fee < 0) {
        return {
          status: 'unavailable',
          reason: 'rpc_bad_response',
          detail: `${what}: the RPC gave no fee for leg ${index}`,
        };
      }
      legFees.push(BigInt(fee));
      for (const account of await createdTokenAccounts(context, transaction)) {
        created.set(account.toBase58(), account);
      }
    }
    const candidates = [...created.values()];
    const [existing, rent, held] = await Promise.all([
      candidates.length > 0 ? connection.getMultipleAccountsInfo(candidates) : [],
      connection.getMinimumBalanceForRentExemption(ACCOUNT_SIZE),
      connection.getBalance(owner),
    ]);
    if (existing.length !== candidates.length) {
      throw new SolanaBadResponseError('getMultipleAccounts answered another number of accounts');
    }
    const accountsCreated = candidates
      .filter((_, index) => existing[index] === null)
      .map((account) => account.toBase58());
    const rentPerAccount = BigInt(rent);
    const fees = legFees.reduce((total, fee) => total + fee, 0n);
    return {
      status: 'ok',
      nativeRequired: fees + rentPerAccount * BigInt(accountsCreated.length),
      nativeHeld: BigInt(held),
      solana: { legFees, rentPerAccount, accountsCreated },
    };
  } catch (error) {
    return describeRpcFailure(error, what);
  }
}
