/* Test venue: the Solana twin of tooling/chain-beds/contracts/TestVault4626.sol, for the local
 * beds only. Depositors put USDC into the venue's reserve and receive receipt tokens (shares) at
 * the venue's share price, total_assets / receipt supply; `accrue` adds USDC to the reserve
 * without minting, so the price rises and harvest has real yield to prove; `withdraw` burns the
 * shares worth the requested USDC (rounded up, in the venue's favour) and pays it out.
 *
 * Venue state: PDA ["venue", receipt mint] of this program; it is also the receipt mint's
 * authority and the reserve token account's owner. */
#include "yr_solana.c"

#define E_INVALID_INSTRUCTION 1
#define E_NOT_SIGNER 2
#define E_INVALID_VENUE 3
#define E_INVALID_ACCOUNT 4
#define E_ZERO_AMOUNT 5
#define E_OVERFLOW 6
#define E_INSUFFICIENT_ASSETS 7
#define E_ALREADY_INITIALIZED 8
#define E_NOT_ADMIN 9

static const uint8_t IX_INITIALIZE_VENUE[8] = {0xd5, 0xcd, 0xd6, 0x0a, 0xe7, 0x73, 0xab, 0x23};
static const uint8_t IX_DEPOSIT[8] = {0xf2, 0x23, 0xc6, 0x89, 0x52, 0xe1, 0xf2, 0xb6};
static const uint8_t IX_WITHDRAW[8] = {0xb7, 0x12, 0x46, 0x9c, 0x94, 0x6d, 0xa1, 0x22};
static const uint8_t IX_ACCRUE[8] = {0x17, 0x4c, 0x80, 0x95, 0xe5, 0xf7, 0x48, 0xe4};

static const char VENUE_SEED[] = "venue";
static const uint8_t VENUE_MAGIC[8] = {'Y', 'R', 'T', 'V', 'E', 'N', 'U', 'E'};
#define VENUE_LEN 152
#define VENUE_ADMIN 8
#define VENUE_USDC_MINT 40
#define VENUE_RECEIPT_MINT 72
#define VENUE_RESERVE 104
#define VENUE_TOTAL_ASSETS 136
#define VENUE_BUMP 144

static uint64_t custom(uint64_t code) {
  sol_log_64_(0x5456, code, 0, 0, 0); /* "TV", code */
  return code;
}

static void log_move(const char *what, uint64_t assets, uint64_t shares) {
  YrMove move = {"test_venue", what, "assets", assets, "shares", shares};
  yr_log_move(&move);
}

/* The venue account is our PDA ["venue", receipt mint, bump] and initialised. */
static bool is_venue(const SolParameters *params, const SolAccountInfo *venue) {
  if (!yr_pubkey_eq(venue->owner, params->program_id) || venue->data_len != VENUE_LEN ||
      !yr_bytes_eq(venue->data, VENUE_MAGIC, 8)) {
    return false;
  }
  uint8_t bump = venue->data[VENUE_BUMP];
  SolSignerSeed seeds[3] = {{(const uint8_t *)VENUE_SEED, sizeof(VENUE_SEED) - 1},
                            {venue->data + VENUE_RECEIPT_MINT, 32},
                            {&bump, 1}};
  SolPubkey expected;
  if (sol_create_program_address(seeds, 3, params->program_id, &expected) != 0) return false;
  return yr_pubkey_eq(&expected, venue->key);
}

static uint64_t amount_argument(const SolParameters *params, uint64_t *amount) {
  if (params->data_len != 16) return custom(E_INVALID_INSTRUCTION);
  *amount = yr_read_u64(params->data + 8);
  if (*amount == 0) return custom(E_ZERO_AMOUNT);
  return YR_SUCCESS;
}

/* initialize_venue: [admin (signer, w), venue PDA (w), USDC mint, receipt mint, reserve,
 * system program]. The receipt mint's authority and the reserve's owner must be the venue. */
