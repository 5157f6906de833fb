/* marginfi v2 (MFv2hWf31Z9kbCa1snEPYctwafyhdvnV7FZnsebVacA), from the IDL 0.1.8 of
 * @mrgnlabs/marginfi-client-v2 6.4.2 (dist/idl/marginfi_0.1.8.json). The registered account is
 * the bank. Data: the Anchor discriminator, the u64 amount, then an Option<bool>.
 *
 * lending_account_deposit { amount, deposit_up_to_limit: None } [171,94,235,103,82,64,212,140]:
 *   0 group  1 marginfi_account (w)  2 authority (signer)  3 bank (w)
 *   4 signer_token_account (w, owner's USDC)  5 liquidity_vault (w)  6 token_program
 * lending_account_withdraw { amount, withdraw_all: None } [36,72,74,19,210,210,192,192]:
 *   0 group  1 marginfi_account (w)  2 authority (signer)  3 bank (w)
 *   4 destination_token_account (w, owner's USDC)  5 bank_liquidity_vault_authority
 *   6 liquidity_vault (w)  7 token_program  8 bank  9 bank oracle (the health check's
 *   observation accounts of the USDC balance, which stays active after a partial withdrawal)
 * No receipt token: the receipts the router measures are the whole asset shares of the owner's
 * MarginfiAccount balance in the bank (YR_RECEIPT_MARGINFI, account 1). The MarginfiAccount is
 * opened before, unrouted, by marginfi_account_initialize_pda (the owner signs and pays). */
#ifndef YR_LAYOUT_MARGINFI_H
#define YR_LAYOUT_MARGINFI_H

#include "layouts/venue_layout.h"

#define YR_LAYOUT_MARGINFI                                                              \
  {                                                                                     \
    YR_LAYOUT_ID_MARGINFI,                                                              \
        {{171, 94, 235, 103, 82, 64, 212, 140}, 8, {0}, 1, YR_UNIT_LIQUIDITY, 7, 2, 3,  \
         {4, 0, 0}, 1, 4, 1, YR_RECEIPT_MARGINFI},                                      \
        {{36, 72, 74, 19, 210, 210, 192, 192}, 8, {0}, 1, YR_UNIT_LIQUIDITY, 10, 2, 3,  \
         {4, 0, 0}, 1, 4, 1, YR_RECEIPT_MARGINFI},                                      \
  }

#endif
