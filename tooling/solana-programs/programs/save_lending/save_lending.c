/* Stand-in for Save (Solend) token-lending, for the local beds only, deployed at the program's
 * mainnet id (So1endDq…). The published interface (@solendprotocol/solend-sdk), tag = first
 * data byte:
 *   3 RefreshReserve  [reserve (w), pyth oracle, switchboard oracle]: accrues interest up to
 *     the current slot and marks the reserve fresh.
 *   4 DepositReserveLiquidity { liquidity_amount: u64 }  [source liquidity (w), destination
 *     collateral (w), reserve (w), reserve liquidity supply (w), reserve collateral mint (w),
 *     lending market, lending market authority, user transfer authority (signer), token
 *     program]: mints liquidity_to_collateral(amount) cTokens.
 *   5 RedeemReserveCollateral { collateral_amount: u64 }  [source collateral (w), destination
 *     liquidity (w), reserve (w), reserve collateral mint (w), reserve liquidity supply (w),
 *     lending market (w), lending market authority, user transfer authority (signer), token
 *     program]: burns the cTokens, pays collateral_to_liquidity(amount).
 * Deposits and redeems need the reserve refreshed in the same slot (else ReserveStale) and leave
 * it stale, as the program does. Accounts: Reserve (619 bytes) and LendingMarket (version,
 * bump seed, …) in the SDK's layouts; the market authority is the PDA [market, bump seed].
 * The exchange rate is the program's: rate = collateral supply × WAD / (available + borrowed −
 * protocol fees) in WAD fixed point (1 while empty); deposit floor(amount × rate / WAD), redeem
 * floor(collateral × WAD / rate).
 * Interest (simplified, ours): the borrowed amount grows linearly at the reserve's optimal borrow
 * rate (config, %/year) per slot since the last refresh, the protocol taking its take rate (%)
 * of it as fees; the real program compounds along its utilisation curve. Borrowers are not
 * modelled: the bed sets a borrowed amount and funds the liquidity supply for the payouts. */
#include "yr_solana.c"

/* Our custom error codes (the program's LendingError numbers are not part of this interface). */
#define E_INVALID_INSTRUCTION 1
#define E_NOT_SIGNER 2
#define E_INVALID_ACCOUNT 3
#define E_ZERO_AMOUNT 4
#define E_OVERFLOW 5
#define E_RESERVE_STALE 6
#define E_INSUFFICIENT_LIQUIDITY 7

#define WAD 1000000000000000000ULL
#define SLOTS_PER_YEAR 63072000ULL

#define RESERVE_LEN 619
#define R_VERSION 0
#define R_LAST_SLOT 1
#define R_STALE 9
#define R_MARKET 10
#define R_LIQUIDITY_SUPPLY 75
#define R_PYTH 107
#define R_SWITCHBOARD 139
#define R_AVAILABLE 171
#define R_BORROWED_WADS 179
#define R_CUMULATIVE_RATE_WADS 195
#define R_COLLATERAL_MINT 227
#define R_COLLATERAL_SUPPLY 259
#define R_OPTIMAL_BORROW_RATE 304
#define R_PROTOCOL_TAKE_RATE 372
#define R_PROTOCOL_FEES_WADS 373

#define MARKET_MIN_LEN 34
#define M_VERSION 0
#define M_BUMP 1

/* A build of this program that cheats (programs/save_skimming, issue 44) defines SAVE_SKIM(market,
 * amount): the part of a move it keeps beyond what it books and logs. This one keeps nothing. */
#ifndef SAVE_SKIM
#define SAVE_SKIM(market, amount) 0
#endif

static uint64_t custom(uint64_t code) {
  sol_log_64_(0x5356, code, 0, 0, 0); /* "SV", code */
  return code;
}

/* ---- 256-bit unsigned arithmetic on four 64-bit limbs, least significant first (BPF passes
 * no structs by value: results go through pointers; `out` may alias an input) ---- */
typedef struct {
  uint64_t w[4];
} U256;

static void u256_set(U256 *out, uint64_t lo, uint64_t hi) {
  out->w[0] = lo;
  out->w[1] = hi;
  out->w[2] = 0;
  out->w[3] = 0;
}

