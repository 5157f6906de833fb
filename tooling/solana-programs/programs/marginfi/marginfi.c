/* Stand-in for marginfi v2 (MFv2hWf31Z9kbCa1snEPYctwafyhdvnV7FZnsebVacA), for the local beds only:
 * the published interface of @mrgnlabs/marginfi-client-v2 6.4.2's IDL 0.1.8 for the instructions
 * a lender uses, its Bank / MarginfiAccount layouts (bytemuck, after the 8-byte discriminator) and
 * its I80F48 share maths; no borrowing, oracles or risk engine beyond the observation-account rule.
 *
 *   marginfi_account_initialize_pda(account_index: u16, third_party_id: Option<u16>)
 *     0 marginfi_group  1 marginfi_account (w, PDA ["marginfi_account", group, authority,
 *     index u16 LE, third_party_id.unwrap_or(0) u16 LE])  2 authority (signer)
 *     3 fee_payer (w, signer)  4 instructions sysvar  5 system program
 *   lending_account_deposit(amount: u64, deposit_up_to_limit: Option<bool>)
 *     0 group  1 marginfi_account (w)  2 authority (signer)  3 bank (w)
 *     4 signer_token_account (w)  5 liquidity_vault (w)  6 token_program
 *     Credits shares = amount / asset_share_value (I80F48 division, truncating).
 *   lending_account_withdraw(amount: u64, withdraw_all: Option<bool>)
 *     0 group  1 marginfi_account (w)  2 authority (signer)  3 bank (w)
 *     4 destination_token_account (w)  5 bank_liquidity_vault_authority (PDA
 *     ["liquidity_vault_auth", bank])  6 liquidity_vault (w)  7 token_program
 *     8.. observation accounts: (bank, oracle) of every balance still active afterwards.
 *     Removes shares = amount / asset_share_value (truncating); withdraw_all pays
 *     floor(shares × asset_share_value) and closes the balance.
 * Ours (interest for the bed; the real program accrues from borrowers at each bank operation):
 *   accrue (tag "YRMFACC\0", amount u64)  0 payer (signer)  1 payer token (w)  2 vault (w)
 *     3 bank (w)  4 token program: `amount` into the vault, and asset_share_value grows by
 *     amount / total_asset_shares. */
#include "yr_solana.c"
#include "yr_u256.h"

#define E_INVALID_INSTRUCTION 1
#define E_NOT_SIGNER 2
#define E_INVALID_ACCOUNT 3
#define E_ZERO_AMOUNT 4
#define E_OVERFLOW 5
#define E_INSUFFICIENT_SHARES 6
#define E_OBSERVATION 7
#define E_NO_SLOT 8

static const uint8_t IX_INIT_PDA[8] = {87, 177, 91, 80, 218, 119, 245, 31};
static const uint8_t IX_DEPOSIT[8] = {171, 94, 235, 103, 82, 64, 212, 140};
static const uint8_t IX_WITHDRAW[8] = {36, 72, 74, 19, 210, 210, 192, 192};
static const uint8_t IX_ACCRUE[8] = {'Y', 'R', 'M', 'F', 'A', 'C', 'C', 0};

static const uint8_t BANK_DISCRIMINATOR[8] = {142, 49, 166, 242, 50, 66, 97, 188};
static const uint8_t ACCOUNT_DISCRIMINATOR[8] = {67, 178, 130, 109, 126, 114, 28, 42};
static const uint8_t GROUP_DISCRIMINATOR[8] = {182, 23, 173, 240, 151, 206, 182, 67};

#define BANK_LEN 1864
#define BANK_GROUP 41
#define BANK_ASSET_SHARE_VALUE 80
#define BANK_LIQUIDITY_VAULT 112
#define BANK_VAULT_AUTHORITY_BUMP 145
#define BANK_TOTAL_ASSET_SHARES 272

#define ACCOUNT_LEN 2312
#define ACCOUNT_GROUP 8
#define ACCOUNT_AUTHORITY 40
#define ACCOUNT_BALANCES 72
#define BALANCE_LEN 104
#define BALANCE_COUNT 16
#define BALANCE_BANK 1
#define BALANCE_ASSET_SHARES 40
/* account_index u16, third_party_index u16, bump u8: before the 3 pad bytes, the liquidation
 * record (32) and the 56 padding bytes that end the account. */
#define ACCOUNT_INDEX 2216
#define ACCOUNT_BUMP 2220

static const char ACCOUNT_SEED[] = "marginfi_account";
static const char VAULT_AUTH_SEED[] = "liquidity_vault_auth";

static uint64_t custom(uint64_t code) {
  sol_log_64_(0x4d46, code, 0, 0, 0); /* "MF", code */
  return code;
}

