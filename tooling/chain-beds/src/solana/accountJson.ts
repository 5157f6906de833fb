import { TOKEN_2022_PROGRAM_ID } from '@solana/spl-token';
import type { LiteSVM } from 'litesvm';
import bs58 from 'bs58';
import { invalidParams } from './rpcError';
import { decodeMint, decodeTokenAccount, uiTokenAmount } from './splAccounts';
import type { BedAccount } from './svmAccounts';
import { mintDecimals } from './tokenBalances';

function parsedData(svm: LiteSVM, account: BedAccount): object | undefined {
  const token = decodeTokenAccount(account);
  if (token) {
    const decimals = mintDecimals(svm, token.mint) ?? 0;
    return {
      program: programName(account.owner),
      parsed: {
        type: 'account',
        info: {
          isNative: token.isNative,
          mint: token.mint,
          owner: token.owner,
          state: token.state,
          tokenAmount: uiTokenAmount(token.amount, decimals),
        },
      },
      space: account.data.length,
    };
  }
  const mint = decodeMint(account);
  if (mint) {
    return {
      program: programName(account.owner),
      parsed: {
        type: 'mint',
        info: {
          decimals: mint.decimals,
          freezeAuthority: mint.freezeAuthority,
          isInitialized: mint.isInitialized,
          mintAuthority: mint.mintAuthority,
          supply: mint.supply.toString(),
        },
      },
      space: account.data.length,
    };
  }
  return undefined;
}

function programName(owner: string): string {
  return owner === TOKEN_2022_PROGRAM_ID.toBase58() ? 'spl-token-2022' : 'spl-token';
}

function encodedData(account: BedAccount, encoding: string): [string, string] {
  if (encoding === 'base64') return [Buffer.from(account.data).toString('base64'), 'base64'];
  if (encoding === 'base58' || encoding === 'binary') return [bs58.encode(account.data), 'base58'];
  throw invalidParams(`unsupported encoding ${encoding}`);
}

/**
 * An account in the RPC's JSON form. `jsonParsed` parses SPL token accounts and mints and falls
 * back to base64 for anything else, as nodes do.
 */
export function accountJson(svm: LiteSVM, account: BedAccount, encoding: string): object {
  const data =
    encoding === 'jsonParsed'
      ? (parsedData(svm, account) ?? encodedData(account, 'base64'))
      : encodedData(account, encoding);
  return {
    data,
    executable: account.executable,
    lamports: Number(account.lamports),
    owner: account.owner,
    rentEpoch: 0,
    space: account.data.length,
  };
}
