import { FailedTransactionMetadata } from 'litesvm';
import type { LiteSVM } from 'litesvm';
import { accountJson } from './accountJson';
import { BLOCKHASH_VALIDITY_BLOCKS } from './clusterMethods';
import { toLiteSvmTransaction } from './liteSvmTransaction';
import { invalidParams } from './rpcError';
import { configParam, pubkeyParam, stringParam } from './rpcParams';
import type { RpcMethods } from './rpcMethods';
import type { BedAccount } from './svmAccounts';
import { readAccount } from './svmAccounts';
import { transactionErrorJson } from './transactionErrorJson';
import { decodeWire } from './transactionMethods';

/** The `accounts` config: which addresses to return after the run, and in what encoding. */
function accountsConfig(config: Record<string, unknown>) {
  const accounts = config['accounts'];
  if (accounts === undefined || accounts === null) return undefined;
  if (typeof accounts !== 'object' || Array.isArray(accounts)) {
    throw invalidParams('accounts must be an object');
  }
  const { addresses, encoding } = accounts as Record<string, unknown>;
  if (!Array.isArray(addresses)) throw invalidParams('accounts.addresses must be an array');
  const chosen = typeof encoding === 'string' ? encoding : 'base64';
  // As a node: base58 and binary are refused for simulated accounts (too slow to encode).
  if (chosen !== 'base64' && chosen !== 'jsonParsed') {
    throw invalidParams(`${chosen} encoding not supported`);
  }
  return {
    addresses: addresses.map((_, index) => pubkeyParam(addresses, index, 'accounts.addresses')),
    encoding: chosen,
  };
}

/**
 * `simulateTransaction` as a node answers it (JSON-RPC: `{context, value: {err, logs,
 * accounts, unitsConsumed, returnData, replacementBlockhash?}}`), run by litesvm without
 * committing: `sigVerify` (default false) checks signatures; `replaceRecentBlockhash` runs the
 * message with the latest blockhash (and reports it), so an unsigned leg prepared a while ago
 * still runs; both at once are refused, as a node does. `accounts.addresses` are returned as
 * they would be after the run (`null` for an account that does not exist then), in `base64` or
 * `jsonParsed`. A transaction that fails is a value with `err` and its logs, not an RPC error.
 */
export function simulateMethod(svm: LiteSVM, context: () => object): RpcMethods {
  return {
    simulateTransaction: (params) => {
      const config = configParam(params, 1);
      const encoding = typeof config['encoding'] === 'string' ? config['encoding'] : 'base58';
      const transaction = decodeWire(stringParam(params, 0, 'transaction'), encoding);
      const sigVerify = config['sigVerify'] === true;
      const replace = config['replaceRecentBlockhash'] === true;
      if (sigVerify && replace) {
        throw invalidParams('sigVerify may not be used with replaceRecentBlockhash');
      }
      const accounts = accountsConfig(config);
      if (transaction.message.addressTableLookups.length > 0) {
        throw invalidParams('the bed does not resolve address lookup tables');
      }
      const blockhash = svm.latestBlockhash();
      if (replace) transaction.message.recentBlockhash = blockhash;
      // The bed verifies signatures on everything it lands (startSolanaBed never turns it off).
      svm.withSigverify(sigVerify);
      let result;
      try {
        result = svm.simulateTransaction(toLiteSvmTransaction(transaction));
      } finally {
        svm.withSigverify(true);
      }
      const failure = result instanceof FailedTransactionMetadata ? result : undefined;
      const meta = result.meta();
      const post = new Map<string, BedAccount>();
      if (!(result instanceof FailedTransactionMetadata)) {
        for (const account of result.postAccounts()) {
          post.set(account.address, {
            address: account.address,
            lamports: BigInt(account.lamports),
            owner: account.programAddress,
            data: new Uint8Array(account.data),
            executable: account.executable,
          });
        }
      }
      const accountAfter = (address: string) => {
        const account = post.get(address) ?? readAccount(svm, address);
        // An account closed by the run is returned with no lamports: a node reports it null.
        return account && account.lamports > 0n
          ? accountJson(svm, account, accounts?.encoding ?? 'base64')
          : null;
      };
      return {
        context: context(),
        value: {
          err: failure ? transactionErrorJson(failure.err()) : null,
          logs: meta.logs(),
          accounts: accounts ? accounts.addresses.map(accountAfter) : null,
          unitsConsumed: Number(meta.computeUnitsConsumed()),
          returnData: null,
          ...(replace
            ? {
                replacementBlockhash: {
                  blockhash,
                  lastValidBlockHeight: Number(svm.getClock().slot + BLOCKHASH_VALIDITY_BLOCKS),
                },
              }
            : {}),
        },
      };
    },
  };
}