static void u256_add(U256 *out, const U256 *a, const U256 *b) {
  uint64_t carry = 0;
  for (int i = 0; i < 4; i += 1) {
    uint64_t sum = a->w[i] + b->w[i];
    uint64_t next = sum < a->w[i];
    uint64_t total = sum + carry;
    out->w[i] = total;
    carry = next | (total < sum);
  }
}

static void u256_sub(U256 *out, const U256 *a, const U256 *b) { /* a >= b */
  uint64_t borrow = 0;
  for (int i = 0; i < 4; i += 1) {
    uint64_t diff = a->w[i] - b->w[i];
    uint64_t next = a->w[i] < b->w[i];
    out->w[i] = diff - borrow;
    borrow = next | (diff < borrow);
  }
}

static int u256_cmp(const U256 *a, const U256 *b) {
  for (int i = 3; i >= 0; i -= 1) {
    if (a->w[i] != b->w[i]) return a->w[i] < b->w[i] ? -1 : 1;
  }
  return 0;
}

/* out = a × b, truncated to 256 bits. */
static void u256_mul_u64(U256 *out, const U256 *a, uint64_t b) {
  uint64_t carry = 0;
  for (int i = 0; i < 4; i += 1) {
    YrU128 product = yr_mul_64(a->w[i], b);
    uint64_t lo = product.lo + carry;
    carry = product.hi + (lo < product.lo);
    out->w[i] = lo;
  }
}

/* out = floor(a / d), d > 0. */
static void u256_div_u64(U256 *out, const U256 *a, uint64_t d) {
  uint64_t remainder = 0;
  for (int i = 3; i >= 0; i -= 1) {
    YrU128 n = {remainder, a->w[i]};
    uint64_t quotient;
    yr_div_128(n, d, &quotient, &remainder);
    out->w[i] = quotient;
  }
}

/* out = floor(a / b), b > 0, bit by bit (`out` must not alias). */
__attribute__((noinline)) static void u256_div(U256 *out, const U256 *a, const U256 *b) {
  U256 remainder;
  u256_set(&remainder, 0, 0);
  u256_set(out, 0, 0);
  for (int bit = 255; bit >= 0; bit -= 1) {
    for (int i = 3; i > 0; i -= 1) {
      remainder.w[i] = (remainder.w[i] << 1) | (remainder.w[i - 1] >> 63);
    }
    remainder.w[0] = (remainder.w[0] << 1) | ((a->w[bit / 64] >> (bit % 64)) & 1);
    if (u256_cmp(&remainder, b) >= 0) {
      u256_sub(&remainder, &remainder, b);
      out->w[bit / 64] |= (uint64_t)1 << (bit % 64);
    }
  }
}

static bool fits_u64(const U256 *a) { return a->w[1] == 0 && a->w[2] == 0 && a->w[3] == 0; }
static bool fits_u128(const U256 *a) { return a->w[2] == 0 && a->w[3] == 0; }

static void read_u128(U256 *out, const uint8_t *bytes) {
  u256_set(out, yr_read_u64(bytes), yr_read_u64(bytes + 8));
}
static void write_u128(uint8_t *bytes, const U256 *value) {
  yr_write_u64(bytes, value->w[0]);
  yr_write_u64(bytes + 8, value->w[1]);
}

/* ---- The reserve ---- */
static bool is_reserve(const SolParameters *params, const SolAccountInfo *reserve) {
  return yr_pubkey_eq(reserve->owner, params->program_id) && reserve->data_len == RESERVE_LEN &&
         reserve->data[R_VERSION] == 1;
}

static uint64_t current_slot(void) {
  uint8_t clock[40];
  sol_get_clock_sysvar(clock);
  return yr_read_u64(clock);
}

/* The collateral exchange rate (WAD-scaled cTokens per liquidity unit), as the program computes
 * it; false when it does not fit a u128 (the program's Rate). */
