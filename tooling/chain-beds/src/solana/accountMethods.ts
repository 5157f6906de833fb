import type { LiteSVM } from 'litesvm';
import { accountJson } from './accountJson';
import { invalidParams } from './rpcError';
import { configParam, encodingOf, pubkeyParam } from './rpcParams';
import type { RpcMethods } from './rpcMethods';
import { TOKEN_PROGRAMS, decodeTokenAccount, uiTokenAmount } from './splAccounts';
import { readAccount, readProgramAccounts } from './svmAccounts';
import { mintDecimals } from './tokenBalances';

/**
 * Account reads: getBalance, getAccountInfo, getMultipleAccounts, getTokenAccountsByOwner,
 * getTokenAccountBalance, getTokenSupply. Values come from litesvm as it is now.
 */
export function accountMethods(svm: LiteSVM, context: () => object): RpcMethods {
  return {
    getBalance: (params) => {
      const account = readAccount(svm, pubkeyParam(params, 0, 'pubkey'));
      return { context: context(), value: Number(account?.lamports ?? 0n) };
    },
    getAccountInfo: (params) => {
      const account = readAccount(svm, pubkeyParam(params, 0, 'pubkey'));
      const encoding = encodingOf(configParam(params, 1), 'base58');
      return { context: context(), value: account ? accountJson(svm, account, encoding) : null };
    },
    getMultipleAccounts: (params) => {
      const keys = params[0];
      if (!Array.isArray(keys)) throw invalidParams('pubkeys must be an array');
      const encoding = encodingOf(configParam(params, 1), 'base58');
      const value = keys.map((_, index) => {
        const account = readAccount(svm, pubkeyParam(keys, index, 'pubkey'));
        return account ? accountJson(svm, account, encoding) : null;
      });
      return { context: context(), value };
    },
    getTokenAccountsByOwner: (params) => {
      const owner = pubkeyParam(params, 0, 'owner');
      const filter = configParam(params, 1);
      const encoding = encodingOf(configParam(params, 2), 'base58');
      const { program, mint } = tokenFilter(svm, filter);
      const value = readProgramAccounts(svm, program)
        .filter((account) => {
          const token = decodeTokenAccount(account);
          return token?.owner === owner && (mint === undefined || token.mint === mint);
        })
        .map((account) => ({
          pubkey: account.address,
          account: accountJson(svm, account, encoding),
        }));
      return { context: context(), value };
    },
    getTokenAccountBalance: (params) => {
      const account = readAccount(svm, pubkeyParam(params, 0, 'token account'));
      const token = account ? decodeTokenAccount(account) : undefined;
      if (!token) throw invalidParams('not a Token account');
      const decimals = mintDecimals(svm, token.mint) ?? 0;
      return { context: context(), value: uiTokenAmount(token.amount, decimals) };
    },
    getTokenSupply: (params) => {
      const mint = pubkeyParam(params, 0, 'mint');
      const account = readAccount(svm, mint);
      const decimals = mintDecimals(svm, mint);
      if (!account || decimals === undefined) throw invalidParams('not a Token mint');
      const supply = Buffer.from(account.data).readBigUInt64LE(36);
      return { context: context(), value: uiTokenAmount(supply, decimals) };
    },
  };
}

function tokenFilter(
  svm: LiteSVM,
  filter: Record<string, unknown>,
): { program: string; mint: string | undefined } {
  if (typeof filter['mint'] === 'string') {
    const mint = pubkeyParam([filter['mint']], 0, 'mint');
    const account = readAccount(svm, mint);
    if (!account || mintDecimals(svm, mint) === undefined) {
      throw invalidParams('could not find mint');
    }
    return { program: account.owner, mint };
  }
  if (typeof filter['programId'] === 'string') {
    const program = pubkeyParam([filter['programId']], 0, 'programId');
    if (!TOKEN_PROGRAMS.includes(program)) throw invalidParams('unrecognized Token program id');
    return { program, mint: undefined };
  }
  throw invalidParams('filter must be { mint } or { programId }');
}
