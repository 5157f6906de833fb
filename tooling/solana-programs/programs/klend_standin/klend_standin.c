/* Kamino Lend (klend) stand-in, for the local beds only: deployed at klend's program id, it
 * implements the part of klend's published interface our venue legs use, with klend's
 * discriminators, argument layouts, account order and the Reserve / LendingMarket account
 * layouts of the IDL in @kamino-finance/klend-sdk (the fields below at their real offsets):
 * - deposit_reserve_liquidity(liquidity_amount: u64): refreshes the reserve (interest), mints
 *   floor(amount × collateral supply / total liquidity) cTokens and takes only the liquidity those
 *   cTokens are worth, rounded up (klend 1.16's compute_depositable_amount_and_minted_collateral);
 * - redeem_reserve_collateral(collateral_amount: u64): refreshes, burns the cTokens and pays
 *   floor(cTokens × total liquidity / collateral supply);
 * - refresh_reserve: accrues interest and marks the reserve fresh for the slot.
 * Total liquidity = available + borrowed − protocol fees − referrer fees − pending referrer fees
 * (scaled fractions, 60 fractional bits). Interest is simple interest per refresh at one flat
 * borrow rate (the reserve's borrow-rate curve, every point the same in the bed), a
 * `protocol_take_rate_pct` share of it booked as protocol fees: the stand-in does not price
 * oracles or model obligations. Its own bed-only instructions (`standin_*`, discriminators of
 * names klend does not have) create the market and reserve and borrow from the reserve so
 * interest accrues. */
#include "yr_solana.c"
#include "yr_u256.h"

#define E_INVALID_INSTRUCTION 1
#define E_NOT_SIGNER 2
#define E_INVALID_ACCOUNT 3
#define E_ZERO_AMOUNT 4
#define E_MATH 5
#define E_STALE 6
#define E_INSUFFICIENT_LIQUIDITY 7
#define E_DEPOSIT_LIMIT 8
#define E_EMERGENCY 9
#define E_NOT_OWNER 10

static const uint8_t IX_DEPOSIT_RESERVE_LIQUIDITY[8] = {0xa9, 0xc9, 0x1e, 0x7e,
                                                        0x06, 0xcd, 0x66, 0x44};
static const uint8_t IX_REDEEM_RESERVE_COLLATERAL[8] = {0xea, 0x75, 0xb5, 0x7d,
                                                        0xb9, 0x8e, 0xdc, 0x1d};
static const uint8_t IX_REFRESH_RESERVE[8] = {0x02, 0xda, 0x8a, 0xeb, 0x4f, 0xc9, 0x19, 0x66};
/* sha256("global:standin_init_market" / "global:standin_init_reserve" / "global:standin_borrow") */
static const uint8_t IX_STANDIN_INIT_MARKET[8] = {0x80, 0x41, 0x5b, 0x7e, 0x59, 0x2b, 0xf6, 0x5a};
static const uint8_t IX_STANDIN_INIT_RESERVE[8] = {0xa8, 0x3c, 0xaa, 0x1a, 0xcb, 0x5d, 0xc8, 0x03};
static const uint8_t IX_STANDIN_BORROW[8] = {0x1d, 0x75, 0xfe, 0x4d, 0x77, 0xd2, 0x16, 0x10};

/* Account discriminators: sha256("account:Reserve" / "account:LendingMarket")[0..8]. */
static const uint8_t RESERVE_DISCRIMINATOR[8] = {0x2b, 0xf2, 0xcc, 0xca, 0x1a, 0xf7, 0x3b, 0x7f};
static const uint8_t MARKET_DISCRIMINATOR[8] = {0xf6, 0x72, 0x32, 0x62, 0x48, 0x9d, 0x1c, 0x78};

static const char LMA_SEED[] = "lma";

/* LendingMarket (8 + 4656 bytes). */
#define MARKET_LEN 4664
#define MARKET_VERSION 8
#define MARKET_BUMP_SEED 16
#define MARKET_OWNER 24
#define MARKET_REFERRAL_FEE_BPS 120
#define MARKET_EMERGENCY_MODE 122

