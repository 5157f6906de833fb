/* Kamino Lend (klend, KLend2g3cP87fffoy8q1mQqGKjrxjC8boSyAYavgmjD), from the IDL shipped in
 * @kamino-finance/klend-sdk. The registered account is the reserve.
 *
 * deposit_reserve_liquidity(liquidity_amount: u64), discriminator a9 c9 1e 7e 06 cd 66 44:
 *   0 owner (signer)  1 reserve (w)  2 lending_market  3 lending_market_authority
 *   4 reserve_liquidity_mint  5 reserve_liquidity_supply (w)  6 reserve_collateral_mint (w)
 *   7 user_source_liquidity (w)  8 user_destination_collateral (w)  9 collateral_token_program
 *   10 liquidity_token_program  11 instruction_sysvar_account
 * redeem_reserve_collateral(collateral_amount: u64), discriminator ea 75 b5 7d b9 8e dc 1d:
 *   0 owner (signer)  1 lending_market  2 reserve (w)  3 lending_market_authority
 *   4 reserve_liquidity_mint  5 reserve_collateral_mint (w)  6 reserve_liquidity_supply (w)
 *   7 user_source_collateral (w)  8 user_destination_liquidity (w)  9 collateral_token_program
 *   10 liquidity_token_program  11 instruction_sysvar_account
 * klend refuses a reserve not refreshed in the current slot: the leg puts `refresh_reserve`
 * before the router's instruction (it needs no signature, so it is not routed). */
#ifndef YR_LAYOUT_KLEND_H
#define YR_LAYOUT_KLEND_H

#include "layouts/venue_layout.h"

#define YR_LAYOUT_KLEND                                                                        \
  {                                                                                            \
    YR_LAYOUT_ID_KLEND,                                                                        \
        {{0xa9, 0xc9, 0x1e, 0x7e, 0x06, 0xcd, 0x66, 0x44}, 8, {0}, 0, YR_UNIT_LIQUIDITY, 12, 0, 1, \
         {7, 8, 0}, 2, 7, 8, YR_RECEIPT_TOKEN},                                                                        \
        {{0xea, 0x75, 0xb5, 0x7d, 0xb9, 0x8e, 0xdc, 0x1d}, 8, {0}, 0, YR_UNIT_SHARES, 12, 0, 2,    \
         {7, 8, 0}, 2, 8, 7, YR_RECEIPT_TOKEN},                                                                        \
  }

#endif
