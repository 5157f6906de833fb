/* Stand-in for Jupiter Lend Earn, for the local beds only: the same binary is deployed at the
 * lending program's mainnet id (jup3YeL8…) and at the liquidity program's (jupeiUmn…).
 *
 * Lending side, the published interface (IDL in @jup-ag/lend):
 *   deposit(assets: u64)  17 accounts: signer, depositor_token_account, recipient_token_account,
 *     mint, lending_admin, lending (w), f_token_mint (w), supply_token_reserves_liquidity (w),
 *     lending_supply_position_on_liquidity (w), rate_model, vault (w), liquidity (w),
 *     liquidity_program (w), rewards_rate_model, token_program, associated_token_program,
 *     system_program. Mints floor(assets × 1e12 / price) jlTokens to the recipient.
 *   redeem(shares: u64)  18 accounts: signer, owner_token_account, recipient_token_account,
 *     lending_admin, lending, mint, f_token_mint, supply_token_reserves_liquidity,
 *     lending_supply_position_on_liquidity, rate_model, vault, claim_account, liquidity,
 *     liquidity_program, rewards_rate_model, token_program, associated_token_program,
 *     system_program. Burns `shares`, pays floor(shares × price / 1e12) of the asset.
 *   update_rate()  lending (w), mint, f_token_mint, supply_token_reserves_liquidity,
 *     rewards_rate_model.
 * Each first brings the Lending account's token_exchange_price up to date as the program does
 * (rewards left at zero): new = old + old × ((supply price − old liquidity price) × 1e14 /
 * old liquidity price) / 1e14, from the liquidity TokenReserve's supply_exchange_price.
 * Accounts: Lending (Borsh, 196 bytes) and TokenReserve (packed, 192 bytes) in the IDL's layout.
 * The jlToken mint's authority is the lending_admin PDA.
 *
 * Liquidity side, ours (the real lending → liquidity call is `operate`, which no client makes):
 *   pay (tag "YRJLPAY\0", amount)  lending (signer: the lending PDA), vault (w), recipient (w),
 *     mint, liquidity PDA, token program: the asset out of the vault (owned by the liquidity
 *     PDA ["liquidity"]), only for a Lending account of the lending program.
 *   accrue (tag "YRJLACC\0", amount)  payer (signer), payer token (w), vault (w),
 *     token_reserve (w), mint, token program: interest arrives: `amount` into the vault and the
 *     supply exchange price grows by amount / vault balance. */
#include "yr_solana.c"

#define E_INVALID_INSTRUCTION 1
#define E_NOT_SIGNER 2
#define E_INVALID_ACCOUNT 3
#define E_ZERO_AMOUNT 4
#define E_OVERFLOW 5
#define E_NOT_LENDING 6

#define PRICE_PRECISION 1000000000000ULL         /* 1e12 */
#define RETURN_PERCENT_PRECISION 100000000000000ULL /* 1e14 */

static const uint8_t IX_DEPOSIT[8] = {242, 35, 198, 137, 82, 225, 242, 182};
static const uint8_t IX_REDEEM[8] = {184, 12, 86, 149, 70, 196, 97, 225};
static const uint8_t IX_UPDATE_RATE[8] = {24, 225, 53, 189, 72, 212, 225, 178};
static const uint8_t IX_PAY[8] = {'Y', 'R', 'J', 'L', 'P', 'A', 'Y', 0};
static const uint8_t IX_ACCRUE[8] = {'Y', 'R', 'J', 'L', 'A', 'C', 'C', 0};

static const uint8_t LENDING_DISCRIMINATOR[8] = {135, 199, 82, 16, 249, 131, 182, 241};
static const uint8_t TOKEN_RESERVE_DISCRIMINATOR[8] = {21, 18, 59, 135, 120, 20, 31, 12};

/* jup3YeL8QhtSx1e253b2FDvsMNC87fDrgQZivbrndc9 */
static const SolPubkey LENDING_PROGRAM_ID = {{0x0a, 0xfe, 0x1b, 0x91, 0x2e, 0x48, 0x5e, 0x95,
                                              0xfd, 0x15, 0xeb, 0x29, 0x37, 0xdf, 0xfc, 0x4b,
                                              0x37, 0xa3, 0x16, 0xd0, 0xa6, 0x38, 0x12, 0xff,
                                              0x02, 0xba, 0x49, 0xb4, 0xc6, 0xc1, 0x8d, 0x1e}};