/* Reserve (8 + 8616 bytes). */
#define RESERVE_LEN 8624
#define RESERVE_VERSION 8
#define RESERVE_LAST_UPDATE_SLOT 16
#define RESERVE_LAST_UPDATE_STALE 24
#define RESERVE_LENDING_MARKET 32
#define LIQUIDITY_MINT 128
#define LIQUIDITY_SUPPLY_VAULT 160
#define LIQUIDITY_FEE_VAULT 192
#define LIQUIDITY_AVAILABLE 224
#define LIQUIDITY_BORROWED_SF 232
#define LIQUIDITY_MINT_DECIMALS 272
#define LIQUIDITY_CUMULATIVE_BORROW_RATE_BSF 296
#define LIQUIDITY_PROTOCOL_FEES_SF 344
#define LIQUIDITY_REFERRER_FEES_SF 360
#define LIQUIDITY_PENDING_REFERRER_FEES_SF 376
#define LIQUIDITY_TOKEN_PROGRAM 408
#define COLLATERAL_MINT 2560
#define COLLATERAL_MINT_TOTAL_SUPPLY 2592
#define COLLATERAL_SUPPLY_VAULT 2600
#define CONFIG_PROTOCOL_TAKE_RATE_PCT 4870
#define CONFIG_BORROW_RATE_CURVE 4920 /* 11 points of (utilization_rate_bps u32, borrow_rate_bps u32) */
#define CONFIG_DEPOSIT_LIMIT 5016
#define CONFIG_BORROW_LIMIT 5024

#define FRACTION_BITS 60
#define SLOTS_PER_YEAR 63072000ULL /* klend's: 2 slots a second */

/* A build of this program that cheats (programs/klend_skimming, issue 44) defines KLEND_SKIM(market,
 * amount): the part of a move it keeps beyond what it books and logs. This one keeps nothing. */
#ifndef KLEND_SKIM
#define KLEND_SKIM(market, amount) 0
#endif

static uint64_t custom(uint64_t code) {
  sol_log_64_(0x4b4c, code, 0, 0, 0); /* "KL", code */
  return code;
}

static uint32_t read_u32(const uint8_t *bytes) {
  return (uint32_t)bytes[0] | ((uint32_t)bytes[1] << 8) | ((uint32_t)bytes[2] << 16) |
         ((uint32_t)bytes[3] << 24);
}

static void write_u32(uint8_t *bytes, uint32_t value) {
  for (int i = 0; i < 4; i += 1) bytes[i] = (uint8_t)(value >> (8 * i));
}

static uint64_t current_slot(void) {
  uint8_t clock[40];
  if (sol_get_clock_sysvar(clock) != 0) return 0;
  return yr_read_u64(clock);
}

static bool is_market(const SolParameters *params, const SolAccountInfo *market) {
  return yr_pubkey_eq(market->owner, params->program_id) && market->data_len == MARKET_LEN &&
         yr_bytes_eq(market->data, MARKET_DISCRIMINATOR, 8);
}

/* A reserve of this program, in `market` (klend: `has_one = lending_market`). */
static bool is_reserve(const SolParameters *params, const SolAccountInfo *reserve,
                       const SolAccountInfo *market) {
  return yr_pubkey_eq(reserve->owner, params->program_id) && reserve->data_len == RESERVE_LEN &&
         yr_bytes_eq(reserve->data, RESERVE_DISCRIMINATOR, 8) &&
         yr_bytes_eq(reserve->data + RESERVE_LENDING_MARKET, market->key->x, 32);
}

/* The lending market authority PDA ["lma", market, bump = market.bump_seed]. */
static bool is_market_authority(const SolParameters *params, const SolAccountInfo *market,
                                const SolAccountInfo *authority) {
  uint8_t bump = market->data[MARKET_BUMP_SEED];
  SolSignerSeed seeds[3] = {
      {(const uint8_t *)LMA_SEED, sizeof(LMA_SEED) - 1}, {market->key->x, 32}, {&bump, 1}};
  SolPubkey expected;
  if (sol_create_program_address(seeds, 3, params->program_id, &expected) != 0) return false;
  return yr_pubkey_eq(&expected, authority->key);
}