static bool is_ours(const SolParameters *params, const SolAccountInfo *account, uint64_t len,
                    const uint8_t *discriminator) {
  return yr_pubkey_eq(account->owner, params->program_id) && account->data_len == len &&
         yr_bytes_eq(account->data, discriminator, 8);
}

/* out = a × b for two u128 fields (the product of two I80F48 raws, before the shift). */
static YR_NOINLINE void mul_u128(YrU256 *out, const uint8_t *a, const uint8_t *b) {
  YrU256 high;
  u256_read_u128(out, a);
  u256_read_u128(&high, a);
  u256_mul_u64(out, yr_read_u64(b));
  u256_mul_u64(&high, yr_read_u64(b + 8));
  u256_shl(&high, 64);
  u256_add(out, &high);
}

/* shares = (amount << 96) / value: I80F48::from_num(amount) / asset_share_value, truncating. */
static YR_NOINLINE bool shares_for(uint64_t amount, const uint8_t *value, YrU256 *shares) {
  YrU256 n, d;
  u256_set(&n, 0, amount);
  u256_shl(&n, 96);
  u256_read_u128(&d, value);
  if (u256_is_zero(&d)) return false;
  u256_divmod(&n, &d, shares, NULL);
  return shares->w[2] == 0 && shares->w[3] == 0 && (shares->w[1] >> 63) == 0;
}

/* The group, account and bank checks every lending instruction makes (accounts 0..3). */
static uint64_t check_lending(const SolParameters *params) {
  SolAccountInfo *a = params->accounts;
  SolAccountInfo *group = &a[0], *account = &a[1], *authority = &a[2], *bank = &a[3];
  if (!authority->is_signer) return custom(E_NOT_SIGNER);
  if (!is_ours(params, group, group->data_len, GROUP_DISCRIMINATOR) ||
      !is_ours(params, account, ACCOUNT_LEN, ACCOUNT_DISCRIMINATOR) || !account->is_writable ||
      !is_ours(params, bank, BANK_LEN, BANK_DISCRIMINATOR) || !bank->is_writable ||
      !yr_bytes_eq(account->data + ACCOUNT_GROUP, group->key->x, 32) ||
      !yr_bytes_eq(account->data + ACCOUNT_AUTHORITY, authority->key->x, 32) ||
      !yr_bytes_eq(bank->data + BANK_GROUP, group->key->x, 32)) {
    return custom(E_INVALID_ACCOUNT);
  }
  return YR_SUCCESS;
}

/* The account's active balance in `bank`, or (when `open`) a new one in the first free slot. */
static uint8_t *balance_of(SolAccountInfo *account, const SolPubkey *bank, bool open) {
  uint8_t *free = NULL;
  for (int i = 0; i < BALANCE_COUNT; i += 1) {
    uint8_t *balance = account->data + ACCOUNT_BALANCES + i * BALANCE_LEN;
    if (balance[0] != 0 && yr_bytes_eq(balance + BALANCE_BANK, bank->x, 32)) return balance;
    if (balance[0] == 0 && free == NULL) free = balance;
  }
  if (!open || free == NULL) return NULL;
  sol_memset_(free, 0, BALANCE_LEN);
  free[0] = 1;
  memcpy(free + BALANCE_BANK, bank->x, 32);
  return free;
}

static void log_move(const char *what, uint64_t amount, const YrU256 *shares) {
  YrLine line = {{0}, 0};
  yr_line_text(&line, "marginfi: ");
  yr_line_text(&line, what);
  yr_line_text(&line, " amount=");
  yr_line_u64(&line, amount);
  yr_line_text(&line, " shares_hi=");
  yr_line_u64(&line, shares->w[1]);
  yr_line_text(&line, " shares_lo=");
  yr_line_u64(&line, shares->w[0]);
  yr_line_log(&line);
}

