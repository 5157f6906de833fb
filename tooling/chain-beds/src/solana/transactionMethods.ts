import { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { RPC_ERROR, SolanaRpcError, invalidParams } from './rpcError';
import { configParam, pubkeyParam, stringParam } from './rpcParams';
import type { RpcMethods } from './rpcMethods';
import type { ExecutionOutcome, SolanaLedger } from './solanaLedger';
import { describeTransactionError } from './transactionErrorJson';
import { transactionJson, transactionMetaJson } from './transactionJson';

/** A transaction as sent over RPC (`base64` or `base58`), or the error a node answers. */
export function decodeWire(text: string, encoding: string): VersionedTransaction {
  const bytes =
    encoding === 'base64'
      ? Buffer.from(text, 'base64')
      : encoding === 'base58'
        ? bs58.decodeUnsafe(text)
        : undefined;
  if (!bytes) throw invalidParams(`unsupported or malformed ${encoding} transaction`);
  try {
    return VersionedTransaction.deserialize(bytes);
  } catch {
    throw new SolanaRpcError(
      RPC_ERROR.invalidParams,
      'failed to deserialize solana_transaction::versioned::VersionedTransaction',
    );
  }
}

/** The error a node answers for a transaction it will not land. */
function refusal(outcome: Extract<ExecutionOutcome, { landed: false }>): SolanaRpcError {
  if (outcome.err === 'SignatureFailure') {
    return new SolanaRpcError(
      RPC_ERROR.signatureVerificationFailure,
      'Transaction signature verification failure',
    );
  }
  return new SolanaRpcError(
    RPC_ERROR.simulationFailed,
    `Transaction simulation failed: ${describeTransactionError(outcome.err)}`,
    {
      err: outcome.err,
      logs: outcome.logs,
      accounts: null,
      unitsConsumed: Number(outcome.unitsConsumed),
      returnData: null,
    },
  );
}

/**
 * sendTransaction, getSignatureStatuses, getSignaturesForAddress (`limit`, `before`; static
 * account keys only: the bed has no lookup tables), getTransaction over the ledger. A transaction that
 * fails on chain (e.g. a token transfer over the balance) with `skipPreflight` lands and is
 * served with `meta.err`; with preflight it is refused (-32002) like a node does. Unlike a node,
 * a transaction that could never land (bad signature, stale blockhash) is refused even with
 * `skipPreflight`, so tests see why instead of waiting.
 */
export function transactionMethods(ledger: SolanaLedger, context: () => object): RpcMethods {
  return {
    sendTransaction: (params) => {
      const config = configParam(params, 1);
      const encoding = typeof config['encoding'] === 'string' ? config['encoding'] : 'base58';
      const transaction = decodeWire(stringParam(params, 0, 'transaction'), encoding);
      let outcome: ExecutionOutcome;
      try {
        outcome = ledger.execute(transaction, { preflight: config['skipPreflight'] !== true });
      } catch (error) {
        throw invalidParams(error instanceof Error ? error.message : String(error));
      }
      if (!outcome.landed) throw refusal(outcome);
      return outcome.entry.signature;
    },
    getSignatureStatuses: (params) => {
      const signatures = params[0];
      if (!Array.isArray(signatures)) throw invalidParams('signatures must be an array');
      const value = signatures.map((_, index) => {
        const entry = ledger.get(stringParam(signatures, index, 'signature'));
        if (!entry) return null;
        return {
          slot: Number(entry.slot),
          confirmations: null,
          err: entry.err,
          status: entry.err === null ? { Ok: null } : { Err: entry.err },
          confirmationStatus: 'finalized',
        };
      });
      return { context: context(), value };
    },
    getSignaturesForAddress: (params) => {
      const address = pubkeyParam(params, 0, 'address');
      const config = configParam(params, 1);
      const limit = config['limit'] ?? 1000;
      if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 1000) {
        throw invalidParams('limit must be an integer from 1 to 1000');
      }
      const before = config['before'];
      if (before !== undefined && typeof before !== 'string') {
        throw invalidParams('before must be a signature');
      }
      if (config['until'] !== undefined) throw invalidParams('the bed does not serve `until`');
      return ledger.signaturesFor(address, limit, before).map((entry) => ({
        signature: entry.signature,
        slot: Number(entry.slot),
        err: entry.err,
        memo: null,
        blockTime: entry.blockTime,
        confirmationStatus: 'finalized',
      }));
    },
    getTransaction: (params) => {
      const signature = stringParam(params, 0, 'signature');
      const config = configParam(params, 1);
      const entry = ledger.get(signature);
      if (!entry) return null;
      const maxVersion = config['maxSupportedTransactionVersion'];
      const version = entry.transaction.version;
      if (version === 0 && maxVersion === undefined) {
        throw new SolanaRpcError(
          RPC_ERROR.unsupportedTransactionVersion,
          'Transaction version (0) is not supported by the requesting client. Please try the ' +
            'request again with the following configuration parameter: ' +
            '"maxSupportedTransactionVersion": 0',
        );
      }
      const encoding = typeof config['encoding'] === 'string' ? config['encoding'] : 'json';
      const transaction =
        encoding === 'base64'
          ? [Buffer.from(entry.transaction.serialize()).toString('base64'), 'base64']
          : encoding === 'json'
            ? transactionJson(entry)
            : undefined;
      if (!transaction) throw invalidParams(`the bed serves getTransaction in json or base64`);
      return {
        slot: Number(entry.slot),
        blockTime: entry.blockTime,
        ...(maxVersion === undefined ? {} : { version }),
        transaction,
        meta: transactionMetaJson(entry),
      };
    },
  };
}