/* Total liquidity (scaled by 2^60): available + borrowed − fees (0 if the fees exceed it). */
static YR_NOINLINE void total_liquidity_sf(const uint8_t *reserve, YrU256 *total) {
  YrU256 part;
  u256_set(total, 0, yr_read_u64(reserve + LIQUIDITY_AVAILABLE));
  u256_shl(total, FRACTION_BITS);
  u256_read_u128(&part, reserve + LIQUIDITY_BORROWED_SF);
  u256_add(total, &part);
  static const uint64_t FEES[3] = {LIQUIDITY_PROTOCOL_FEES_SF, LIQUIDITY_REFERRER_FEES_SF,
                                   LIQUIDITY_PENDING_REFERRER_FEES_SF};
  for (int i = 0; i < 3; i += 1) {
    u256_read_u128(&part, reserve + FEES[i]);
    if (u256_cmp(total, &part) < 0) {
      u256_set(total, 0, 0);
      return;
    }
    u256_sub(total, &part);
  }
}

/* Interest since the last update: borrowed × rate × slots / (10 000 × slots a year), a
 * protocol_take_rate_pct share of it to the protocol's fees; the reserve is fresh for the slot. */
static YR_NOINLINE uint64_t refresh(uint8_t *reserve) {
  uint64_t slot = current_slot();
  uint64_t last = yr_read_u64(reserve + RESERVE_LAST_UPDATE_SLOT);
  if (slot > last) {
    uint64_t rate_bps = read_u32(reserve + CONFIG_BORROW_RATE_CURVE + 4);
    YrU256 value, divisor, interest, fee;
    u256_read_u128(&value, reserve + LIQUIDITY_BORROWED_SF);
    u256_mul_u64(&value, rate_bps);
    u256_mul_u64(&value, slot - last);
    u256_set(&divisor, 0, 10000ULL * SLOTS_PER_YEAR);
    u256_divmod(&value, &divisor, &interest, NULL);
    value = interest;
    u256_mul_u64(&value, reserve[CONFIG_PROTOCOL_TAKE_RATE_PCT]);
    u256_set(&divisor, 0, 100);
    u256_divmod(&value, &divisor, &fee, NULL);
    u256_read_u128(&value, reserve + LIQUIDITY_BORROWED_SF);
    u256_add(&value, &interest);
    if (!u256_write_u128(reserve + LIQUIDITY_BORROWED_SF, &value)) return custom(E_MATH);
    u256_read_u128(&value, reserve + LIQUIDITY_PROTOCOL_FEES_SF);
    u256_add(&value, &fee);
    if (!u256_write_u128(reserve + LIQUIDITY_PROTOCOL_FEES_SF, &value)) return custom(E_MATH);
  }
  yr_write_u64(reserve + RESERVE_LAST_UPDATE_SLOT, slot);
  reserve[RESERVE_LAST_UPDATE_STALE] = 0;
  return YR_SUCCESS;
}

/* klend's collateral exchange rate conversions at total liquidity `total` (scaled) and collateral
 * supply `supply` (rate one when either is zero). */
static YR_NOINLINE bool liquidity_to_collateral(const YrU256 *total, uint64_t supply,
                                                uint64_t liquidity, uint64_t *collateral) {
  if (supply == 0 || u256_is_zero(total)) {
    *collateral = liquidity;
    return true;
  }
  YrU256 n;
  u256_set(&n, 0, supply);
  u256_mul_u64(&n, liquidity);
  u256_shl(&n, FRACTION_BITS);
  return u256_div_u64(&n, total, false, collateral);
}

static YR_NOINLINE bool collateral_to_liquidity(const YrU256 *total, uint64_t supply,
                                                uint64_t collateral, bool ceil,
                                                uint64_t *liquidity) {
  if (supply == 0 || u256_is_zero(total)) {
    *liquidity = collateral;
    return true;
  }
  YrU256 n = *total, d;
  u256_mul_u64(&n, collateral);
  u256_set(&d, 0, supply);
  u256_shl(&d, FRACTION_BITS);
  return u256_div_u64(&n, &d, ceil, liquidity);
}

static uint64_t amount_argument(const SolParameters *params, uint64_t *amount) {
  if (params->data_len != 16) return custom(E_INVALID_INSTRUCTION);
  *amount = yr_read_u64(params->data + 8);
  if (*amount == 0) return custom(E_ZERO_AMOUNT);
  return YR_SUCCESS;
}