__attribute__((noinline)) static bool collateral_rate(const uint8_t *reserve, U256 *rate) {
  uint64_t supply = yr_read_u64(reserve + R_COLLATERAL_SUPPLY);
  U256 total, borrowed, fees, numerator;
  u256_set(&total, yr_read_u64(reserve + R_AVAILABLE), 0);
  u256_mul_u64(&total, &total, WAD);
  read_u128(&borrowed, reserve + R_BORROWED_WADS);
  u256_add(&total, &total, &borrowed);
  read_u128(&fees, reserve + R_PROTOCOL_FEES_WADS);
  if (u256_cmp(&total, &fees) <= 0 || supply == 0) {
    u256_set(rate, WAD, 0);
    return true;
  }
  u256_sub(&total, &total, &fees);
  u256_set(&numerator, supply, 0);
  u256_mul_u64(&numerator, &numerator, WAD);
  u256_mul_u64(&numerator, &numerator, WAD);
  u256_div(rate, &numerator, &total);
  return fits_u128(rate);
}

/* value × factor / divisor, read from and written back to a u128 field; false on overflow. */
__attribute__((noinline)) static bool grow_u128(uint8_t *field, uint64_t factor, uint64_t divisor,
                                                U256 *growth) {
  U256 value;
  read_u128(&value, field);
  u256_mul_u64(growth, &value, factor);
  u256_div_u64(growth, growth, divisor);
  u256_add(&value, &value, growth);
  if (!fits_u128(&value)) return false;
  write_u128(field, &value);
  return true;
}

/* RefreshReserve: accrue interest since the last refresh, then mark the reserve fresh. */
__attribute__((noinline)) static uint64_t refresh_reserve(const SolParameters *params) {
  if (params->accounts_len < 3) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *a = params->accounts;
  uint8_t *r = a[0].data;
  if (!is_reserve(params, &a[0]) || !a[0].is_writable ||
      !yr_bytes_eq(a[1].key->x, r + R_PYTH, 32) ||
      !yr_bytes_eq(a[2].key->x, r + R_SWITCHBOARD, 32)) {
    return custom(E_INVALID_ACCOUNT);
  }
  uint64_t slot = current_slot(), last = yr_read_u64(r + R_LAST_SLOT);
  if (slot > last) {
    uint64_t elapsed = slot - last;
    if (elapsed > UINT64_MAX / 256) return custom(E_OVERFLOW);
    uint64_t factor = r[R_OPTIMAL_BORROW_RATE] * elapsed, divisor = 100 * SLOTS_PER_YEAR;
    U256 interest, fee, unused;
    if (!grow_u128(r + R_BORROWED_WADS, factor, divisor, &interest) ||
        !grow_u128(r + R_CUMULATIVE_RATE_WADS, factor, divisor, &unused)) {
      return custom(E_OVERFLOW);
    }
    u256_mul_u64(&fee, &interest, r[R_PROTOCOL_TAKE_RATE]);
    u256_div_u64(&fee, &fee, 100);
    U256 fees;
    read_u128(&fees, r + R_PROTOCOL_FEES_WADS);
    u256_add(&fees, &fees, &fee);
    if (!fits_u128(&fees)) return custom(E_OVERFLOW);
    write_u128(r + R_PROTOCOL_FEES_WADS, &fees);
  }
  yr_write_u64(r + R_LAST_SLOT, slot);
  r[R_STALE] = 0;
  yr_log("save_lending: refresh_reserve");
  return YR_SUCCESS;
}

/* SPL Token Transfer (tag 3), as the program makes it: source, destination, authority (no
 * mint account in this interface, so not TransferChecked). `move->mint` is unused. */
static uint64_t token_transfer(const YrTokenMove *move) {
  uint8_t data[9];
  data[0] = 3;
  yr_write_u64(data + 1, move->amount);
  SolAccountMeta metas[3] = {{move->source->key, true, false},
                             {move->destination->key, true, false},
                             {move->authority->key, false, true}};
  SolAccountInfo infos[3] = {*move->source, *move->destination, *move->authority};
  SolInstruction instruction = {move->token_program->key, metas, 3, data, sizeof(data)};
  return sol_invoke_signed_c(&instruction, infos, 3, move->signer, move->signer == NULL ? 0 : 1);
}

/* The accounts deposit and redeem share, by index. */
typedef struct {
  uint8_t reserve, supply, collateral_mint, market, authority, user, token;
} Layout;

/* Checks the reserve, market, authority, supply, mint and token program; returns the
 * authority's bump seed. */