#define LENDING_LEN 196
#define LENDING_MINT 8
#define LENDING_F_TOKEN_MINT 40
#define LENDING_LIQUIDITY_PRICE 107
#define LENDING_TOKEN_PRICE 115
#define LENDING_LAST_UPDATE 123
#define LENDING_TOKEN_RESERVES 131
#define LENDING_SUPPLY_POSITION 163
#define LENDING_BUMP 195

#define RESERVE_LEN 192
#define RESERVE_MINT 8
#define RESERVE_VAULT 40
#define RESERVE_LAST_UPDATE 78
#define RESERVE_SUPPLY_PRICE 86

static const char LENDING_ADMIN_SEED[] = "lending_admin";
static const char LENDING_SEED[] = "lending";
static const char LIQUIDITY_SEED[] = "liquidity";

static uint64_t custom(uint64_t code) {
  sol_log_64_(0x4a4c, code, 0, 0, 0); /* "JL", code */
  return code;
}

static void log_move(const char *what, uint64_t assets, uint64_t shares, uint64_t price) {
  YrLine line = {{0}, 0};
  yr_line_text(&line, "jupiter_lend: ");
  yr_line_text(&line, what);
  yr_line_text(&line, " assets=");
  yr_line_u64(&line, assets);
  yr_line_text(&line, " shares=");
  yr_line_u64(&line, shares);
  yr_line_text(&line, " price=");
  yr_line_u64(&line, price);
  yr_line_log(&line);
}

static uint64_t amount_argument(const SolParameters *params, uint64_t *amount) {
  if (params->data_len != 16) return custom(E_INVALID_INSTRUCTION);
  *amount = yr_read_u64(params->data + 8);
  if (*amount == 0) return custom(E_ZERO_AMOUNT);
  return YR_SUCCESS;
}

static bool is_lending(const SolParameters *params, const SolAccountInfo *lending) {
  return yr_pubkey_eq(lending->owner, params->program_id) && lending->data_len == LENDING_LEN &&
         yr_bytes_eq(lending->data, LENDING_DISCRIMINATOR, 8);
}

/* `reserve` is the lending's TokenReserve, owned by `liquidity_program`, for the lending's mint. */
static bool is_token_reserve(const SolAccountInfo *lending, const SolAccountInfo *reserve,
                             const SolAccountInfo *liquidity_program) {
  return yr_bytes_eq(reserve->key->x, lending->data + LENDING_TOKEN_RESERVES, 32) &&
         yr_pubkey_eq(reserve->owner, liquidity_program->key) && reserve->data_len == RESERVE_LEN &&
         yr_bytes_eq(reserve->data, TOKEN_RESERVE_DISCRIMINATOR, 8) &&
         yr_bytes_eq(reserve->data + RESERVE_MINT, lending->data + LENDING_MINT, 32);
}

/* Brings the token exchange price up to date from the liquidity layer's supply price. */
__attribute__((noinline)) static uint64_t update_price(SolAccountInfo *lending, const SolAccountInfo *reserve,
                             uint64_t *price) {
  uint64_t old = yr_read_u64(lending->data + LENDING_TOKEN_PRICE);
  uint64_t old_liquidity = yr_read_u64(lending->data + LENDING_LIQUIDITY_PRICE);
  uint64_t liquidity = yr_read_u64(reserve->data + RESERVE_SUPPLY_PRICE);
  uint64_t next = old;
  if (old_liquidity != 0 && liquidity > old_liquidity) {
    uint64_t percent, growth;
    if (!yr_mul_div_floor(liquidity - old_liquidity, RETURN_PERCENT_PRECISION, old_liquidity,
                          &percent) ||
        !yr_mul_div_floor(old, percent, RETURN_PERCENT_PRECISION, &growth) ||
        old > UINT64_MAX - growth) {
      return custom(E_OVERFLOW);
    }
    next = old + growth;
  }
  uint8_t clock[40];
  sol_get_clock_sysvar(clock);
  yr_write_u64(lending->data + LENDING_TOKEN_PRICE, next);
  yr_write_u64(lending->data + LENDING_LIQUIDITY_PRICE, liquidity);
  yr_write_u64(lending->data + LENDING_LAST_UPDATE, yr_read_u64(clock + 32));
  *price = next;
  return YR_SUCCESS;
}