/* The accounts of deposit_reserve_liquidity / redeem_reserve_collateral, by role. */
typedef struct {
  SolAccountInfo *owner, *market, *reserve, *authority, *liquidity_mint, *supply, *collateral_mint,
      *user_source, *user_destination, *collateral_token, *liquidity_token, *sysvar;
} ReserveMove;

/* klend's account constraints for both instructions. */
static uint64_t check_reserve_move(const SolParameters *params, const ReserveMove *m,
                                   bool deposit) {
  if (!m->owner->is_signer) return custom(E_NOT_SIGNER);
  if (!is_market(params, m->market) || !is_reserve(params, m->reserve, m->market) ||
      !m->reserve->is_writable || !is_market_authority(params, m->market, m->authority)) {
    return custom(E_INVALID_ACCOUNT);
  }
  if (m->market->data[MARKET_EMERGENCY_MODE] != 0) return custom(E_EMERGENCY);
  const uint8_t *r = m->reserve->data;
  if (!yr_bytes_eq(m->liquidity_mint->key->x, r + LIQUIDITY_MINT, 32) ||
      !yr_bytes_eq(m->supply->key->x, r + LIQUIDITY_SUPPLY_VAULT, 32) ||
      !yr_bytes_eq(m->collateral_mint->key->x, r + COLLATERAL_MINT, 32) ||
      !yr_pubkey_eq(m->collateral_token->key, &YR_TOKEN_PROGRAM_ID) ||
      !yr_pubkey_eq(m->liquidity_token->key, &YR_TOKEN_PROGRAM_ID) ||
      !m->supply->is_writable || !m->collateral_mint->is_writable) {
    return custom(E_INVALID_ACCOUNT);
  }
  /* user token accounts: liquidity in the liquidity mint, collateral in the collateral mint */
  YrTokenAccount liquidity_account, collateral_account;
  const SolAccountInfo *liquidity_side = deposit ? m->user_source : m->user_destination;
  const SolAccountInfo *collateral_side = deposit ? m->user_destination : m->user_source;
  if (!yr_read_token_account(liquidity_side, &liquidity_account) ||
      !yr_pubkey_eq(liquidity_account.mint, m->liquidity_mint->key) ||
      !yr_read_token_account(collateral_side, &collateral_account) ||
      !yr_pubkey_eq(collateral_account.mint, m->collateral_mint->key)) {
    return custom(E_INVALID_ACCOUNT);
  }
  /* instruction_sysvar_account: address = Instructions sysvar */
  static const uint8_t INSTRUCTIONS_SYSVAR[32] = {
      0x06, 0xa7, 0xd5, 0x17, 0x18, 0x7b, 0xd1, 0x66, 0x35, 0xda, 0xd4, 0x04, 0x55, 0xfd, 0xc2, 0xc0,
      0xc1, 0x24, 0xc6, 0x8f, 0x21, 0x56, 0x75, 0xa5, 0xdb, 0xba, 0xcb, 0x5f, 0x08, 0x00, 0x00, 0x00};
  if (!yr_bytes_eq(m->sysvar->key->x, INSTRUCTIONS_SYSVAR, 32)) return custom(E_INVALID_ACCOUNT);
  return YR_SUCCESS;
}

static uint64_t log_move(const char *what, uint64_t liquidity, uint64_t collateral) {
  YrMove move = {"klend_standin", what, "liquidity", liquidity, "collateral", collateral};
  yr_log_move(&move);
  return YR_SUCCESS;
}

/* The market authority's signer seeds live in the caller's frame. */
#define MARKET_SIGNER(m, bump, seeds, signer)                                                    \
  uint8_t bump = (m)->market->data[MARKET_BUMP_SEED];                                          \
  SolSignerSeed seeds[3] = {                                                                   \
      {(const uint8_t *)LMA_SEED, sizeof(LMA_SEED) - 1}, {(m)->market->key->x, 32}, {&bump, 1}}; \
  SolSignerSeeds signer = {seeds, 3}