__attribute__((noinline)) static uint64_t check_reserve(const SolParameters *params,
                                                        const Layout *at, uint8_t *bump) {
  SolAccountInfo *a = params->accounts;
  SolAccountInfo *reserve = &a[at->reserve], *market = &a[at->market];
  if (!a[at->user].is_signer) return custom(E_NOT_SIGNER);
  if (!is_reserve(params, reserve) || !reserve->is_writable ||
      !yr_bytes_eq(reserve->data + R_MARKET, market->key->x, 32) ||
      !yr_pubkey_eq(market->owner, params->program_id) || market->data_len < MARKET_MIN_LEN ||
      market->data[M_VERSION] != 1 ||
      !yr_bytes_eq(reserve->data + R_LIQUIDITY_SUPPLY, a[at->supply].key->x, 32) ||
      !yr_bytes_eq(reserve->data + R_COLLATERAL_MINT, a[at->collateral_mint].key->x, 32) ||
      !yr_pubkey_eq(a[at->token].key, &YR_TOKEN_PROGRAM_ID)) {
    return custom(E_INVALID_ACCOUNT);
  }
  *bump = market->data[M_BUMP];
  SolSignerSeed seeds[2] = {{market->key->x, 32}, {bump, 1}};
  SolPubkey expected;
  if (sol_create_program_address(seeds, 2, params->program_id, &expected) != 0 ||
      !yr_pubkey_eq(&expected, a[at->authority].key)) {
    return custom(E_INVALID_ACCOUNT);
  }
  if (yr_read_u64(reserve->data + R_LAST_SLOT) != current_slot() ||
      reserve->data[R_STALE] != 0) {
    return custom(E_RESERVE_STALE);
  }
  return YR_SUCCESS;
}

static uint64_t amount_argument(const SolParameters *params, uint64_t *amount) {
  if (params->data_len != 9) return custom(E_INVALID_INSTRUCTION);
  *amount = yr_read_u64(params->data + 1);
  if (*amount == 0) return custom(E_ZERO_AMOUNT);
  return YR_SUCCESS;
}

static void log_move(const char *what, uint64_t liquidity, uint64_t collateral) {
  YrMove move = {"save_lending", what, "liquidity", liquidity, "collateral", collateral};
  yr_log_move(&move);
}

/* What a deposit and a redeem both start from, once their checks pass. */
typedef struct {
  uint64_t amount;
  uint8_t bump;
  U256 rate;
} MoveStart;

/* The checks a deposit and a redeem open with: the amount argument, nine accounts, the reserve
 * (accounts at `at`), then the reserve's collateral rate. */
__attribute__((noinline)) static uint64_t start_move(const SolParameters *params, const Layout *at,
                                                     MoveStart *start) {
  uint64_t result = amount_argument(params, &start->amount);
  if (result != 0) return result;
  if (params->accounts_len < 9) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  if ((result = check_reserve(params, at, &start->bump)) != 0) return result;
  if (!collateral_rate(params->accounts[2].data, &start->rate)) return custom(E_OVERFLOW);
  return YR_SUCCESS;
}

