/* Constant-product pool: the executable liquidity the local Jupiter fake routes through, for the
 * local beds only. One pool per ordered mint pair holds two vaults (token accounts its PDA owns);
 * a swap pays `amount_in` into the input vault and the constant-product output, net of the pool
 * fee (taken from the input, left in the vault), out of the other vault to the owner's account.
 * The program enforces the caller's minimum: a fill below `min_out` fails the whole transaction.
 *
 * Pool state: PDA ["pool", mint A, mint B] of this program; it owns both vaults. */
#include "yr_solana.c"

#define E_INVALID_INSTRUCTION 1
#define E_NOT_SIGNER 2
#define E_INVALID_POOL 3
#define E_INVALID_ACCOUNT 4
#define E_ZERO_AMOUNT 5
#define E_OVERFLOW 6
#define E_BELOW_MINIMUM 7
#define E_ALREADY_INITIALIZED 8
#define E_INVALID_FEE 9

static const uint8_t IX_INITIALIZE_POOL[8] = {0x5f, 0xb4, 0x0a, 0xac, 0x54, 0xae, 0xe8, 0x28};
static const uint8_t IX_SWAP[8] = {0xf8, 0xc6, 0x9e, 0x91, 0xe1, 0x75, 0x87, 0xc8};

static const char POOL_SEED[] = "pool";
static const uint8_t POOL_MAGIC[8] = {'Y', 'R', 'C', 'P', 'P', 'O', 'O', 'L'};
#define POOL_LEN 184
#define POOL_ADMIN 8
#define POOL_MINT_A 40
#define POOL_MINT_B 72
#define POOL_VAULT_A 104
#define POOL_VAULT_B 136
#define POOL_FEE_BPS 168
#define POOL_BUMP 176
#define BPS 10000

static uint64_t custom(uint64_t code) {
  sol_log_64_(0x4350, code, 0, 0, 0); /* "CP", code */
  return code;
}

/* The pool account is our PDA ["pool", mint A, mint B, bump] and initialised. */
static bool is_pool(const SolParameters *params, const SolAccountInfo *pool) {
  if (!yr_pubkey_eq(pool->owner, params->program_id) || pool->data_len != POOL_LEN ||
      !yr_bytes_eq(pool->data, POOL_MAGIC, 8)) {
    return false;
  }
  uint8_t bump = pool->data[POOL_BUMP];
  SolSignerSeed seeds[4] = {{(const uint8_t *)POOL_SEED, sizeof(POOL_SEED) - 1},
                            {pool->data + POOL_MINT_A, 32},
                            {pool->data + POOL_MINT_B, 32},
                            {&bump, 1}};
  SolPubkey expected;
  if (sol_create_program_address(seeds, 4, params->program_id, &expected) != 0) return false;
  return yr_pubkey_eq(&expected, pool->key);
}

/* A vault of the pool: a token account of `mint` the pool owns. */
static bool is_vault(const SolAccountInfo *vault, const SolAccountInfo *pool,
                     const SolAccountInfo *mint) {
  YrTokenAccount token;
  return yr_read_token_account(vault, &token) && yr_pubkey_eq(token.owner, pool->key) &&
         yr_pubkey_eq(token.mint, mint->key);
}

/* initialize_pool(fee_bps u64): [admin (signer, w), pool PDA (w), mint A, mint B, vault A,
 * vault B, system program]. Both vaults must be token accounts of their mint owned by the pool. */
static uint64_t initialize_pool(const SolParameters *params) {
  if (params->data_len != 16) return custom(E_INVALID_INSTRUCTION);
  uint64_t fee_bps = yr_read_u64(params->data + 8);
  if (fee_bps >= BPS) return custom(E_INVALID_FEE);
  if (params->accounts_len < 7) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *a = params->accounts;
  SolAccountInfo *admin = &a[0], *pool = &a[1], *mint_a = &a[2], *mint_b = &a[3],
                 *vault_a = &a[4], *vault_b = &a[5];
  if (!admin->is_signer) return custom(E_NOT_SIGNER);
  if (yr_pubkey_eq(mint_a->key, mint_b->key)) return custom(E_INVALID_ACCOUNT);
  uint8_t bump;
  SolPubkey expected;
  SolSignerSeed seeds[4] = {{(const uint8_t *)POOL_SEED, sizeof(POOL_SEED) - 1},
                            {mint_a->key->x, 32},
                            {mint_b->key->x, 32},
                            {&bump, 1}};
  if (sol_try_find_program_address(seeds, 3, params->program_id, &expected, &bump) != 0 ||
      !yr_pubkey_eq(&expected, pool->key)) {
    return custom(E_INVALID_POOL);
  }
  if (pool->data_len != 0) return custom(E_ALREADY_INITIALIZED);
  uint64_t supply;
  uint8_t decimals;
  if (!yr_read_mint(mint_a, &supply, &decimals) || !yr_read_mint(mint_b, &supply, &decimals) ||
      !is_vault(vault_a, pool, mint_a) || !is_vault(vault_b, pool, mint_b)) {
    return custom(E_INVALID_ACCOUNT);
  }
  SolSignerSeeds signer = {seeds, 4};
  YrCreateAccount create = {admin, pool, &a[6], POOL_LEN, params->program_id, &signer};
  uint64_t result = yr_create_pda_account(&create);
  if (result != 0) return result;
  memcpy(pool->data, POOL_MAGIC, 8);
  memcpy(pool->data + POOL_ADMIN, admin->key->x, 32);
  memcpy(pool->data + POOL_MINT_A, mint_a->key->x, 32);
  memcpy(pool->data + POOL_MINT_B, mint_b->key->x, 32);
  memcpy(pool->data + POOL_VAULT_A, vault_a->key->x, 32);
  memcpy(pool->data + POOL_VAULT_B, vault_b->key->x, 32);
  yr_write_u64(pool->data + POOL_FEE_BPS, fee_bps);
  pool->data[POOL_BUMP] = bump;
  yr_log("cp_pool: initialized");
  return YR_SUCCESS;
}

