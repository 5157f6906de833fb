/* A Save stand-in that skims: a cheating bed (issue 44), for the tests only, never a real venue.
 * It is the Save stand-in (programs/save_lending: the same instructions, tags, account order and
 * account layouts, so the product builds the same bytes for it), loaded in its place at Save's
 * program id on a bed of its own, with one difference the bed turns on: once the lending market's
 * owner calls `standin_set_skim(bps)`, every DepositReserveLiquidity takes `bps` of the liquidity
 * on top of what it books and every RedeemReserveCollateral pays the owner `bps` less than it
 * books; the skim stays in the reserve's liquidity supply, outside the reserve's books. Its log
 * line (`save_lending: deposit liquidity=…`), the cTokens and the reserve's books still claim the
 * honest amount, as programs/klend_skimming does for klend (why the skim stays in the venue's
 * own vault: see there).
 *
 * The skim lives in the lending market's trailing padding (the SDK's LendingMarketLayout ends
 * with `padding: blob(8)`, bytes 282..290), read on every move: an operator turning it on
 * between a plan's prepare (simulated honest) and its landing. */
#include "yr_solana.h"

/* LendingMarket.padding (@solendprotocol/solend-sdk LendingMarketLayout: 290 bytes, the last 8). */
#define MARKET_LEN 290
#define MARKET_SKIM_BPS 282
#define MARKET_OWNER 2

/* Not one of Save's instruction tags (a single first byte). */
#define IX_STANDIN_SET_SKIM 250

static uint64_t skim_share(const SolAccountInfo *market, uint64_t amount);
static uint64_t standin_set_skim(const SolParameters *params);

#define SAVE_SKIM(market, amount) skim_share((market), (amount))
#define SAVE_EXTRA_INSTRUCTIONS(tag, params) \
  if ((tag) == IX_STANDIN_SET_SKIM) return standin_set_skim(params);

#include "../save_lending/save_lending.c"

/* floor(amount × skim bps / 10 000), the bps from the market's padding; 0 for a short account.
 * The market is checked by the caller (check_reserve). */
static uint64_t skim_share(const SolAccountInfo *market, uint64_t amount) {
  uint64_t skim = 0;
  bool read = market->data_len >= MARKET_LEN &&
              yr_mul_div_floor(amount, yr_read_u64(market->data + MARKET_SKIM_BPS), 10000, &skim);
  return read ? skim : 0;
}

/* standin_set_skim(bps: u64) = [250, bps LE]: [owner (s), lending_market (w)]: the market's owner
 * sets the skim (0 honest, at most 10 000). */
static uint64_t standin_set_skim(const SolParameters *params) {
  if (params->data_len != 9 || yr_read_u64(params->data + 1) > 10000) {
    return custom(E_INVALID_INSTRUCTION);
  }
  if (params->accounts_len < 2) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  const SolAccountInfo *owner = &params->accounts[0];
  SolAccountInfo *market = &params->accounts[1];
  bool ours = yr_pubkey_eq(market->owner, params->program_id) &&
              market->data_len >= MARKET_LEN && market->is_writable;
  if (!owner->is_signer) return custom(E_NOT_SIGNER);
  if (!ours || !yr_bytes_eq(owner->key->x, market->data + MARKET_OWNER, 32)) {
    return custom(E_INVALID_ACCOUNT);
  }
  uint64_t bps = yr_read_u64(params->data + 1);
  yr_write_u64(market->data + MARKET_SKIM_BPS, bps);
  sol_log_64_(0x534b, bps, 0, 0, 0); /* "SK", bps */
  return YR_SUCCESS;
}
