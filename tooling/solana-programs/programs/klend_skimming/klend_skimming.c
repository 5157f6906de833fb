/* A klend stand-in that skims: a cheating bed (issue 44), for the tests only, never a real venue.
 * It is the klend stand-in (programs/klend_standin: the same instructions, discriminators,
 * account order and account layouts, so the product builds the same bytes for it) loaded at a
 * program id of its own, with one difference the bed turns on: once the market owner calls
 * `standin_set_skim(bps)`, every deposit_reserve_liquidity takes `bps` of the liquidity on top
 * of what it books and every redeem_reserve_collateral pays the owner `bps` less than it books;
 * the skim stays in the reserve's supply vault, outside the reserve's books. Its log line
 * (`klend_standin: deposit liquidity=…`), the cTokens and the reserve's books still claim the
 * honest amount, as TestSkimmingVault4626's events do on EVM.
 *
 * Why the skim lands in the supply vault, where the EVM vault passes it to a skimmer: a Solana
 * program writes only accounts its instruction names, and the product names the accounts (a
 * skimmer account in the instruction is an unknown destination the offline verifier refuses).
 * What a cheating venue can do is move more or less USDC between the accounts it is given than
 * its own log says, which is what the settlement check reads from the chain.
 *
 * The skim lives in the lending market's trailing padding (klend's `padding1`), read on every
 * move: an operator turning it on between a plan's prepare (simulated honest) and its landing. */
#include "yr_solana.h"

/* The last u64 of LendingMarket.padding1 (klend-sdk IDL: `padding1: [u64; 153]` ends the struct). */
#define MARKET_SKIM_BPS 4656

static uint64_t skim_share(const SolAccountInfo *market, uint64_t amount);
static uint64_t standin_set_skim(const SolParameters *params);

/* sha256("global:standin_set_skim")[0..8] */
static const uint8_t IX_STANDIN_SET_SKIM[8] = {0x08, 0x2f, 0xdf, 0x0a, 0xb4, 0xb8, 0x92, 0x32};

#define KLEND_SKIM(market, amount) skim_share((market), (amount))
#define KLEND_EXTRA_INSTRUCTIONS(tag, params) \
  if (yr_bytes_eq((tag), IX_STANDIN_SET_SKIM, 8)) return standin_set_skim(params);

#include "../klend_standin/klend_standin.c"

/* floor(amount × skim bps / 10 000); the market is checked by the caller (is_market). */
static uint64_t skim_share(const SolAccountInfo *market, uint64_t amount) {
  uint64_t skim = 0;
  if (!yr_mul_div_floor(amount, yr_read_u64(market->data + MARKET_SKIM_BPS), 10000, &skim)) {
    return 0;
  }
  return skim;
}

/* standin_set_skim(bps: u64): [owner (s), lending_market (w)]: the market owner sets the skim
 * (0 honest, at most 10 000). */
static uint64_t standin_set_skim(const SolParameters *params) {
  uint64_t bps;
  if (params->data_len != 16) return custom(E_INVALID_INSTRUCTION);
  bps = yr_read_u64(params->data + 8);
  if (bps > 10000) return custom(E_INVALID_INSTRUCTION);
  if (params->accounts_len < 2) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *owner = &params->accounts[0], *market = &params->accounts[1];
  if (!owner->is_signer) return custom(E_NOT_SIGNER);
  if (!is_market(params, market) || !market->is_writable) return custom(E_INVALID_ACCOUNT);
  if (!yr_bytes_eq(owner->key->x, market->data + MARKET_OWNER, 32)) return custom(E_NOT_OWNER);
  yr_write_u64(market->data + MARKET_SKIM_BPS, bps);
  sol_log_64_(0x534b, bps, 0, 0, 0); /* "SK", bps */
  return YR_SUCCESS;
}