__attribute__((noinline)) static uint64_t deposit(const SolParameters *params) {
  static const Layout at = {2, 3, 4, 5, 6, 7, 8};
  MoveStart start;
  uint64_t result = start_move(params, &at, &start);
  if (result != 0) return result;
  uint64_t amount = start.amount;
  uint8_t bump = start.bump;
  const U256 rate = start.rate;
  SolAccountInfo *a = params->accounts;
  uint8_t *r = a[2].data;
  U256 minted;
  u256_mul_u64(&minted, &rate, amount);
  u256_div_u64(&minted, &minted, WAD);
  uint64_t available = yr_read_u64(r + R_AVAILABLE), supply = yr_read_u64(r + R_COLLATERAL_SUPPLY);
  if (!fits_u64(&minted) || available > UINT64_MAX - amount ||
      supply > UINT64_MAX - minted.w[0]) {
    return custom(E_OVERFLOW);
  }
  uint64_t collateral = minted.w[0];
  if (collateral == 0) return custom(E_ZERO_AMOUNT);
  /* The depositor pays what the reserve books, and any skim on top (kept in the liquidity supply
   * outside the reserve's books: the log and the cTokens say `amount`). */
  uint64_t skim = SAVE_SKIM(&a[5], amount);
  if (skim > UINT64_MAX - amount) return custom(E_OVERFLOW);
  yr_write_u64(r + R_AVAILABLE, available + amount);
  yr_write_u64(r + R_COLLATERAL_SUPPLY, supply + collateral);
  r[R_STALE] = 1;
  YrTokenMove pay = {&a[8], &a[0], NULL, &a[3], &a[7], amount + skim, 0, NULL};
  if ((result = token_transfer(&pay)) != 0) return result;
  SolSignerSeed seeds[2] = {{a[5].key->x, 32}, {&bump, 1}};
  SolSignerSeeds signer = {seeds, 2};
  uint64_t mint_supply;
  uint8_t decimals;
  if (!yr_read_mint(&a[4], &mint_supply, &decimals)) return custom(E_INVALID_ACCOUNT);
  YrTokenMove mint = {&a[8], NULL, &a[4], &a[1], &a[6], collateral, decimals, &signer};
  if ((result = yr_token_mint_to(&mint)) != 0) return result;
  log_move("deposit", amount, collateral);
  return YR_SUCCESS;
}

__attribute__((noinline)) static uint64_t redeem(const SolParameters *params) {
  static const Layout at = {2, 4, 3, 5, 6, 7, 8};
  MoveStart start;
  uint64_t result = start_move(params, &at, &start);
  if (result != 0) return result;
  uint64_t collateral = start.amount;
  uint8_t bump = start.bump;
  const U256 rate = start.rate;
  SolAccountInfo *a = params->accounts;
  uint8_t *r = a[2].data;
  U256 scaled, paid;
  u256_set(&scaled, WAD, 0);
  u256_mul_u64(&scaled, &scaled, collateral);
  u256_div(&paid, &scaled, &rate);
  uint64_t available = yr_read_u64(r + R_AVAILABLE), supply = yr_read_u64(r + R_COLLATERAL_SUPPLY);
  if (!fits_u64(&paid) || collateral > supply) return custom(E_OVERFLOW);
  uint64_t liquidity = paid.w[0];
  if (liquidity == 0) return custom(E_ZERO_AMOUNT);
  if (liquidity > available) return custom(E_INSUFFICIENT_LIQUIDITY);
  yr_write_u64(r + R_AVAILABLE, available - liquidity);
  yr_write_u64(r + R_COLLATERAL_SUPPLY, supply - collateral);
  r[R_STALE] = 1;
  uint64_t mint_supply;
  uint8_t decimals;
  if (!yr_read_mint(&a[3], &mint_supply, &decimals)) return custom(E_INVALID_ACCOUNT);
  YrTokenMove burn = {&a[8], &a[0], &a[3], NULL, &a[7], collateral, decimals, NULL};
  if ((result = yr_token_burn(&burn)) != 0) return result;
  SolSignerSeed seeds[2] = {{a[5].key->x, 32}, {&bump, 1}};
  SolSignerSeeds signer = {seeds, 2};
  /* The owner is paid what the reserve books less any skim (kept in the liquidity supply). */
  uint64_t skim = SAVE_SKIM(&a[5], liquidity);
  if (skim > liquidity) return custom(E_OVERFLOW);
  YrTokenMove pay = {&a[8], &a[4], NULL, &a[1], &a[6], liquidity - skim, 0, &signer};
  if ((result = token_transfer(&pay)) != 0) return result;
  log_move("redeem", liquidity, collateral);
  return YR_SUCCESS;
}

uint64_t entrypoint(uint8_t *input) {
  SolParameters params;
  if (!yr_deserialize(input, &params)) return YR_ERROR_INVALID_ARGUMENT;
  if (params.data_len < 1) return custom(E_INVALID_INSTRUCTION);
  switch (params.data[0]) {
    case 3:
      return refresh_reserve(&params);
    case 4:
      return deposit(&params);
    case 5:
      return redeem(&params);
    default:
#ifdef SAVE_EXTRA_INSTRUCTIONS
      SAVE_EXTRA_INSTRUCTIONS(params.data[0], &params)
#endif
      return custom(E_INVALID_INSTRUCTION);
  }
}
