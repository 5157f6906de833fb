/* Jupiter Lend Earn (lending program jup3YeL8QhtSx1e253b2FDvsMNC87fDrgQZivbrndc9), from the
 * lending IDL shipped in @jup-ag/lend. The registered account is the market's Lending PDA
 * ["lending", mint, f_token_mint].
 *
 * deposit(assets: u64), discriminator f2 23 c6 89 52 e1 f2 b6, 17 accounts:
 *   0 signer (w, signer)  1 depositor_token_account (w)  2 recipient_token_account (w)  3 mint
 *   4 lending_admin  5 lending (w)  6 f_token_mint (w)  7 supply_token_reserves_liquidity (w)
 *   8 lending_supply_position_on_liquidity (w)  9 rate_model  10 vault (w)  11 liquidity (w)
 *   12 liquidity_program (w)  13 rewards_rate_model  14 token_program
 *   15 associated_token_program  16 system_program
 * redeem(shares: u64), discriminator b8 0c 56 95 46 c4 61 e1, 18 accounts:
 *   0 signer (w, signer)  1 owner_token_account (w, jlUSDC)  2 recipient_token_account (w, USDC)
 *   3 lending_admin  4 lending (w)  5 mint  6 f_token_mint (w)
 *   7 supply_token_reserves_liquidity (w)  8 lending_supply_position_on_liquidity (w)
 *   9 rate_model  10 vault (w)  11 claim_account (w)  12 liquidity (w)  13 liquidity_program (w)
 *   14 rewards_rate_model  15 token_program  16 associated_token_program  17 system_program
 * A withdrawal redeems jlUSDC (shares): the leg converts its USDC amount, rounding up. */
#ifndef YR_LAYOUT_JUPITER_LEND_H
#define YR_LAYOUT_JUPITER_LEND_H

#include "layouts/venue_layout.h"

#define YR_LAYOUT_JUPITER_LEND                                                                 \
  {                                                                                            \
    YR_LAYOUT_ID_JUPITER_LEND,                                                                 \
        {{0xf2, 0x23, 0xc6, 0x89, 0x52, 0xe1, 0xf2, 0xb6}, 8, {0}, 0, YR_UNIT_LIQUIDITY, 17, 0, 5, \
         {1, 2, 0}, 2, 1, 2, YR_RECEIPT_TOKEN},                                                                        \
        {{0xb8, 0x0c, 0x56, 0x95, 0x46, 0xc4, 0x61, 0xe1}, 8, {0}, 0, YR_UNIT_SHARES, 18, 0, 4,    \
         {1, 2, 0}, 2, 2, 1, YR_RECEIPT_TOKEN},                                                                        \
  }

#endif
