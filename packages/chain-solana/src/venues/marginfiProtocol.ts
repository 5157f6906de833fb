import type { Connection, PublicKey } from '@solana/web3.js';
import type { Blocker } from '@yieldrouter/schemas';
import { SolanaBadResponseError, describeRpcFailure } from '../describeRpcFailure';
import {
  marginfiAccountAddress,
  marginfiAccountInitializePdaInstruction,
  marginfiDepositInstruction,
  marginfiWithdrawInstruction,
} from '../instructions/marginfiInstructions';
import type { MarginfiBankAccounts } from '../instructions/marginfiInstructions';
import { readonly } from '../instructions/accountMeta';
import { associatedTokenAccount } from '../tokenAccounts';
import {
  I80F48_FRACTION_BITS,
  I80F48_ONE,
  decodeMarginfiAccount,
  decodeMarginfiBank,
  marginfiAssetShares,
  marginfiAssetValue,
} from '../venueState/marginfiState';
import type { MarginfiAccountState, MarginfiBank } from '../venueState/marginfiState';
import { venueId } from './receiptsToRedeem';
import { SOLANA_VENUE_LAYOUT } from './solanaVenueProtocol';
import type { SolanaVenueProtocol, VenueCallInput } from './solanaVenueProtocol';

const ID_NAMES = ['marginfiProgram', 'group', 'bank', 'liquidityVault', 'oracle'] as const;

function bankOf(ids: Readonly<Record<string, PublicKey>>): MarginfiBankAccounts {
  return {
    program: venueId(ids, 'marginfiProgram'),
    group: venueId(ids, 'group'),
    bank: venueId(ids, 'bank'),
    liquidityVault: venueId(ids, 'liquidityVault'),
  };
}

/** The bank's state, checked against the configured ids (fails closed: throws). */
async function readBank(
  connection: Connection,
  accounts: MarginfiBankAccounts,
  usdcMint: PublicKey | undefined,
): Promise<MarginfiBank> {
  const info = await connection.getAccountInfo(accounts.bank, 'confirmed');
  const where = `marginfi bank ${accounts.bank.toBase58()}`;
  if (!info?.owner.equals(accounts.program))
    throw new SolanaBadResponseError(`${where}: not a bank`);
  const bank = decodeMarginfiBank(info.data);
  if (usdcMint && !bank.mint.equals(usdcMint)) {
    throw new SolanaBadResponseError(`${where} does not lend the configured USDC`);
  }
  if (!bank.group.equals(accounts.group) || !bank.liquidityVault.equals(accounts.liquidityVault)) {
    throw new SolanaBadResponseError(
      `${where}: configured ids.group / ids.liquidityVault are not its`,
    );
  }
  if (bank.assetShareValue <= 0n) throw new SolanaBadResponseError(`${where}: no share value`);
  return bank;
}

/** The owner's MarginfiAccount (index 0) in the group, or null when it is not opened yet. */
async function readOwnerAccount(
  connection: Connection,
  accounts: MarginfiBankAccounts,
  owner: PublicKey,
): Promise<MarginfiAccountState | null> {
  const address = marginfiAccountAddress(accounts.program, accounts.group, owner);
  const info = await connection.getAccountInfo(address, 'confirmed');
  if (!info) return null;
  const account = info.owner.equals(accounts.program) ? decodeMarginfiAccount(info.data) : null;
  if (!account?.authority.equals(owner) || !account.group.equals(accounts.group)) {
    throw new SolanaBadResponseError(`${address.toBase58()} is not the owner's MarginfiAccount`);
  }
  return account;
}

const blocked = (blocker: Blocker) => ({ blockers: [blocker] as const });

/** Both reads a leg needs, or the blocker saying why not (`rpc_unavailable`). */
async function readForLeg(
  input: VenueCallInput,
  accounts: MarginfiBankAccounts,
): Promise<
  { bank: MarginfiBank; account: MarginfiAccountState | null } | { blockers: readonly Blocker[] }