static uint64_t initialize_venue(const SolParameters *params) {
  if (params->accounts_len < 6) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *a = params->accounts;
  SolAccountInfo *admin = &a[0], *venue = &a[1], *usdc = &a[2], *receipt = &a[3], *reserve = &a[4];
  if (!admin->is_signer) return custom(E_NOT_SIGNER);
  uint8_t bump;
  SolPubkey expected;
  SolSignerSeed seeds[3] = {{(const uint8_t *)VENUE_SEED, sizeof(VENUE_SEED) - 1},
                            {receipt->key->x, 32},
                            {&bump, 1}};
  if (sol_try_find_program_address(seeds, 2, params->program_id, &expected, &bump) != 0 ||
      !yr_pubkey_eq(&expected, venue->key)) {
    return custom(E_INVALID_VENUE);
  }
  if (venue->data_len != 0) return custom(E_ALREADY_INITIALIZED);
  uint64_t supply;
  uint8_t decimals;
  if (!yr_read_mint(usdc, &supply, &decimals) || !yr_read_mint(receipt, &supply, &decimals) ||
      supply != 0 || receipt->data[0] != 1 || receipt->data[1] != 0 || receipt->data[2] != 0 ||
      receipt->data[3] != 0 || /* COption<Pubkey>: u32 tag 1 = Some */
      !yr_bytes_eq(receipt->data + 4, venue->key->x, 32)) {
    return custom(E_INVALID_ACCOUNT);
  }
  YrTokenAccount token;
  if (!yr_read_token_account(reserve, &token) || !yr_pubkey_eq(token.owner, venue->key) ||
      !yr_pubkey_eq(token.mint, usdc->key)) {
    return custom(E_INVALID_ACCOUNT);
  }
  SolSignerSeeds signer = {seeds, 3};
  YrCreateAccount create = {admin, venue, &a[5], VENUE_LEN, params->program_id, &signer};
  uint64_t result = yr_create_pda_account(&create);
  if (result != 0) return result;
  memcpy(venue->data, VENUE_MAGIC, 8);
  memcpy(venue->data + VENUE_ADMIN, admin->key->x, 32);
  memcpy(venue->data + VENUE_USDC_MINT, usdc->key->x, 32);
  memcpy(venue->data + VENUE_RECEIPT_MINT, receipt->key->x, 32);
  memcpy(venue->data + VENUE_RESERVE, reserve->key->x, 32);
  venue->data[VENUE_BUMP] = bump;
  yr_log("test_venue: initialized");
  return YR_SUCCESS;
}

/* deposit / withdraw(assets): [depositor (signer, w), venue (w), depositor USDC (w),
 * reserve (w), depositor receipt (w), receipt mint (w), USDC mint, token program]. */
static uint64_t move_assets(const SolParameters *params, bool deposit) {
  uint64_t assets;
  uint64_t result = amount_argument(params, &assets);
  if (result != 0) return result;
  if (params->accounts_len < 8) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *a = params->accounts;
  SolAccountInfo *depositor = &a[0], *venue = &a[1], *depositor_usdc = &a[2], *reserve = &a[3],
                 *depositor_receipt = &a[4], *receipt = &a[5], *usdc = &a[6], *token = &a[7];
  if (!depositor->is_signer) return custom(E_NOT_SIGNER);
  if (!is_venue(params, venue) || !venue->is_writable) return custom(E_INVALID_VENUE);
  if (!yr_bytes_eq(reserve->key->x, venue->data + VENUE_RESERVE, 32) ||
      !yr_bytes_eq(receipt->key->x, venue->data + VENUE_RECEIPT_MINT, 32) ||
      !yr_bytes_eq(usdc->key->x, venue->data + VENUE_USDC_MINT, 32) ||
      !yr_pubkey_eq(token->key, &YR_TOKEN_PROGRAM_ID)) {
    return custom(E_INVALID_ACCOUNT);
  }
  uint64_t supply, usdc_supply;
  uint8_t decimals, usdc_decimals;
  if (!yr_read_mint(receipt, &supply, &decimals) ||
      !yr_read_mint(usdc, &usdc_supply, &usdc_decimals)) {
    return custom(E_INVALID_ACCOUNT);
  }
  uint64_t total = yr_read_u64(venue->data + VENUE_TOTAL_ASSETS);
  uint8_t bump = venue->data[VENUE_BUMP];
  SolSignerSeed seeds[3] = {{(const uint8_t *)VENUE_SEED, sizeof(VENUE_SEED) - 1},
                            {receipt->key->x, 32},
                            {&bump, 1}};
  SolSignerSeeds signer = {seeds, 3};
  uint64_t shares;
  if (deposit) {
    /* Shares at the current price, rounded down (in the venue's favour). */
    if (supply == 0 || total == 0) {
      shares = assets;
    } else if (!yr_mul_div_floor(assets, supply, total, &shares)) {
      return custom(E_OVERFLOW);
    }
    if (shares == 0) return custom(E_ZERO_AMOUNT);
    if (total > UINT64_MAX - assets) return custom(E_OVERFLOW);
    yr_write_u64(venue->data + VENUE_TOTAL_ASSETS, total + assets);
    YrTokenMove pay = {token,     depositor_usdc, usdc, reserve, depositor, assets, usdc_decimals,
                       NULL};
    if ((result = yr_token_transfer_checked(&pay)) != 0) return result;
    YrTokenMove mint = {token, NULL, receipt, depositor_receipt, venue, shares, decimals, &signer};
    if ((result = yr_token_mint_to(&mint)) != 0) return result;
    log_move("deposit", assets, shares);
  } else {
    /* The shares worth `assets`, rounded up (in the venue's favour). */
    if (assets > total || supply == 0) return custom(E_INSUFFICIENT_ASSETS);
    if (!yr_mul_div_ceil(assets, supply, total, &shares)) return custom(E_OVERFLOW);
    yr_write_u64(venue->data + VENUE_TOTAL_ASSETS, total - assets);
    YrTokenMove burn = {token, depositor_receipt, receipt, NULL, depositor, shares, decimals, NULL};
    if ((result = yr_token_burn(&burn)) != 0) return result;
    YrTokenMove pay = {token, reserve, usdc, depositor_usdc, venue, assets, usdc_decimals, &signer};
    if ((result = yr_token_transfer_checked(&pay)) != 0) return result;
    log_move("withdraw", assets, shares);
  }
  return YR_SUCCESS;
}