static YR_NOINLINE uint64_t deposit_liquidity(const ReserveMove *m, uint64_t amount) {
  uint8_t *r = m->reserve->data;
  uint64_t supply = yr_read_u64(r + COLLATERAL_MINT_TOTAL_SUPPLY);
  uint64_t available = yr_read_u64(r + LIQUIDITY_AVAILABLE);
  YrU256 total;
  total_liquidity_sf(r, &total);
  /* collateral = floor(amount × supply / total); liquidity taken = ceil(collateral × total /
   * supply), never more than asked */
  uint64_t collateral, taken;
  if (!liquidity_to_collateral(&total, supply, amount, &collateral) ||
      !collateral_to_liquidity(&total, supply, collateral, true, &taken)) {
    return custom(E_MATH);
  }
  if (collateral == 0 || taken == 0) return custom(E_ZERO_AMOUNT);
  if (taken > amount) return custom(E_MATH);
  YrU256 after, limit;
  u256_set(&after, 0, taken);
  u256_shl(&after, FRACTION_BITS);
  u256_add(&after, &total);
  u256_set(&limit, 0, yr_read_u64(r + CONFIG_DEPOSIT_LIMIT));
  u256_shl(&limit, FRACTION_BITS);
  if (u256_cmp(&after, &limit) > 0) return custom(E_DEPOSIT_LIMIT);
  if (available > UINT64_MAX - taken || supply > UINT64_MAX - collateral) return custom(E_MATH);
  uint64_t ignored;
  uint8_t liquidity_decimals, collateral_decimals;
  if (!yr_read_mint(m->liquidity_mint, &ignored, &liquidity_decimals) ||
      !yr_read_mint(m->collateral_mint, &ignored, &collateral_decimals)) {
    return custom(E_INVALID_ACCOUNT);
  }
  /* The depositor pays what the reserve books, and any skim on top (kept in the supply vault
   * outside the reserve's books: the log and the cTokens say `taken`). */
  uint64_t skim = KLEND_SKIM(m->market, taken);
  if (skim > UINT64_MAX - taken) return custom(E_MATH);
  yr_write_u64(r + LIQUIDITY_AVAILABLE, available + taken);
  yr_write_u64(r + COLLATERAL_MINT_TOTAL_SUPPLY, supply + collateral);
  r[RESERVE_LAST_UPDATE_STALE] = 1;
  MARKET_SIGNER(m, bump, seeds, signer);
  YrTokenMove pay = {m->liquidity_token, m->user_source, m->liquidity_mint, m->supply,
                     m->owner,           taken + skim,   liquidity_decimals, NULL};
  uint64_t result = yr_token_transfer_checked(&pay);
  if (result != 0) return result;
  YrTokenMove mint = {m->collateral_token, NULL,       m->collateral_mint,  m->user_destination,
                      m->authority,        collateral, collateral_decimals, &signer};
  if ((result = yr_token_mint_to(&mint)) != 0) return result;
  return log_move("deposit", taken, collateral);
}

static YR_NOINLINE uint64_t redeem_collateral(const ReserveMove *m, uint64_t amount) {
  uint8_t *r = m->reserve->data;
  uint64_t supply = yr_read_u64(r + COLLATERAL_MINT_TOTAL_SUPPLY);
  uint64_t available = yr_read_u64(r + LIQUIDITY_AVAILABLE);
  if (amount > supply) return custom(E_INSUFFICIENT_LIQUIDITY);
  YrU256 total;
  total_liquidity_sf(r, &total);
  /* liquidity = floor(collateral × total / supply) */
  uint64_t liquidity;
  if (!collateral_to_liquidity(&total, supply, amount, false, &liquidity)) return custom(E_MATH);
  if (liquidity == 0) return custom(E_ZERO_AMOUNT);
  if (liquidity > available) return custom(E_INSUFFICIENT_LIQUIDITY);
  uint64_t ignored;
  uint8_t liquidity_decimals, collateral_decimals;
  if (!yr_read_mint(m->liquidity_mint, &ignored, &liquidity_decimals) ||
      !yr_read_mint(m->collateral_mint, &ignored, &collateral_decimals)) {
    return custom(E_INVALID_ACCOUNT);
  }
  yr_write_u64(r + LIQUIDITY_AVAILABLE, available - liquidity);
  yr_write_u64(r + COLLATERAL_MINT_TOTAL_SUPPLY, supply - amount);
  r[RESERVE_LAST_UPDATE_STALE] = 1;
  MARKET_SIGNER(m, bump, seeds, signer);
  YrTokenMove burn = {m->collateral_token, m->user_source, m->collateral_mint,  NULL,
                      m->owner,            amount,         collateral_decimals, NULL};
  uint64_t result = yr_token_burn(&burn);
  if (result != 0) return result;
  /* The owner is paid what the reserve books less any skim (kept in the supply vault). */
  uint64_t skim = KLEND_SKIM(m->market, liquidity);
  if (skim > liquidity) return custom(E_MATH);
  YrTokenMove pay = {m->liquidity_token, m->supply,        m->liquidity_mint,  m->user_destination,
                     m->authority,       liquidity - skim, liquidity_decimals, &signer};
  if ((result = yr_token_transfer_checked(&pay)) != 0) return result;
  return log_move("redeem", liquidity, amount);
}