> {
  const { context, owner, usdcMint } = input;
  if (context.rpc.status !== 'ok') {
    return blocked({ code: 'rpc_unavailable', message: `Solana: ${context.rpc.detail}` });
  }
  try {
    const { connection } = context.rpc;
    const [bank, account] = await Promise.all([
      readBank(connection, accounts, usdcMint),
      readOwnerAccount(connection, accounts, owner),
    ]);
    return { bank, account };
  } catch (error) {
    const failure = describeRpcFailure(error, 'marginfi');
    return blocked({
      code: 'rpc_unavailable',
      message: failure.detail,
      details: { reason: failure.reason },
    });
  }
}

/**
 * marginfi v2 through our router (layout `layouts/marginfi.h`). No receipt token: a deposit adds
 * asset shares to the owner's MarginfiAccount balance in the bank (the account is opened at its
 * PDA in the same transaction when missing: `marginfi_account_initialize_pda`, index 0), and the
 * router measures those shares itself (whole shares, I80F48 floored) and logs them
 * (`venue_receipts delta=`). Deposit: `lending_account_deposit(amount, None)`; withdrawal:
 * `lending_account_withdraw(amount, None)` of USDC, capped at what the owner's shares are worth,
 * with the bank and its oracle as the health check's observation accounts. Value:
 * whole shares × asset_share_value, floored (docs/venues/solana.md).
 */
export const MARGINFI_PROTOCOL: SolanaVenueProtocol = {
  name: 'marginfi',
  layout: SOLANA_VENUE_LAYOUT.marginfi,
  idNames: ID_NAMES,
  units: { deposit: 'liquidity', withdraw: 'liquidity' },
  readOwnerShares: async (connection, owner, ids) => {
    const accounts = bankOf(ids);
    const account = await readOwnerAccount(connection, accounts, owner);
    const shares = account ? marginfiAssetShares(account, accounts.bank) : 0n;
    return shares > 0n ? shares >> I80F48_FRACTION_BITS : 0n;
  },
  buildCall: async (input) => {
    const { action, owner, amountMicros, usdcMint, ids } = input;
    const accounts = bankOf(ids);
    const read = await readForLeg(input, accounts);
    if ('blockers' in read) return read;
    const ownerAccounts = {
      owner,
      marginfiAccount: marginfiAccountAddress(accounts.program, accounts.group, owner),
      ownerLiquidity: associatedTokenAccount(owner, usdcMint),
    };
    const common = { adapter: accounts.bank, venueProgram: accounts.program };
    if (action === 'deposit') {
      return {
        ...common,
        setup: read.account ? [] : [marginfiAccountInitializePdaInstruction(accounts, owner)],
        argument: amountMicros,
        venueAccounts: marginfiDepositInstruction(accounts, ownerAccounts, amountMicros).keys,
      };
    }
    const others = read.account?.balances.filter((balance) => !balance.bank.equals(accounts.bank));
    if (others && others.length > 0) {
      return blocked({
        code: 'venue_not_configured',
        message: `the owner's MarginfiAccount holds ${others.length} other balance(s): a routed withdrawal observes only the USDC bank`,
        field: 'owner',
      });
    }
    const shares = read.account ? marginfiAssetShares(read.account, accounts.bank) : 0n;
    const worth = shares > 0n ? marginfiAssetValue(shares, read.bank.assetShareValue) : 0n;
    if (worth === 0n) {
      return blocked({
        code: 'nothing_staked',
        message: `the owner has no marginfi USDC balance in bank ${accounts.bank.toBase58()}`,
        field: 'amountMicros',
      });
    }
    const amount = amountMicros < worth ? amountMicros : worth;
    const observation = [readonly(accounts.bank), readonly(venueId(ids, 'oracle'))];
    return {
      ...common,
      setup: [],
      argument: amount,
      venueAccounts: marginfiWithdrawInstruction(
        accounts,
        ownerAccounts,
        { all: false, amount },
        observation,
      ).keys,
    };
  },
  readExchangeRate: async (connection, ids, usdcMint) => {
    const bank = await readBank(connection, bankOf(ids), usdcMint);
    // A whole share is worth floor(share × asset_share_value): value over I80F48's one.
    return { liquidity: bank.assetShareValue, supply: I80F48_ONE };
  },
};
