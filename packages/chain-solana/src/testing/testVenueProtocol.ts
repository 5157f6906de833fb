import { AccountLayout, MintLayout, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { createAssociatedTokenAccountIdempotentInstruction } from '@solana/spl-token';
import { SolanaBadResponseError } from '../describeRpcFailure';
import { associatedTokenAccount } from '../tokenAccounts';
import { SOLANA_VENUE_LAYOUT } from '../venues/solanaVenueProtocol';
import type { SolanaVenueProtocol } from '../venues/solanaVenueProtocol';
import { venueId as key } from '../venues/receiptsToRedeem';
import { readonly, writable } from '../instructions/accountMeta';

/**
 * Our local test venue (tooling/solana-programs/programs/test_venue, layout
 * `layouts/test_venue.h`): `deposit(assets)` / `withdraw(assets)` on the venue state account
 * (`ids.adapter`), USDC in `ids.reserve`, receipts of `ids.receiptMint`; its reserve holds all its
 * assets, so the rate is the reserve balance over the receipt supply. A test fixture: no catalog
 * venue speaks it; tests reach it as the venue id `test-venue` (`withTestVenueProtocol`).
 */
export const TEST_VENUE_PROTOCOL: SolanaVenueProtocol = {
  name: 'test venue',
  layout: SOLANA_VENUE_LAYOUT.testVenue,
  idNames: ['adapter', 'receiptMint', 'venueProgram', 'reserve'],
  units: { deposit: 'liquidity', withdraw: 'liquidity' },
  receiptMint: (ids) => key(ids, 'receiptMint'),
  buildCall: ({ action, owner, amountMicros, usdcMint, ids }) => {
    const receiptMint = key(ids, 'receiptMint');
    const ownerUsdc = associatedTokenAccount(owner, usdcMint);
    const ownerReceipt = associatedTokenAccount(owner, receiptMint);
    const setup =
      action === 'deposit'
        ? createAssociatedTokenAccountIdempotentInstruction(owner, ownerReceipt, owner, receiptMint)
        : createAssociatedTokenAccountIdempotentInstruction(owner, ownerUsdc, owner, usdcMint);
    return Promise.resolve({
      setup: [setup],
      adapter: key(ids, 'adapter'),
      venueProgram: key(ids, 'venueProgram'),
      argument: amountMicros,
      venueAccounts: [
        writable(owner, true),
        writable(key(ids, 'adapter')),
        writable(ownerUsdc),
        writable(key(ids, 'reserve')),
        writable(ownerReceipt),
        writable(receiptMint),
        readonly(usdcMint),
        readonly(TOKEN_PROGRAM_ID),
      ],
    });
  },
  readExchangeRate: async (connection, ids, usdcMint) => {
    const reserve = key(ids, 'reserve');
    const receiptMint = key(ids, 'receiptMint');
    const [reserveAccount, mintAccount] = await connection.getMultipleAccountsInfo(
      [reserve, receiptMint],
      'confirmed',
    );
    if (!reserveAccount?.owner.equals(TOKEN_PROGRAM_ID) || reserveAccount.data.length < 165) {
      throw new SolanaBadResponseError(`reserve ${reserve.toBase58()} is not a token account`);
    }
    if (!mintAccount?.owner.equals(TOKEN_PROGRAM_ID) || mintAccount.data.length < 82) {
      throw new SolanaBadResponseError(`receipt mint ${receiptMint.toBase58()} is not a mint`);
    }
    const decoded = AccountLayout.decode(reserveAccount.data);
    if (usdcMint && !decoded.mint.equals(usdcMint)) {
      throw new SolanaBadResponseError(`reserve ${reserve.toBase58()} does not hold USDC`);
    }
    return { liquidity: decoded.amount, supply: MintLayout.decode(mintAccount.data).supply };
  },
};