static void log_swap(uint64_t amount_in, uint64_t amount_out, uint64_t fee) {
  YrLine line = {{0}, 0};
  yr_line_text(&line, "cp_pool: swap in=");
  yr_line_u64(&line, amount_in);
  yr_line_text(&line, " out=");
  yr_line_u64(&line, amount_out);
  yr_line_text(&line, " fee=");
  yr_line_u64(&line, fee);
  yr_line_log(&line);
}

/* swap(amount_in u64, min_out u64): [owner (signer, w), pool, owner input account (w),
 * owner output account (w), input vault (w), output vault (w), input mint, output mint,
 * token program]. Either direction of the pair. */
static uint64_t swap(const SolParameters *params) {
  if (params->data_len != 24) return custom(E_INVALID_INSTRUCTION);
  uint64_t amount_in = yr_read_u64(params->data + 8);
  uint64_t min_out = yr_read_u64(params->data + 16);
  if (amount_in == 0) return custom(E_ZERO_AMOUNT);
  if (params->accounts_len < 9) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *a = params->accounts;
  SolAccountInfo *owner = &a[0], *pool = &a[1], *owner_in = &a[2], *owner_out = &a[3],
                 *vault_in = &a[4], *vault_out = &a[5], *mint_in = &a[6], *mint_out = &a[7],
                 *token = &a[8];
  if (!owner->is_signer) return custom(E_NOT_SIGNER);
  if (!is_pool(params, pool)) return custom(E_INVALID_POOL);
  const uint8_t *d = pool->data;
  bool a_to_b = yr_bytes_eq(mint_in->key->x, d + POOL_MINT_A, 32) &&
                yr_bytes_eq(mint_out->key->x, d + POOL_MINT_B, 32) &&
                yr_bytes_eq(vault_in->key->x, d + POOL_VAULT_A, 32) &&
                yr_bytes_eq(vault_out->key->x, d + POOL_VAULT_B, 32);
  bool b_to_a = yr_bytes_eq(mint_in->key->x, d + POOL_MINT_B, 32) &&
                yr_bytes_eq(mint_out->key->x, d + POOL_MINT_A, 32) &&
                yr_bytes_eq(vault_in->key->x, d + POOL_VAULT_B, 32) &&
                yr_bytes_eq(vault_out->key->x, d + POOL_VAULT_A, 32);
  if ((!a_to_b && !b_to_a) || !yr_pubkey_eq(token->key, &YR_TOKEN_PROGRAM_ID)) {
    return custom(E_INVALID_ACCOUNT);
  }
  YrTokenAccount reserve_in, reserve_out;
  uint64_t supply;
  uint8_t decimals_in, decimals_out;
  if (!yr_read_token_account(vault_in, &reserve_in) ||
      !yr_read_token_account(vault_out, &reserve_out) ||
      !yr_read_mint(mint_in, &supply, &decimals_in) ||
      !yr_read_mint(mint_out, &supply, &decimals_out)) {
    return custom(E_INVALID_ACCOUNT);
  }
  /* The fee stays in the input vault: the curve sees the input net of it. */
  uint64_t fee_bps = yr_read_u64(d + POOL_FEE_BPS);
  uint64_t in_after_fee;
  if (!yr_mul_div_floor(amount_in, BPS - fee_bps, BPS, &in_after_fee)) return custom(E_OVERFLOW);
  if (reserve_in.amount > UINT64_MAX - in_after_fee) return custom(E_OVERFLOW);
  uint64_t amount_out;
  if (!yr_mul_div_floor(reserve_out.amount, in_after_fee, reserve_in.amount + in_after_fee,
                        &amount_out)) {
    return custom(E_OVERFLOW);
  }
  if (amount_out == 0) return custom(E_ZERO_AMOUNT);
  if (amount_out < min_out) return custom(E_BELOW_MINIMUM);
  uint8_t bump = d[POOL_BUMP];
  SolSignerSeed seeds[4] = {{(const uint8_t *)POOL_SEED, sizeof(POOL_SEED) - 1},
                            {pool->data + POOL_MINT_A, 32},
                            {pool->data + POOL_MINT_B, 32},
                            {&bump, 1}};
  SolSignerSeeds signer = {seeds, 4};
  uint64_t result;
  YrTokenMove pay = {token, owner_in, mint_in, vault_in, owner, amount_in, decimals_in, NULL};
  if ((result = yr_token_transfer_checked(&pay)) != 0) return result;
  YrTokenMove fill = {token,      vault_out,    mint_out, owner_out,
                      pool,       amount_out,   decimals_out, &signer};
  if ((result = yr_token_transfer_checked(&fill)) != 0) return result;
  log_swap(amount_in, amount_out, amount_in - in_after_fee);
  return YR_SUCCESS;
}

uint64_t entrypoint(uint8_t *input) {
  SolParameters params;
  if (!yr_deserialize(input, &params)) return YR_ERROR_INVALID_ARGUMENT;
  if (params.data_len < 8) return custom(E_INVALID_INSTRUCTION);
  if (yr_bytes_eq(params.data, IX_SWAP, 8)) return swap(&params);
  if (yr_bytes_eq(params.data, IX_INITIALIZE_POOL, 8)) return initialize_pool(&params);
  return custom(E_INVALID_INSTRUCTION);
}