/* The lending_admin PDA (the jlToken mint authority): its bump, or false if `admin` is not it. */
static bool lending_admin_bump(const SolParameters *params, const SolAccountInfo *admin,
                               uint8_t *bump) {
  SolSignerSeed seeds[1] = {{(const uint8_t *)LENDING_ADMIN_SEED, sizeof(LENDING_ADMIN_SEED) - 1}};
  SolPubkey expected;
  return sol_try_find_program_address(seeds, 1, params->program_id, &expected, bump) == 0 &&
         yr_pubkey_eq(&expected, admin->key);
}

/* The accounts both deposit and redeem check, by their index in each instruction. */
typedef struct {
  uint8_t lending, mint, f_token_mint, reserve, position, vault, liquidity_program, token;
  uint8_t admin;
} Layout;

__attribute__((noinline)) static uint64_t check_market(const SolParameters *params, const Layout *at) {
  SolAccountInfo *a = params->accounts;
  SolAccountInfo *lending = &a[at->lending];
  if (!is_lending(params, lending) || !lending->is_writable) return custom(E_INVALID_ACCOUNT);
  if (!yr_bytes_eq(a[at->mint].key->x, lending->data + LENDING_MINT, 32) ||
      !yr_bytes_eq(a[at->f_token_mint].key->x, lending->data + LENDING_F_TOKEN_MINT, 32) ||
      !yr_bytes_eq(a[at->position].key->x, lending->data + LENDING_SUPPLY_POSITION, 32) ||
      !is_token_reserve(lending, &a[at->reserve], &a[at->liquidity_program]) ||
      !yr_bytes_eq(a[at->vault].key->x, a[at->reserve].data + RESERVE_VAULT, 32) ||
      !yr_pubkey_eq(a[at->token].key, &YR_TOKEN_PROGRAM_ID)) {
    return custom(E_INVALID_ACCOUNT);
  }
  return YR_SUCCESS;
}

__attribute__((noinline)) static uint64_t deposit(const SolParameters *params) {
  uint64_t assets, result = amount_argument(params, &assets);
  if (result != 0) return result;
  if (params->accounts_len < 17) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *a = params->accounts;
  static const Layout at = {5, 3, 6, 7, 8, 10, 12, 14, 4};
  if (!a[0].is_signer) return custom(E_NOT_SIGNER);
  if ((result = check_market(params, &at)) != 0) return result;
  uint8_t admin_bump;
  if (!lending_admin_bump(params, &a[4], &admin_bump)) return custom(E_INVALID_ACCOUNT);
  uint64_t price, shares, supply;
  uint8_t decimals, f_decimals;
  if ((result = update_price(&a[5], &a[7], &price)) != 0) return result;
  if (!yr_mul_div_floor(assets, PRICE_PRECISION, price, &shares)) return custom(E_OVERFLOW);
  if (shares == 0) return custom(E_ZERO_AMOUNT);
  if (!yr_read_mint(&a[3], &supply, &decimals) || !yr_read_mint(&a[6], &supply, &f_decimals)) {
    return custom(E_INVALID_ACCOUNT);
  }
  YrTokenMove pay = {&a[14], &a[1], &a[3], &a[10], &a[0], assets, decimals, NULL};
  if ((result = yr_token_transfer_checked(&pay)) != 0) return result;
  SolSignerSeed seeds[2] = {
      {(const uint8_t *)LENDING_ADMIN_SEED, sizeof(LENDING_ADMIN_SEED) - 1}, {&admin_bump, 1}};
  SolSignerSeeds signer = {seeds, 2};
  YrTokenMove mint = {&a[14], NULL, &a[6], &a[2], &a[4], shares, f_decimals, &signer};
  if ((result = yr_token_mint_to(&mint)) != 0) return result;
  log_move("deposit", assets, shares, price);
  return YR_SUCCESS;
}

/* The liquidity program pays `assets` out of its vault to the recipient, for this lending (the
 * lending PDA signs). `a`: redeem's accounts. */
