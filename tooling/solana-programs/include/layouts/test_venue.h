/* Our local test venue (programs/test_venue): `deposit(assets)` / `withdraw(assets)`, Anchor
 * discriminators sha256("global:deposit" / "global:withdraw")[0..8], 8 accounts:
 *   0 depositor (signer, w)  1 venue state (w, registered)  2 depositor USDC (w)  3 reserve (w)
 *   4 depositor receipt (w)  5 receipt mint (w)  6 USDC mint  7 token program */
#ifndef YR_LAYOUT_TEST_VENUE_H
#define YR_LAYOUT_TEST_VENUE_H

#include "layouts/venue_layout.h"

#define YR_LAYOUT_TEST_VENUE                                                                  \
  {                                                                                           \
    YR_LAYOUT_ID_TEST_VENUE,                                                                  \
        {{0xf2, 0x23, 0xc6, 0x89, 0x52, 0xe1, 0xf2, 0xb6}, 8, {0}, 0, YR_UNIT_LIQUIDITY, 8, 0, 1, \
         {2, 4, 0}, 2, 2, 4, YR_RECEIPT_TOKEN},                                                                     \
        {{0xb7, 0x12, 0x46, 0x9c, 0x94, 0x6d, 0xa1, 0x22}, 8, {0}, 0, YR_UNIT_LIQUIDITY, 8, 0, 1, \
         {2, 4, 0}, 2, 2, 4, YR_RECEIPT_TOKEN},                                                                     \
  }

#endif