/* accrue(assets): yield arrives. [admin (signer, w), venue (w), admin USDC (w), reserve (w),
 * USDC mint, token program]. */
static uint64_t accrue(const SolParameters *params) {
  uint64_t assets;
  uint64_t result = amount_argument(params, &assets);
  if (result != 0) return result;
  if (params->accounts_len < 6) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *a = params->accounts;
  SolAccountInfo *admin = &a[0], *venue = &a[1], *admin_usdc = &a[2], *reserve = &a[3],
                 *usdc = &a[4], *token = &a[5];
  if (!is_venue(params, venue) || !venue->is_writable) return custom(E_INVALID_VENUE);
  if (!admin->is_signer || !yr_bytes_eq(admin->key->x, venue->data + VENUE_ADMIN, 32)) {
    return custom(E_NOT_ADMIN);
  }
  if (!yr_bytes_eq(reserve->key->x, venue->data + VENUE_RESERVE, 32) ||
      !yr_bytes_eq(usdc->key->x, venue->data + VENUE_USDC_MINT, 32) ||
      !yr_pubkey_eq(token->key, &YR_TOKEN_PROGRAM_ID)) {
    return custom(E_INVALID_ACCOUNT);
  }
  uint64_t supply;
  uint8_t decimals;
  if (!yr_read_mint(usdc, &supply, &decimals)) return custom(E_INVALID_ACCOUNT);
  uint64_t total = yr_read_u64(venue->data + VENUE_TOTAL_ASSETS);
  if (total > UINT64_MAX - assets) return custom(E_OVERFLOW);
  yr_write_u64(venue->data + VENUE_TOTAL_ASSETS, total + assets);
  YrTokenMove pay = {token, admin_usdc, usdc, reserve, admin, assets, decimals, NULL};
  if ((result = yr_token_transfer_checked(&pay)) != 0) return result;
  log_move("accrue", assets, 0);
  return YR_SUCCESS;
}

uint64_t entrypoint(uint8_t *input) {
  SolParameters params;
  if (!yr_deserialize(input, &params)) return YR_ERROR_INVALID_ARGUMENT;
  if (params.data_len < 8) return custom(E_INVALID_INSTRUCTION);
  if (yr_bytes_eq(params.data, IX_DEPOSIT, 8)) return move_assets(&params, true);
  if (yr_bytes_eq(params.data, IX_WITHDRAW, 8)) return move_assets(&params, false);
  if (yr_bytes_eq(params.data, IX_ACCRUE, 8)) return accrue(&params);
  if (yr_bytes_eq(params.data, IX_INITIALIZE_VENUE, 8)) return initialize_venue(&params);
  return custom(E_INVALID_INSTRUCTION);
}