/* deposit_reserve_liquidity: [owner (s), reserve (w), lending_market, lending_market_authority,
 * reserve_liquidity_mint, reserve_liquidity_supply (w), reserve_collateral_mint (w),
 * user_source_liquidity (w), user_destination_collateral (w), collateral_token_program,
 * liquidity_token_program, instruction_sysvar_account]
 * redeem_reserve_collateral: [owner (s), lending_market, reserve (w), lending_market_authority,
 * reserve_liquidity_mint, reserve_collateral_mint (w), reserve_liquidity_supply (w),
 * user_source_collateral (w), user_destination_liquidity (w), collateral_token_program,
 * liquidity_token_program, instruction_sysvar_account] */
static uint64_t move_reserve(const SolParameters *params, bool deposit) {
  uint64_t amount;
  uint64_t result = amount_argument(params, &amount);
  if (result != 0) return result;
  if (params->accounts_len < 12) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *a = params->accounts;
  ReserveMove m;
  m.owner = &a[0];
  m.authority = &a[3];
  m.liquidity_mint = &a[4];
  if (deposit) {
    m.reserve = &a[1];
    m.market = &a[2];
    m.supply = &a[5];
    m.collateral_mint = &a[6];
  } else {
    m.market = &a[1];
    m.reserve = &a[2];
    m.collateral_mint = &a[5];
    m.supply = &a[6];
  }
  m.user_source = &a[7];
  m.user_destination = &a[8];
  m.collateral_token = &a[9];
  m.liquidity_token = &a[10];
  m.sysvar = &a[11];
  if ((result = check_reserve_move(params, &m, deposit)) != 0) return result;

  uint8_t *r = m.reserve->data;
  if ((result = refresh(r)) != 0) return result;
  if (r[RESERVE_LAST_UPDATE_STALE] != 0) return custom(E_STALE);
  return deposit ? deposit_liquidity(&m, amount) : redeem_collateral(&m, amount);
}

/* refresh_reserve: [reserve (w), lending_market, pyth_oracle, switchboard_price_oracle,
 * switchboard_twap_oracle, scope_prices] (oracles unused: the stand-in prices nothing). */
static uint64_t refresh_reserve(const SolParameters *params) {
  if (params->data_len != 8) return custom(E_INVALID_INSTRUCTION);
  if (params->accounts_len < 6) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *reserve = &params->accounts[0], *market = &params->accounts[1];
  if (!is_market(params, market) || !is_reserve(params, reserve, market) || !reserve->is_writable) {
    return custom(E_INVALID_ACCOUNT);
  }
  return refresh(reserve->data);
}

/* standin_init_market: [owner (s), lending_market (w: allocated to this program, zeroed)]. */
static uint64_t standin_init_market(const SolParameters *params) {
  if (params->accounts_len < 2) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *owner = &params->accounts[0], *market = &params->accounts[1];
  if (!owner->is_signer) return custom(E_NOT_SIGNER);
  if (!yr_pubkey_eq(market->owner, params->program_id) || market->data_len != MARKET_LEN ||
      !market->is_writable || market->data[0] != 0) {
    return custom(E_INVALID_ACCOUNT);
  }
  uint8_t bump;
  SolPubkey authority;
  SolSignerSeed seeds[2] = {{(const uint8_t *)LMA_SEED, sizeof(LMA_SEED) - 1},
                            {market->key->x, 32}};
  if (sol_try_find_program_address(seeds, 2, params->program_id, &authority, &bump) != 0) {
    return custom(E_INVALID_ACCOUNT);
  }
  memcpy(market->data, MARKET_DISCRIMINATOR, 8);
  yr_write_u64(market->data + MARKET_VERSION, 1);
  yr_write_u64(market->data + MARKET_BUMP_SEED, bump);
  memcpy(market->data + MARKET_OWNER, owner->key->x, 32);
  yr_log("klend_standin: market initialized");
  return YR_SUCCESS;
}

