/* Save, formerly Solend (token-lending program So1endDq2YkqhipRh3WViPa8hdiSpxWy6z3Z6tMCpAo),
 * from the instruction builders of @solendprotocol/solend-sdk. The registered account is the
 * reserve. Data: a one-byte LendingInstruction tag, then the u64 amount.
 *
 * DepositReserveLiquidity { liquidity_amount } (tag 4), 9 accounts:
 *   0 source liquidity (w, owner's USDC)  1 destination collateral (w, owner's cTokens)
 *   2 reserve (w)  3 reserve liquidity supply (w)  4 reserve collateral mint (w)
 *   5 lending market  6 lending market authority  7 user transfer authority (signer)
 *   8 token program
 * RedeemReserveCollateral { collateral_amount } (tag 5), 9 accounts:
 *   0 source collateral (w, owner's cTokens)  1 destination liquidity (w, owner's USDC)
 *   2 reserve (w)  3 reserve collateral mint (w)  4 reserve liquidity supply (w)
 *   5 lending market (w)  6 lending market authority  7 user transfer authority (signer)
 *   8 token program
 * Save refuses a reserve not refreshed in the current slot: the leg puts RefreshReserve (tag 3,
 * no signature, so not routed) right before the router's instruction. A withdrawal redeems
 * cTokens (shares): the leg converts its USDC amount, rounding up. */
#ifndef YR_LAYOUT_SAVE_H
#define YR_LAYOUT_SAVE_H

#include "layouts/venue_layout.h"

#define YR_LAYOUT_SAVE                                                                \
  {                                                                                   \
    YR_LAYOUT_ID_SAVE, {{4}, 1, {0}, 0, YR_UNIT_LIQUIDITY, 9, 7, 2, {0, 1, 0}, 2, 0, 1, YR_RECEIPT_TOKEN}, \
        {{5}, 1, {0}, 0, YR_UNIT_SHARES, 9, 7, 2, {0, 1, 0}, 2, 1, 0, YR_RECEIPT_TOKEN},                \
  }

#endif