static uint64_t initialize_pda(const SolParameters *params) {
  if (params->accounts_len < 6) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  if (params->data_len != 11 && params->data_len != 13) return custom(E_INVALID_INSTRUCTION);
  SolAccountInfo *a = params->accounts;
  if (!a[2].is_signer || !a[3].is_signer) return custom(E_NOT_SIGNER);
  if (!is_ours(params, &a[0], a[0].data_len, GROUP_DISCRIMINATOR) || a[1].data_len != 0) {
    return custom(E_INVALID_ACCOUNT);
  }
  uint8_t third_party[2] = {0, 0};
  if (params->data[10] == 1 && params->data_len == 13) memcpy(third_party, params->data + 11, 2);
  uint8_t bump;
  SolPubkey expected;
  SolSignerSeed seeds[6] = {{(const uint8_t *)ACCOUNT_SEED, sizeof(ACCOUNT_SEED) - 1},
                            {a[0].key->x, 32},
                            {a[2].key->x, 32},
                            {params->data + 8, 2},
                            {third_party, 2},
                            {&bump, 1}};
  if (sol_try_find_program_address(seeds, 5, params->program_id, &expected, &bump) != 0 ||
      !yr_pubkey_eq(&expected, a[1].key)) {
    return custom(E_INVALID_ACCOUNT);
  }
  SolSignerSeeds signer = {seeds, 6};
  YrCreateAccount create = {&a[3], &a[1], &a[5], ACCOUNT_LEN, params->program_id, &signer};
  uint64_t result = yr_create_pda_account(&create);
  if (result != 0) return result;
  memcpy(a[1].data, ACCOUNT_DISCRIMINATOR, 8);
  memcpy(a[1].data + ACCOUNT_GROUP, a[0].key->x, 32);
  memcpy(a[1].data + ACCOUNT_AUTHORITY, a[2].key->x, 32);
  memcpy(a[1].data + ACCOUNT_INDEX, params->data + 8, 2);
  memcpy(a[1].data + ACCOUNT_INDEX + 2, third_party, 2);
  a[1].data[ACCOUNT_BUMP] = bump;
  return YR_SUCCESS;
}

/* shares += delta (both u128 fields; false on overflow past i128). */
static bool add_shares(uint8_t *field, const YrU256 *delta) {
  YrU256 value;
  u256_read_u128(&value, field);
  u256_add(&value, delta);
  return (value.w[1] >> 63) == 0 && u256_write_u128(field, &value);
}

static uint64_t deposit(const SolParameters *params) {
  if (params->accounts_len < 7) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  if (params->data_len < 17) return custom(E_INVALID_INSTRUCTION);
  uint64_t result = check_lending(params);
  if (result != 0) return result;
  SolAccountInfo *a = params->accounts;
  SolAccountInfo *bank = &a[3];
  uint64_t amount = yr_read_u64(params->data + 8);
  if (amount == 0) return custom(E_ZERO_AMOUNT);
  if (!yr_bytes_eq(bank->data + BANK_LIQUIDITY_VAULT, a[5].key->x, 32)) {
    return custom(E_INVALID_ACCOUNT);
  }
  YrU256 shares;
  if (!shares_for(amount, bank->data + BANK_ASSET_SHARE_VALUE, &shares)) return custom(E_OVERFLOW);
  uint8_t *balance = balance_of(&a[1], bank->key, true);
  if (balance == NULL) return custom(E_NO_SLOT);
  if (!add_shares(balance + BALANCE_ASSET_SHARES, &shares) ||
      !add_shares(bank->data + BANK_TOTAL_ASSET_SHARES, &shares)) {
    return custom(E_OVERFLOW);
  }
  YrTokenMove move = {&a[6], &a[4], NULL, &a[5], &a[2], amount, 0, NULL};
  if ((result = yr_token_transfer(&move)) != 0) return result;
  log_move("deposit", amount, &shares);
  return YR_SUCCESS;
}

/* The risk engine's observation rule: (bank, oracle) for every balance still active. */
static uint64_t check_observation(const SolParameters *params, SolAccountInfo *account) {
  uint64_t given = params->accounts_len - 8, needed = 0;
  for (int i = 0; i < BALANCE_COUNT; i += 1) {
    uint8_t *balance = account->data + ACCOUNT_BALANCES + i * BALANCE_LEN;
    if (balance[0] == 0) continue;
    if (given < needed + 2 ||
        !yr_bytes_eq(params->accounts[8 + needed].key->x, balance + BALANCE_BANK, 32)) {
      return custom(E_OBSERVATION);
    }
    needed += 2;
  }
  return given == needed ? YR_SUCCESS : custom(E_OBSERVATION);
}