/* standin_init_reserve(borrow_rate_bps: u32, protocol_take_rate_pct: u8): [owner (s),
 * lending_market, reserve (w: allocated, zeroed), liquidity mint, supply vault (a token account of
 * the market authority), collateral mint (authority: the market authority, supply 0), fee vault]. */
static uint64_t standin_init_reserve(const SolParameters *params) {
  if (params->data_len != 8 + 4 + 1) return custom(E_INVALID_INSTRUCTION);
  if (params->accounts_len < 7) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *a = params->accounts;
  SolAccountInfo *owner = &a[0], *market = &a[1], *reserve = &a[2], *liquidity_mint = &a[3],
                 *supply = &a[4], *collateral_mint = &a[5], *fee_vault = &a[6];
  if (!owner->is_signer) return custom(E_NOT_SIGNER);
  if (!is_market(params, market)) return custom(E_INVALID_ACCOUNT);
  if (!yr_bytes_eq(owner->key->x, market->data + MARKET_OWNER, 32)) return custom(E_NOT_OWNER);
  if (!yr_pubkey_eq(reserve->owner, params->program_id) || reserve->data_len != RESERVE_LEN ||
      !reserve->is_writable || reserve->data[0] != 0) {
    return custom(E_INVALID_ACCOUNT);
  }
  uint64_t mint_supply;
  uint8_t decimals, collateral_decimals;
  YrTokenAccount vault;
  if (!yr_read_mint(liquidity_mint, &mint_supply, &decimals) ||
      !yr_read_mint(collateral_mint, &mint_supply, &collateral_decimals) || mint_supply != 0 ||
      !yr_read_token_account(supply, &vault) || !yr_pubkey_eq(vault.mint, liquidity_mint->key)) {
    return custom(E_INVALID_ACCOUNT);
  }
  uint8_t *r = reserve->data;
  memcpy(r, RESERVE_DISCRIMINATOR, 8);
  yr_write_u64(r + RESERVE_VERSION, 1);
  yr_write_u64(r + RESERVE_LAST_UPDATE_SLOT, current_slot());
  r[RESERVE_LAST_UPDATE_STALE] = 0;
  memcpy(r + RESERVE_LENDING_MARKET, market->key->x, 32);
  memcpy(r + LIQUIDITY_MINT, liquidity_mint->key->x, 32);
  memcpy(r + LIQUIDITY_SUPPLY_VAULT, supply->key->x, 32);
  memcpy(r + LIQUIDITY_FEE_VAULT, fee_vault->key->x, 32);
  yr_write_u64(r + LIQUIDITY_MINT_DECIMALS, decimals);
  yr_write_u64(r + LIQUIDITY_CUMULATIVE_BORROW_RATE_BSF, (uint64_t)1 << FRACTION_BITS);
  memcpy(r + LIQUIDITY_TOKEN_PROGRAM, YR_TOKEN_PROGRAM_ID.x, 32);
  memcpy(r + COLLATERAL_MINT, collateral_mint->key->x, 32);
  memcpy(r + COLLATERAL_SUPPLY_VAULT, collateral_mint->key->x, 32);
  r[CONFIG_PROTOCOL_TAKE_RATE_PCT] = params->data[12];
  uint32_t rate = read_u32(params->data + 8);
  for (int i = 0; i < 11; i += 1) {
    write_u32(r + CONFIG_BORROW_RATE_CURVE + 8 * i, i == 0 ? 0 : 10000);
    write_u32(r + CONFIG_BORROW_RATE_CURVE + 8 * i + 4, rate);
  }
  yr_write_u64(r + CONFIG_DEPOSIT_LIMIT, UINT64_MAX);
  yr_write_u64(r + CONFIG_BORROW_LIMIT, UINT64_MAX);
  yr_log("klend_standin: reserve initialized");
  return YR_SUCCESS;
}