__attribute__((noinline)) static uint64_t pay_from_liquidity(SolAccountInfo *a, uint64_t assets) {
  uint8_t data[16];
  memcpy(data, IX_PAY, 8);
  yr_write_u64(data + 8, assets);
  SolAccountMeta metas[6] = {{a[4].key, true, true},   {a[10].key, true, false},
                             {a[2].key, true, false},  {a[5].key, false, false},
                             {a[12].key, false, false}, {a[15].key, false, false}};
  /* The infos on the heap: six of them do not fit a stack frame beside the rest. */
  SolAccountInfo *infos = (SolAccountInfo *)YR_HEAP_SCRATCH;
  static const uint8_t PASSED[6] = {4, 10, 2, 5, 12, 15};
  for (int i = 0; i < 6; i += 1) infos[i] = a[PASSED[i]];
  SolInstruction instruction = {a[13].key, metas, 6, data, sizeof(data)};
  uint8_t bump = a[4].data[LENDING_BUMP];
  SolSignerSeed seeds[4] = {{(const uint8_t *)LENDING_SEED, sizeof(LENDING_SEED) - 1},
                            {a[4].data + LENDING_MINT, 32},
                            {a[4].data + LENDING_F_TOKEN_MINT, 32},
                            {&bump, 1}};
  SolSignerSeeds signer = {seeds, 4};
  return sol_invoke_signed_c(&instruction, infos, 6, &signer, 1);
}

__attribute__((noinline)) static uint64_t redeem(const SolParameters *params) {
  uint64_t shares, result = amount_argument(params, &shares);
  if (result != 0) return result;
  if (params->accounts_len < 18) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *a = params->accounts;
  static const Layout at = {4, 5, 6, 7, 8, 10, 13, 15, 3};
  if (!a[0].is_signer) return custom(E_NOT_SIGNER);
  if ((result = check_market(params, &at)) != 0) return result;
  uint8_t admin_bump;
  if (!lending_admin_bump(params, &a[3], &admin_bump)) return custom(E_INVALID_ACCOUNT);
  uint64_t price, assets, supply;
  uint8_t decimals;
  if ((result = update_price(&a[4], &a[7], &price)) != 0) return result;
  if (!yr_mul_div_floor(shares, price, PRICE_PRECISION, &assets)) return custom(E_OVERFLOW);
  if (assets == 0) return custom(E_ZERO_AMOUNT);
  if (!yr_read_mint(&a[6], &supply, &decimals)) return custom(E_INVALID_ACCOUNT);
  YrTokenMove burn = {&a[15], &a[1], &a[6], NULL, &a[0], shares, decimals, NULL};
  if ((result = yr_token_burn(&burn)) != 0) return result;

  if ((result = pay_from_liquidity(a, assets)) != 0) return result;
  log_move("redeem", assets, shares, price);
  return YR_SUCCESS;
}

__attribute__((noinline)) static uint64_t update_rate(const SolParameters *params) {
  if (params->accounts_len < 5) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *a = params->accounts;
  if (!is_lending(params, &a[0]) || !a[0].is_writable) return custom(E_INVALID_ACCOUNT);
  /* The TokenReserve's owner is checked by its discriminator and the lending's stored key. */
  if (!yr_bytes_eq(a[3].key->x, a[0].data + LENDING_TOKEN_RESERVES, 32) ||
      a[3].data_len != RESERVE_LEN || !yr_bytes_eq(a[3].data, TOKEN_RESERVE_DISCRIMINATOR, 8)) {
    return custom(E_INVALID_ACCOUNT);
  }
  uint64_t price;
  uint64_t result = update_price(&a[0], &a[3], &price);
  if (result != 0) return result;
  log_move("update_rate", 0, 0, price);
  return YR_SUCCESS;
}

/* The liquidity PDA ["liquidity"] of this program: its bump, or false if `account` is not it. */
static bool liquidity_bump(const SolParameters *params, const SolAccountInfo *account,
                           uint8_t *bump) {
  SolSignerSeed seeds[1] = {{(const uint8_t *)LIQUIDITY_SEED, sizeof(LIQUIDITY_SEED) - 1}};
  SolPubkey expected;
  return sol_try_find_program_address(seeds, 1, params->program_id, &expected, bump) == 0 &&
         yr_pubkey_eq(&expected, account->key);
}