static uint64_t withdraw(const SolParameters *params) {
  if (params->accounts_len < 8) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  if (params->data_len < 17) return custom(E_INVALID_INSTRUCTION);
  uint64_t result = check_lending(params);
  if (result != 0) return result;
  SolAccountInfo *a = params->accounts;
  SolAccountInfo *bank = &a[3];
  bool all = params->data_len >= 18 && params->data[16] == 1 && params->data[17] == 1;
  uint8_t bump = bank->data[BANK_VAULT_AUTHORITY_BUMP];
  SolSignerSeed seeds[3] = {{(const uint8_t *)VAULT_AUTH_SEED, sizeof(VAULT_AUTH_SEED) - 1},
                            {bank->key->x, 32},
                            {&bump, 1}};
  SolPubkey authority;
  if (!yr_bytes_eq(bank->data + BANK_LIQUIDITY_VAULT, a[6].key->x, 32) ||
      sol_create_program_address(seeds, 3, params->program_id, &authority) != 0 ||
      !yr_pubkey_eq(&authority, a[5].key)) {
    return custom(E_INVALID_ACCOUNT);
  }
  uint8_t *balance = balance_of(&a[1], bank->key, false);
  if (balance == NULL) return custom(E_INSUFFICIENT_SHARES);
  YrU256 held, shares, total;
  u256_read_u128(&held, balance + BALANCE_ASSET_SHARES);
  uint64_t amount = yr_read_u64(params->data + 8);
  if (all) {
    YrU256 product, one;
    shares = held;
    mul_u128(&product, balance + BALANCE_ASSET_SHARES, bank->data + BANK_ASSET_SHARE_VALUE);
    u256_set(&one, 0, 1);
    u256_shl(&one, 96);
    if (!u256_div_u64(&product, &one, false, &amount)) return custom(E_OVERFLOW);
    sol_memset_(balance, 0, BALANCE_LEN); /* closed */
  } else {
    if (amount == 0) return custom(E_ZERO_AMOUNT);
    if (!shares_for(amount, bank->data + BANK_ASSET_SHARE_VALUE, &shares)) {
      return custom(E_OVERFLOW);
    }
    if (u256_cmp(&shares, &held) > 0) return custom(E_INSUFFICIENT_SHARES);
    u256_sub(&held, &shares);
    u256_write_u128(balance + BALANCE_ASSET_SHARES, &held);
  }
  u256_read_u128(&total, bank->data + BANK_TOTAL_ASSET_SHARES);
  if (u256_cmp(&shares, &total) > 0) return custom(E_INSUFFICIENT_SHARES);
  u256_sub(&total, &shares);
  u256_write_u128(bank->data + BANK_TOTAL_ASSET_SHARES, &total);
  if ((result = check_observation(params, &a[1])) != 0) return result;
  if (amount > 0) {
    SolSignerSeeds signer = {seeds, 3};
    YrTokenMove move = {&a[7], &a[6], NULL, &a[4], &a[5], amount, 0, &signer};
    if ((result = yr_token_transfer(&move)) != 0) return result;
  }
  log_move(all ? "withdraw_all" : "withdraw", amount, &shares);
  return YR_SUCCESS;
}

static uint64_t accrue(const SolParameters *params) {
  if (params->accounts_len < 5) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  if (params->data_len != 16) return custom(E_INVALID_INSTRUCTION);
  SolAccountInfo *a = params->accounts;
  SolAccountInfo *bank = &a[3];
  uint64_t amount = yr_read_u64(params->data + 8);
  if (!a[0].is_signer) return custom(E_NOT_SIGNER);
  if (!is_ours(params, bank, BANK_LEN, BANK_DISCRIMINATOR) || !bank->is_writable ||
      !yr_bytes_eq(bank->data + BANK_LIQUIDITY_VAULT, a[2].key->x, 32)) {
    return custom(E_INVALID_ACCOUNT);
  }
  YrU256 total, growth, value;
  u256_read_u128(&total, bank->data + BANK_TOTAL_ASSET_SHARES);
  if (amount == 0 || u256_is_zero(&total)) return custom(E_ZERO_AMOUNT);
  /* value += (amount << 96) / total_asset_shares: the vault's new USDC spread over every share. */
  YrU256 n;
  u256_set(&n, 0, amount);
  u256_shl(&n, 96);
  u256_divmod(&n, &total, &growth, NULL);
  u256_read_u128(&value, bank->data + BANK_ASSET_SHARE_VALUE);
  u256_add(&value, &growth);
  if ((value.w[1] >> 63) != 0 || !u256_write_u128(bank->data + BANK_ASSET_SHARE_VALUE, &value)) {
    return custom(E_OVERFLOW);
  }
  YrTokenMove move = {&a[4], &a[1], NULL, &a[2], &a[0], amount, 0, NULL};
  uint64_t result = yr_token_transfer(&move);
  if (result != 0) return result;
  log_move("accrue", amount, &growth);
  return YR_SUCCESS;
}

uint64_t entrypoint(uint8_t *input) {
  SolParameters params;
  if (!yr_deserialize(input, &params)) return YR_ERROR_INVALID_ARGUMENT;
  if (params.data_len < 8) return custom(E_INVALID_INSTRUCTION);
  if (yr_bytes_eq(params.data, IX_INIT_PDA, 8)) return initialize_pda(&params);
  if (yr_bytes_eq(params.data, IX_DEPOSIT, 8)) return deposit(&params);
  if (yr_bytes_eq(params.data, IX_WITHDRAW, 8)) return withdraw(&params);
  if (yr_bytes_eq(params.data, IX_ACCRUE, 8)) return accrue(&params);
  return custom(E_INVALID_INSTRUCTION);
}