/* standin_borrow(amount): the market owner borrows from the reserve (so interest accrues).
 * [owner (s), lending_market, reserve (w), lending_market_authority, liquidity mint, supply vault
 * (w), owner's liquidity account (w), token program]. */
static uint64_t standin_borrow(const SolParameters *params) {
  uint64_t amount;
  uint64_t result = amount_argument(params, &amount);
  if (result != 0) return result;
  if (params->accounts_len < 8) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *a = params->accounts;
  SolAccountInfo *owner = &a[0], *market = &a[1], *reserve = &a[2], *authority = &a[3],
                 *mint = &a[4], *supply = &a[5], *destination = &a[6], *token = &a[7];
  if (!owner->is_signer) return custom(E_NOT_SIGNER);
  if (!is_market(params, market) || !is_reserve(params, reserve, market) ||
      !is_market_authority(params, market, authority) ||
      !yr_bytes_eq(supply->key->x, reserve->data + LIQUIDITY_SUPPLY_VAULT, 32) ||
      !yr_bytes_eq(mint->key->x, reserve->data + LIQUIDITY_MINT, 32) ||
      !yr_pubkey_eq(token->key, &YR_TOKEN_PROGRAM_ID)) {
    return custom(E_INVALID_ACCOUNT);
  }
  if (!yr_bytes_eq(owner->key->x, market->data + MARKET_OWNER, 32)) return custom(E_NOT_OWNER);
  uint8_t *r = reserve->data;
  if ((result = refresh(r)) != 0) return result;
  uint64_t available = yr_read_u64(r + LIQUIDITY_AVAILABLE);
  if (amount > available) return custom(E_INSUFFICIENT_LIQUIDITY);
  yr_write_u64(r + LIQUIDITY_AVAILABLE, available - amount);
  YrU256 borrowed, added;
  u256_read_u128(&borrowed, r + LIQUIDITY_BORROWED_SF);
  u256_set(&added, 0, amount);
  u256_shl(&added, FRACTION_BITS);
  u256_add(&borrowed, &added);
  if (!u256_write_u128(r + LIQUIDITY_BORROWED_SF, &borrowed)) return custom(E_MATH);
  uint64_t ignored;
  uint8_t decimals;
  if (!yr_read_mint(mint, &ignored, &decimals)) return custom(E_INVALID_ACCOUNT);
  uint8_t bump = market->data[MARKET_BUMP_SEED];
  SolSignerSeed seeds[3] = {
      {(const uint8_t *)LMA_SEED, sizeof(LMA_SEED) - 1}, {market->key->x, 32}, {&bump, 1}};
  SolSignerSeeds signer = {seeds, 3};
  YrTokenMove pay = {token, supply, mint, destination, authority, amount, decimals, &signer};
  if ((result = yr_token_transfer_checked(&pay)) != 0) return result;
  return log_move("borrow", amount, 0);
}

uint64_t entrypoint(uint8_t *input) {
  SolParameters params;
  if (!yr_deserialize(input, &params)) return YR_ERROR_INVALID_ARGUMENT;
  if (params.data_len < 8) return custom(E_INVALID_INSTRUCTION);
  const uint8_t *tag = params.data;
  if (yr_bytes_eq(tag, IX_DEPOSIT_RESERVE_LIQUIDITY, 8)) return move_reserve(&params, true);
  if (yr_bytes_eq(tag, IX_REDEEM_RESERVE_COLLATERAL, 8)) return move_reserve(&params, false);
  if (yr_bytes_eq(tag, IX_REFRESH_RESERVE, 8)) return refresh_reserve(&params);
  if (yr_bytes_eq(tag, IX_STANDIN_BORROW, 8)) return standin_borrow(&params);
  if (yr_bytes_eq(tag, IX_STANDIN_INIT_RESERVE, 8)) return standin_init_reserve(&params);
  if (yr_bytes_eq(tag, IX_STANDIN_INIT_MARKET, 8)) return standin_init_market(&params);
#ifdef KLEND_EXTRA_INSTRUCTIONS
  KLEND_EXTRA_INSTRUCTIONS(tag, &params)
#endif
  return custom(E_INVALID_INSTRUCTION);
}
