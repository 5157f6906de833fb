import type { LiteSVM } from 'litesvm';
import { decodeMint, decodeTokenAccount, uiTokenAmount } from './splAccounts';
import { readAccount } from './svmAccounts';

/** One entry of `meta.preTokenBalances` / `meta.postTokenBalances`. */
export interface TokenBalanceJson {
  readonly accountIndex: number;
  readonly mint: string;
  readonly owner: string;
  readonly programId: string;
  readonly uiTokenAmount: ReturnType<typeof uiTokenAmount>;
}

/** Decimals of `mint` as stored on chain, or undefined when it is not an SPL mint. */
export function mintDecimals(svm: LiteSVM, mint: string): number | undefined {
  const account = readAccount(svm, mint);
  return account ? decodeMint(account)?.decimals : undefined;
}

/**
 * The token balances of a transaction's accounts, read from the SVM as a node does before and
 * after execution: every listed account that is an initialized SPL token account.
 */
export function readTokenBalances(svm: LiteSVM, keys: readonly string[]): TokenBalanceJson[] {
  const balances: TokenBalanceJson[] = [];
  keys.forEach((key, accountIndex) => {
    const account = readAccount(svm, key);
    const token = account ? decodeTokenAccount(account) : undefined;
    if (!token) return;
    const decimals = mintDecimals(svm, token.mint) ?? 0;
    balances.push({
      accountIndex,
      mint: token.mint,
      owner: token.owner,
      programId: token.programId,
      uiTokenAmount: uiTokenAmount(token.amount, decimals),
    });
  });
  return balances;
}
