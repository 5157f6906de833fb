import type { PublicKey, VersionedTransaction } from '@solana/web3.js';
import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { LegSimulationQuery, LegSimulationReading } from '@yieldrouter/schemas';
import { decodeSolanaWire } from './decodeSolanaWire';
import { SolanaBadResponseError, describeRpcFailure, rpcNotConfigured } from './describeRpcFailure';
import { parsePublicKey } from './parsePublicKey';
import { decodeRouterFeeConfig } from './readRouterFeeConfig';
import { accountKeysOf } from './sizeSolanaGas';
import type { SolanaContext } from './solanaContext';
import { tokenAccountChanges, tokenAccountState } from './solanaTokenChanges';
import type { TokenAccountState } from './solanaTokenChanges';
import { associatedTokenAccount } from './tokenAccounts';

/** Every account a transaction may write (its lookup tables resolved), in key order. */
async function writableAccounts(
  context: SolanaContext,
  transaction: VersionedTransaction,
): Promise<PublicKey[]> {
  const keys = await accountKeysOf(context, transaction);
  const writable: PublicKey[] = [];
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys.get(index);
    if (key && transaction.message.isAccountWritable(index)) writable.push(key);
  }
  return writable;
}

/** The token accounts among `accounts` (address → state), from `owner`/`data` pairs. */
function tokenStates(
  addresses: readonly PublicKey[],
  accounts: readonly ({ owner: PublicKey | string; data: Uint8Array } | null)[],
): Map<string, TokenAccountState> {
  if (accounts.length !== addresses.length) {
    throw new SolanaBadResponseError('the RPC answered another number of accounts');
  }
  const states = new Map<string, TokenAccountState>();
  accounts.forEach((account, index) => {
    const state = account ? tokenAccountState(account.owner, account.data) : undefined;
    if (state) states.set((addresses[index] as PublicKey).toBase58(), state);
  });
  return states;
}

/**
 * The router's accounts a leg that calls the configured router touches: the treasury USDC
 * account the router pays a withdrawal's yield skim to inside the leg (the associated account of
 * the treasury its registry names; the router refuses any other), and the router's own PDA, the
 * holder of its vault (a route's deposit into the router pays it: the leg's destination, as the
 * router contract a leg calls is on EVM). Empty when the leg does not call the configured router;
 * no treasury while its registry names none.
 */
async function routerAccounts(
  context: SolanaContext,
  transaction: VersionedTransaction,
): Promise<{ treasury: string[]; venue: string[] }> {
  const none = { treasury: [], venue: [] };
  const program = parsePublicKey(context.config.programId ?? '');
  const registry = parsePublicKey(context.config.adapterRegistry ?? '');
  if (!program || !registry || !context.usdcMint || context.rpc.status !== 'ok') return none;
  const { message } = transaction;
  const keys = message.staticAccountKeys;
  const callsRouter = message.compiledInstructions.some((instruction) =>
    keys[instruction.programIdIndex]?.equals(program),
  );
  if (!callsRouter) return none;
  const router = parsePublicKey(context.config.yieldRouter ?? '');
  const venue = router ? [router.toBase58()] : [];
  const account = await context.rpc.connection.getAccountInfo(registry);
  if (!account) throw new SolanaBadResponseError('the adapter registry account does not exist');
  const fees = decodeRouterFeeConfig(account.data);
  return {
    treasury: fees ? [associatedTokenAccount(fees.treasury, context.usdcMint).toBase58()] : [],
    venue,
  };
}

/**
 * Simulates a plan's first unsigned Solana leg (issue 44) and reports what it does to every token
 * account it can write: their state before (`getMultipleAccounts`) and after
 * (`simulateTransaction` with `sigVerify: false`, `replaceRecentBlockhash: true` and the same
 * addresses in `accounts`, run at a slot no older than the read), per token account (`account`),
 * its owner (`holder`) and mint: USDC, a venue's receipt token, whatever the leg moves. A leg
 * the runtime refuses is `reverted` with the error and its last log line. Of several legs the
 * first is run and the others are `deferred`: a Solana node simulates one transaction on the
 * current state, and a later leg runs on what the earlier ones leave (the engine simulates it,
 * alone, once the leg before it settled). No RPC, or one that fails → `unavailable`.
 * A leg calling the router reports the treasury account its registry names (`treasury`: the
 * router pays a withdrawal's yield skim there inside the leg) and the router's PDA (`venue`: the
 * holder of the vault a route's deposit pays). Not reported: lamports (the fee, rent of created accounts) and a venue's own bookkeeping
 * outside token accounts (marginfi's shares in its account).
 *
 * @throws InvalidChainInputError for an owner that is not a Solana key or a leg that is not a
 *   base64 Solana transaction.
 */
export async function simulateSolanaLegs(
  context: SolanaContext,
  query: LegSimulationQuery,
): Promise<LegSimulationReading> {
  const owner = parsePublicKey(query.owner);
  if (!owner) throw new InvalidChainInputError('owner', 'owner: not a base58 Solana public key');
  const transactions = query.payloads.map((payload, index) => {
    if (payload.encoding !== 'solana-v0-base64') {
      throw new InvalidChainInputError(`legs.${index}`, `legs.${index}: not a Solana leg`);
    }
    return decodeSolanaWire(payload.transaction).transaction;
  });
  // Each later leg runs on what the one before leaves: deferred, simulated once it settled.
  const deferred = transactions.slice(1).map(() => ({ outcome: 'deferred' as const, changes: [] }));
  const transaction = transactions[0] as VersionedTransaction;
  const what = `simulation of a Solana leg of ${owner.toBase58()}`;
  if (context.rpc.status !== 'ok') return rpcNotConfigured(what, context.rpc.detail);
  const { connection } = context.rpc;
  try {
    const addresses = await writableAccounts(context, transaction);
    const pre = await connection.getMultipleAccountsInfoAndContext(addresses);
    const { context: ran, value } = await connection.simulateTransaction(transaction, {
      sigVerify: false,
      replaceRecentBlockhash: true,
      minContextSlot: pre.context.slot,
      accounts: { encoding: 'base64', addresses: addresses.map((key) => key.toBase58()) },
    });
    const block = String(ran.slot);
    const usdc = context.usdcMint?.toBase58() ?? null;
    if (value.err !== null) {
      const last = value.logs?.at(-1);
      const detail = `${JSON.stringify(value.err)}${last ? `: ${last}` : ''}`;
      return {
        status: 'ok',
        method: 'simulateTransaction',
        block,
        usdc,
        legs: [{ outcome: 'reverted', detail, changes: [] }, ...deferred],
      };
    }
    if (!value.accounts)
      throw new SolanaBadResponseError('simulateTransaction returned no accounts');
    const post = value.accounts.map((account) =>
      account ? { owner: account.owner, data: Buffer.from(account.data[0] ?? '', 'base64') } : null,
    );
    const changes = tokenAccountChanges(
      tokenStates(addresses, pre.value),
      tokenStates(addresses, post),
    );
    const { treasury, venue } = await routerAccounts(context, transaction);
    return {
      status: 'ok',
      method: 'simulateTransaction',
      block,
      usdc,
      ...(treasury.length > 0 ? { treasury } : {}),
      ...(venue.length > 0 ? { venue } : {}),
      legs: [{ outcome: 'ok', changes }, ...deferred],
    };
  } catch (error) {
    return describeRpcFailure(error, what);
  }
}