__attribute__((noinline)) static uint64_t pay(const SolParameters *params) {
  uint64_t amount, result = amount_argument(params, &amount);
  if (result != 0) return result;
  if (params->accounts_len < 6) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *a = params->accounts;
  if (!a[0].is_signer || !yr_pubkey_eq(a[0].owner, &LENDING_PROGRAM_ID) ||
      a[0].data_len != LENDING_LEN || !yr_bytes_eq(a[0].data, LENDING_DISCRIMINATOR, 8)) {
    return custom(E_NOT_LENDING);
  }
  uint8_t bump;
  YrTokenAccount vault;
  uint64_t supply;
  uint8_t decimals;
  if (!liquidity_bump(params, &a[4], &bump) || !yr_read_token_account(&a[1], &vault) ||
      !yr_pubkey_eq(vault.owner, a[4].key) || !yr_read_mint(&a[3], &supply, &decimals)) {
    return custom(E_INVALID_ACCOUNT);
  }
  SolSignerSeed seeds[2] = {{(const uint8_t *)LIQUIDITY_SEED, sizeof(LIQUIDITY_SEED) - 1},
                            {&bump, 1}};
  SolSignerSeeds signer = {seeds, 2};
  YrTokenMove move = {&a[5], &a[1], &a[3], &a[2], &a[4], amount, decimals, &signer};
  return yr_token_transfer_checked(&move);
}

__attribute__((noinline)) static uint64_t accrue(const SolParameters *params) {
  uint64_t amount, result = amount_argument(params, &amount);
  if (result != 0) return result;
  if (params->accounts_len < 6) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *a = params->accounts;
  SolAccountInfo *reserve = &a[3];
  if (!a[0].is_signer) return custom(E_NOT_SIGNER);
  YrTokenAccount vault;
  uint64_t supply;
  uint8_t decimals;
  if (!yr_pubkey_eq(reserve->owner, params->program_id) || reserve->data_len != RESERVE_LEN ||
      !reserve->is_writable || !yr_bytes_eq(reserve->data, TOKEN_RESERVE_DISCRIMINATOR, 8) ||
      !yr_bytes_eq(reserve->data + RESERVE_VAULT, a[2].key->x, 32) ||
      !yr_read_token_account(&a[2], &vault) || vault.amount == 0 ||
      !yr_read_mint(&a[4], &supply, &decimals)) {
    return custom(E_INVALID_ACCOUNT);
  }
  uint64_t price = yr_read_u64(reserve->data + RESERVE_SUPPLY_PRICE), next;
  if (vault.amount > UINT64_MAX - amount ||
      !yr_mul_div_floor(price, vault.amount + amount, vault.amount, &next)) {
    return custom(E_OVERFLOW);
  }
  YrTokenMove move = {&a[5], &a[1], &a[4], &a[2], &a[0], amount, decimals, NULL};
  if ((result = yr_token_transfer_checked(&move)) != 0) return result;
  uint8_t clock[40];
  sol_get_clock_sysvar(clock);
  yr_write_u64(reserve->data + RESERVE_SUPPLY_PRICE, next);
  yr_write_u64(reserve->data + RESERVE_LAST_UPDATE, yr_read_u64(clock + 32));
  log_move("accrue", amount, 0, next);
  return YR_SUCCESS;
}

uint64_t entrypoint(uint8_t *input) {
  SolParameters params;
  if (!yr_deserialize(input, &params)) return YR_ERROR_INVALID_ARGUMENT;
  if (params.data_len < 8) return custom(E_INVALID_INSTRUCTION);
  if (yr_bytes_eq(params.data, IX_DEPOSIT, 8)) return deposit(&params);
  if (yr_bytes_eq(params.data, IX_REDEEM, 8)) return redeem(&params);
  if (yr_bytes_eq(params.data, IX_UPDATE_RATE, 8)) return update_rate(&params);
  if (yr_bytes_eq(params.data, IX_PAY, 8)) return pay(&params);
  if (yr_bytes_eq(params.data, IX_ACCRUE, 8)) return accrue(&params);
  return custom(E_INVALID_INSTRUCTION);
}
