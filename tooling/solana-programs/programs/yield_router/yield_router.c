/* Yield Router: the Solana program our API prepares owner-signed legs for.
 *
 * Non-custodial: money moves only on the owner's signature; the router PDA holds a USDC vault
 * whose balance is attributed per owner (position PDAs), and venue legs go from the owner
 * straight into a registered venue (adapter) by CPI, receipt tokens back to the owner.
 *
 * Instruction data: 8-byte Anchor discriminator (sha256("global:<name>")[0..8]) then the
 * arguments; money instructions take `amount: u64 LE, plan_id: [u8; 16]`.
 * Accounts, checks, errors and events: README.md ("The Solana router program"). */
#include "yr_solana.c"
#include "layouts/table.h"

/* ---- Errors: Custom(n) ---- */
#define E_INVALID_INSTRUCTION 1
#define E_INVALID_PLAN_ID 2
#define E_OWNER_NOT_SIGNER 3
#define E_INVALID_ROUTER 4
#define E_INVALID_REGISTRY 5
#define E_FOREIGN_VAULT 6
#define E_UNLISTED_ADAPTER 7
#define E_ZERO_AMOUNT 8
#define E_OVERFLOW 9
#define E_NOT_ADMIN 10
#define E_ALREADY_INITIALIZED 11
#define E_REGISTRY_FULL 12
#define E_INVALID_TOKEN_ACCOUNT 13
#define E_INVALID_VENUE_PROGRAM 14
#define E_INSUFFICIENT_POSITION 15
#define E_INVALID_POSITION 16
#define E_INVALID_TOKEN_PROGRAM 17
#define E_NO_PLAN_MEMO 18
#define E_FOREIGN_RESERVE 19 /* the protocol account at the layout's index is not the adapter */
#define E_VENUE_ACCOUNTS 20  /* wrong protocol account count, or the owner not where it signs */
#define E_UNKNOWN_LAYOUT 21  /* a layout id this build does not know */
#define E_FEE_TOO_HIGH 22    /* a skim above YR_MAX_SKIM_BPS */
#define E_FEE_NOT_CONFIGURED 23 /* the registry has no treasury yet: venue legs wait for it */
#define E_INVALID_TREASURY 24   /* not the registry treasury's token account of the owner's mint */

/* ---- Discriminators ---- */
static const uint8_t IX_INITIALIZE[8] = {0xaf, 0xaf, 0x6d, 0x1f, 0x0d, 0x98, 0x9b, 0xed};
static const uint8_t IX_REGISTER_ADAPTER[8] = {0x4a, 0x46, 0xa2, 0x0e, 0xd9, 0x9f, 0xaf, 0xa1};
static const uint8_t IX_DEPOSIT[8] = {0xf2, 0x23, 0xc6, 0x89, 0x52, 0xe1, 0xf2, 0xb6};
static const uint8_t IX_WITHDRAW[8] = {0xb7, 0x12, 0x46, 0x9c, 0x94, 0x6d, 0xa1, 0x22};
static const uint8_t IX_DEPOSIT_TO_VENUE[8] = {0xa5, 0x29, 0x1a, 0xdc, 0xb9, 0x95, 0x0d, 0x1f};
static const uint8_t IX_WITHDRAW_FROM_VENUE[8] = {0xeb, 0x5c, 0xf4, 0x7d, 0x0a, 0xcf, 0x73, 0x2b};
static const uint8_t IX_SET_FEE_CONFIG[8] = {0xdd, 0xde, 0x34, 0xce, 0x72, 0xc6, 0x40, 0x5b};

/* The upgradeable loader: `initialize` is for the program's upgrade authority only. */
static const SolPubkey UPGRADEABLE_LOADER = {{0x02, 0xa8, 0xf6, 0x91, 0x4e, 0x88, 0xa1, 0xb0,
                                              0xe2, 0x10, 0x15, 0x3e, 0xf7, 0x63, 0xae, 0x2b,
                                              0x00, 0xc2, 0xb9, 0x3d, 0x16, 0xc1, 0x24, 0xd2,
                                              0xc0, 0x53, 0x7a, 0x10, 0x04, 0x80, 0x00, 0x00}};

/* The SPL Memo program (v2) and the Instructions sysvar: a leg's transaction must carry the memo
 * `svc:<plan id>` of the plan in its instruction data (what receipts are matched by). */
static const SolPubkey MEMO_PROGRAM = {{0x05, 0x4a, 0x53, 0x5a, 0x99, 0x29, 0x21, 0x06,
                                        0x4d, 0x24, 0xe8, 0x71, 0x60, 0xda, 0x38, 0x7c,
                                        0x7c, 0x35, 0xb5, 0xdd, 0xbc, 0x92, 0xbb, 0x81,
                                        0xe4, 0x1f, 0xa8, 0x40, 0x41, 0x05, 0x44, 0x8d}};
static const SolPubkey INSTRUCTIONS_SYSVAR = {{0x06, 0xa7, 0xd5, 0x17, 0x18, 0x7b, 0xd1, 0x66,
                                               0x35, 0xda, 0xd4, 0x04, 0x55, 0xfd, 0xc2, 0xc0,
                                               0xc1, 0x24, 0xc6, 0x8f, 0x21, 0x56, 0x75, 0xa5,
                                               0xdb, 0xba, 0xcb, 0x5f, 0x08, 0x00, 0x00, 0x00}};

/* ---- Accounts owned by the program ---- */
static const char ROUTER_SEED[] = "yield_router";
static const char REGISTRY_SEED[] = "adapter_registry";
static const char POSITION_SEED[] = "position";
static const char VENUE_POSITION_SEED[] = "venue_position";

/* Router: magic, admin, bump, then lifetime totals (checked: an overflow refuses the leg). */
static const uint8_t ROUTER_MAGIC[8] = {'Y', 'R', 'R', 'O', 'U', 'T', 'E', 'R'};
#define ROUTER_LEN 80
#define ROUTER_ADMIN 8
#define ROUTER_BUMP 40
#define ROUTER_VAULT_IN 48   /* USDC deposited into the router vault, all time */
#define ROUTER_VENUE_IN 56   /* USDC routed into venues, all time */
#define ROUTER_VENUE_OUT 64  /* USDC withdrawn from venues, all time */
#define ROUTER_VAULT_OUT 72  /* USDC withdrawn from the router vault, all time */

/* Registry: magic, bump, count, then entries of (adapter: the protocol account the entry is
 * bound to, venue program, layout id, 7 bytes of padding), then the fee configuration: the yield
 * skim in bps (u64, at most YR_MAX_SKIM_BPS) and the treasury wallet (the token owner of the
 * account a skim is paid to; all zero until `set_fee_config`). */
static const uint8_t REGISTRY_MAGIC[8] = {'Y', 'R', 'A', 'D', 'P', 'T', 'R', '3'};
#define REGISTRY_MAX 16
#define REGISTRY_BUMP 8
#define REGISTRY_COUNT 16
#define REGISTRY_ENTRIES 24
#define REGISTRY_ENTRY_LEN 72
#define ENTRY_ADAPTER 0
#define ENTRY_PROGRAM 32
#define ENTRY_LAYOUT 64
#define REGISTRY_SKIM_BPS (REGISTRY_ENTRIES + REGISTRY_MAX * REGISTRY_ENTRY_LEN)
#define REGISTRY_TREASURY (REGISTRY_SKIM_BPS + 8)
#define REGISTRY_LEN (REGISTRY_TREASURY + 32)
/* The registry maximum of the skim (packages/fees `registryMaxYieldSkimBps`). */
#define YR_MAX_SKIM_BPS 1000

/* Venue position ["venue_position", owner, adapter]: what the owner put into one registered venue
 * through the router and has not taken out yet: principal (USDC micros) and the receipt tokens
 * that principal bought. The skim is taken on the yield above it. */
static const uint8_t VENUE_POSITION_MAGIC[8] = {'Y', 'R', 'V', 'P', 'O', 'S', '0', '1'};
#define VENUE_POSITION_LEN 96
#define VENUE_POSITION_OWNER 8
#define VENUE_POSITION_ADAPTER 40
#define VENUE_POSITION_BUMP 72
#define VENUE_POSITION_PRINCIPAL 80
#define VENUE_POSITION_SHARES 88

/* Position: magic, owner, bump, the owner's USDC in the router vault. */
static const uint8_t POSITION_MAGIC[8] = {'Y', 'R', 'P', 'O', 'S', 'N', '0', '1'};
#define POSITION_LEN 56
#define POSITION_OWNER 8
#define POSITION_BUMP 40
#define POSITION_BALANCE 48

typedef struct {
  const SolParameters *params;
  uint64_t amount;
  const uint8_t *plan_id;
} Leg;

static uint64_t custom(uint64_t code) {
  sol_log_64_(0x5952, code, 0, 0, 0); /* "YR", code: visible in the logs before the error */
  return code;
}

/* The money instructions carry exactly amount + plan id; a plan id is 16 non-zero bytes
 * (`plan_` + 32 hex off chain) and the amount is positive. */
static uint64_t parse_leg(const SolParameters *params, Leg *leg) {
  if (params->data_len != 32) return custom(E_INVALID_PLAN_ID);
  leg->params = params;
  leg->amount = yr_read_u64(params->data + 8);
  leg->plan_id = params->data + 16;
  bool any = false;
  for (int i = 0; i < 16; i += 1) any = any || leg->plan_id[i] != 0;
  if (!any) return custom(E_INVALID_PLAN_ID);
  if (leg->amount == 0) return custom(E_ZERO_AMOUNT);
  return YR_SUCCESS;
}

static uint16_t read_u16(const uint8_t *bytes) { return (uint16_t)(bytes[0] | (bytes[1] << 8)); }

/* The transaction carries a Memo instruction whose text is exactly `svc:plan_<32 hex>` for the
 * leg's plan id. Reads the Instructions sysvar: u16 count, u16 offsets[count], and at each
 * offset u16 account count, (u8 flags + 32-byte key) per account, 32-byte program id, u16 data
 * length, data. */
static uint64_t check_plan_memo(const Leg *leg, const SolAccountInfo *sysvar) {
  if (!yr_pubkey_eq(sysvar->key, &INSTRUCTIONS_SYSVAR)) return custom(E_NO_PLAN_MEMO);
  YrLine memo = {{0}, 0};
  yr_line_text(&memo, "svc:plan_");
  yr_line_hex(&memo, leg->plan_id, 16);
  const uint8_t *data = sysvar->data;
  uint64_t size = sysvar->data_len;
  if (size < 2) return custom(E_NO_PLAN_MEMO);
  uint64_t count = read_u16(data);
  for (uint64_t i = 0; i < count && 2 + 2 * i + 2 <= size; i += 1) {
    uint64_t at = read_u16(data + 2 + 2 * i);
    if (at + 2 > size) break;
    uint64_t program_at = at + 2 + read_u16(data + at) * 33;
    if (program_at + 34 > size) break;
    uint64_t length = read_u16(data + program_at + 32);
    if (program_at + 34 + length > size) break;
    if (yr_bytes_eq(data + program_at, MEMO_PROGRAM.x, 32) && length == memo.len &&
        yr_bytes_eq(data + program_at + 34, (const uint8_t *)memo.text, length)) {
      return YR_SUCCESS;
    }
  }
  return custom(E_NO_PLAN_MEMO);
}

/* `svc:<plan id> <event> amount=<n>` (or `shares=<n>`): the line readers match against the plan. */
static void log_event(const Leg *leg, const char *event, const char *unit) {
  YrLine line = {{0}, 0};
  yr_line_text(&line, "svc:plan_");
  yr_line_hex(&line, leg->plan_id, 16);
  yr_line_text(&line, " ");
  yr_line_text(&line, event);
  yr_line_text(&line, unit);
  yr_line_u64(&line, leg->amount);
  yr_line_log(&line);
}

static bool checked_add_at(uint8_t *field, uint64_t amount) {
  uint64_t value = yr_read_u64(field);
  if (value > UINT64_MAX - amount) return false;
  yr_write_u64(field, value + amount);
  return true;
}

/* The router account is this program's PDA ["yield_router", bump] and initialised. */
static bool is_router(const SolParameters *params, const SolAccountInfo *router) {
  if (!yr_pubkey_eq(router->owner, params->program_id) || router->data_len != ROUTER_LEN) {
    return false;
  }
  if (!yr_bytes_eq(router->data, ROUTER_MAGIC, 8)) return false;
  uint8_t bump = router->data[ROUTER_BUMP];
  SolSignerSeed seeds[2] = {{(const uint8_t *)ROUTER_SEED, sizeof(ROUTER_SEED) - 1}, {&bump, 1}};
  SolPubkey expected;
  if (sol_create_program_address(seeds, 2, params->program_id, &expected) != 0) return false;
  return yr_pubkey_eq(&expected, router->key);
}

static bool is_registry(const SolParameters *params, const SolAccountInfo *registry) {
  if (!yr_pubkey_eq(registry->owner, params->program_id) || registry->data_len != REGISTRY_LEN) {
    return false;
  }
  if (!yr_bytes_eq(registry->data, REGISTRY_MAGIC, 8)) return false;
  uint8_t bump = registry->data[REGISTRY_BUMP];
  SolSignerSeed seeds[2] = {{(const uint8_t *)REGISTRY_SEED, sizeof(REGISTRY_SEED) - 1},
                            {&bump, 1}};
  SolPubkey expected;
  if (sol_create_program_address(seeds, 2, params->program_id, &expected) != 0) return false;
  return yr_pubkey_eq(&expected, registry->key);
}

/* The vault is a USDC token account whose token owner is the router PDA. */
static uint64_t check_vault(const SolAccountInfo *vault, const SolAccountInfo *router,
                            const SolAccountInfo *usdc_mint) {
  YrTokenAccount token;
  if (!yr_read_token_account(vault, &token)) return custom(E_FOREIGN_VAULT);
  if (!yr_pubkey_eq(token.owner, router->key)) return custom(E_FOREIGN_VAULT);
  if (!yr_pubkey_eq(token.mint, usdc_mint->key)) return custom(E_FOREIGN_VAULT);
  return YR_SUCCESS;
}

/* A token account of `mint` whose token owner is `owner`. */
static uint64_t check_owned(const SolAccountInfo *account, const SolAccountInfo *owner,
                            const SolAccountInfo *mint) {
  YrTokenAccount token;
  if (!yr_read_token_account(account, &token) || !yr_pubkey_eq(token.owner, owner->key) ||
      !yr_pubkey_eq(token.mint, mint->key)) {
    return custom(E_INVALID_TOKEN_ACCOUNT);
  }
  return YR_SUCCESS;
}

static uint64_t usdc_decimals(const SolAccountInfo *mint, uint8_t *decimals) {
  uint64_t supply;
  if (!yr_read_mint(mint, &supply, decimals)) return custom(E_INVALID_TOKEN_ACCOUNT);
  return YR_SUCCESS;
}

/* The admin is the program's upgrade authority: the program account (upgradeable loader) points
 * at its ProgramData, whose authority is Some(admin). Nobody else can take the router over by
 * initialising it first. */
static bool is_upgrade_authority(const SolParameters *params, const SolAccountInfo *admin,
                                 const SolAccountInfo *program, const SolAccountInfo *data) {
  if (!yr_pubkey_eq(program->key, params->program_id) ||
      !yr_pubkey_eq(program->owner, &UPGRADEABLE_LOADER) || program->data_len < 36 ||
      program->data[0] != 2 || !yr_bytes_eq(program->data + 4, data->key->x, 32)) {
    return false; /* UpgradeableLoaderState::Program { programdata_address } */
  }
  /* UpgradeableLoaderState::ProgramData { slot, upgrade_authority_address: Option<Pubkey> } */
  return yr_pubkey_eq(data->owner, &UPGRADEABLE_LOADER) && data->data_len >= 45 &&
         data->data[0] == 3 && data->data[12] == 1 && yr_bytes_eq(data->data + 13, admin->key->x, 32);
}

/* ---- initialize: [admin (signer, w), router PDA (w), registry PDA (w), system program,
 *      this program, its ProgramData]; the admin must be the upgrade authority ---- */
static uint64_t initialize(const SolParameters *params) {
  if (params->accounts_len < 6) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  if (params->data_len != 8) return custom(E_INVALID_INSTRUCTION);
  SolAccountInfo *admin = &params->accounts[0];
  SolAccountInfo *router = &params->accounts[1];
  SolAccountInfo *registry = &params->accounts[2];
  const SolAccountInfo *system = &params->accounts[3];
  if (!admin->is_signer ||
      !is_upgrade_authority(params, admin, &params->accounts[4], &params->accounts[5])) {
    return custom(E_NOT_ADMIN);
  }

  uint8_t router_bump, registry_bump;
  SolPubkey expected;
  SolSignerSeed router_seeds[2] = {{(const uint8_t *)ROUTER_SEED, sizeof(ROUTER_SEED) - 1},
                                   {&router_bump, 1}};
  if (sol_try_find_program_address(router_seeds, 1, params->program_id, &expected, &router_bump) !=
          0 ||
      !yr_pubkey_eq(&expected, router->key)) {
    return custom(E_INVALID_ROUTER);
  }
  SolSignerSeed registry_seeds[2] = {{(const uint8_t *)REGISTRY_SEED, sizeof(REGISTRY_SEED) - 1},
                                     {&registry_bump, 1}};
  if (sol_try_find_program_address(registry_seeds, 1, params->program_id, &expected,
                                   &registry_bump) != 0 ||
      !yr_pubkey_eq(&expected, registry->key)) {
    return custom(E_INVALID_REGISTRY);
  }
  if (router->data_len != 0 || registry->data_len != 0) return custom(E_ALREADY_INITIALIZED);

  SolSignerSeeds router_signer = {router_seeds, 2};
  YrCreateAccount create = {admin, router, system, ROUTER_LEN, params->program_id, &router_signer};
  uint64_t result = yr_create_pda_account(&create);
  if (result != 0) return result;
  SolSignerSeeds registry_signer = {registry_seeds, 2};
  YrCreateAccount create_registry = {admin,           registry,       system, REGISTRY_LEN,
                                     params->program_id, &registry_signer};
  result = yr_create_pda_account(&create_registry);
  if (result != 0) return result;

  memcpy(router->data, ROUTER_MAGIC, 8);
  memcpy(router->data + ROUTER_ADMIN, admin->key->x, 32);
  router->data[ROUTER_BUMP] = router_bump;
  memcpy(registry->data, REGISTRY_MAGIC, 8);
  registry->data[REGISTRY_BUMP] = registry_bump;
  yr_log("yield_router: initialized");
  return YR_SUCCESS;
}

/* The layout the router speaks for a registry entry's layout id, or NULL. */
static const YrVenueLayout *find_layout(uint8_t id) {
  for (uint64_t i = 0; i < YR_VENUE_LAYOUT_COUNT; i += 1) {
    if (YR_VENUE_LAYOUTS[i].id == id) return &YR_VENUE_LAYOUTS[i];
  }
  return NULL;
}

/* ---- register_adapter(adapter: Pubkey, venue_program: Pubkey, layout: u8):
 *      [admin (signer), router PDA, registry PDA (w)]. `adapter` is the protocol account the entry
 *      is bound to (a klend reserve, a lending pool, a bank); `layout` a YR_LAYOUT_ID_* this build
 *      knows (layouts/table.h). ---- */
static uint64_t register_adapter(const SolParameters *params) {
  if (params->accounts_len < 3) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  if (params->data_len != 8 + 64 + 1) return custom(E_INVALID_INSTRUCTION);
  const SolAccountInfo *admin = &params->accounts[0];
  const SolAccountInfo *router = &params->accounts[1];
  SolAccountInfo *registry = &params->accounts[2];
  if (!is_router(params, router)) return custom(E_INVALID_ROUTER);
  if (!admin->is_signer || !yr_bytes_eq(admin->key->x, router->data + ROUTER_ADMIN, 32)) {
    return custom(E_NOT_ADMIN);
  }
  if (!is_registry(params, registry) || !registry->is_writable) return custom(E_INVALID_REGISTRY);
  const uint8_t *entry = params->data + 8;
  if (find_layout(entry[64]) == NULL) return custom(E_UNKNOWN_LAYOUT);
  uint64_t count = yr_read_u64(registry->data + REGISTRY_COUNT);
  for (uint64_t i = 0; i < count; i += 1) {
    if (yr_bytes_eq(registry->data + REGISTRY_ENTRIES + i * REGISTRY_ENTRY_LEN, entry, 32)) {
      return custom(E_ALREADY_INITIALIZED);
    }
  }
  if (count >= REGISTRY_MAX) return custom(E_REGISTRY_FULL);
  uint8_t *slot = registry->data + REGISTRY_ENTRIES + count * REGISTRY_ENTRY_LEN;
  memcpy(slot, entry, 65);
  memset(slot + 65, 0, REGISTRY_ENTRY_LEN - 65);
  yr_write_u64(registry->data + REGISTRY_COUNT, count + 1);
  yr_log("yield_router: adapter registered");
  return YR_SUCCESS;
}

/* ---- set_fee_config(skim_bps: u16, treasury: Pubkey): [admin (signer), router PDA, registry
 *      PDA (w)]. The yield skim every venue withdrawal pays, and the wallet whose USDC token
 *      account receives it; a skim above YR_MAX_SKIM_BPS is refused. ---- */
static uint64_t set_fee_config(const SolParameters *params) {
  if (params->accounts_len < 3) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  if (params->data_len != 8 + 2 + 32) return custom(E_INVALID_INSTRUCTION);
  const SolAccountInfo *admin = &params->accounts[0];
  const SolAccountInfo *router = &params->accounts[1];
  SolAccountInfo *registry = &params->accounts[2];
  if (!is_router(params, router)) return custom(E_INVALID_ROUTER);
  if (!admin->is_signer || !yr_bytes_eq(admin->key->x, router->data + ROUTER_ADMIN, 32)) {
    return custom(E_NOT_ADMIN);
  }
  if (!is_registry(params, registry) || !registry->is_writable) return custom(E_INVALID_REGISTRY);
  uint64_t bps = read_u16(params->data + 8);
  if (bps > YR_MAX_SKIM_BPS) return custom(E_FEE_TOO_HIGH);
  static const uint8_t zero[32] = {0};
  if (yr_bytes_eq(params->data + 10, zero, 32)) return custom(E_INVALID_TREASURY);
  yr_write_u64(registry->data + REGISTRY_SKIM_BPS, bps);
  memcpy(registry->data + REGISTRY_TREASURY, params->data + 10, 32);
  sol_log_64_(0x534b494d, bps, 0, 0, 0); /* "SKIM", bps */
  yr_log("yield_router: fee config set");
  return YR_SUCCESS;
}

/* The owner's position PDA ["position", owner, bump]: checked, or created when `create`. */
static uint64_t open_position(const SolParameters *params, SolAccountInfo *owner,
                              SolAccountInfo *position, const SolAccountInfo *system, bool create) {
  uint8_t bump;
  SolPubkey expected;
  SolSignerSeed seeds[3] = {{(const uint8_t *)POSITION_SEED, sizeof(POSITION_SEED) - 1},
                            {owner->key->x, 32},
                            {&bump, 1}};
  if (sol_try_find_program_address(seeds, 2, params->program_id, &expected, &bump) != 0 ||
      !yr_pubkey_eq(&expected, position->key) || !position->is_writable) {
    return custom(E_INVALID_POSITION);
  }
  if (position->data_len == 0) {
    if (!create || system == NULL) return custom(E_INSUFFICIENT_POSITION);
    SolSignerSeeds signer = {seeds, 3};
    YrCreateAccount create = {owner, position, system, POSITION_LEN, params->program_id, &signer};
    uint64_t result = yr_create_pda_account(&create);
    if (result != 0) return result;
    memcpy(position->data, POSITION_MAGIC, 8);
    memcpy(position->data + POSITION_OWNER, owner->key->x, 32);
    position->data[POSITION_BUMP] = bump;
  }
  if (!yr_pubkey_eq(position->owner, params->program_id) || position->data_len != POSITION_LEN ||
      !yr_bytes_eq(position->data, POSITION_MAGIC, 8) ||
      !yr_bytes_eq(position->data + POSITION_OWNER, owner->key->x, 32)) {
    return custom(E_INVALID_POSITION);
  }
  return YR_SUCCESS;
}

/* A deposit or withdraw between the owner and the router vault, its accounts checked. */
typedef struct {
  Leg leg;
  SolAccountInfo *owner, *router, *vault, *owner_usdc, *mint, *token, *position;
  uint8_t decimals;
} VaultLeg;

/* The checks deposit and withdraw share, in the order both made them (so a leg with several
 * faults fails with the same error). Accounts: [owner (signer, w), router PDA (w), vault (w),
 * owner USDC (w), USDC mint, token program, position PDA (w), system program (deposit only),
 * Instructions sysvar]; a deposit creates the position when it has none. */
static uint64_t check_vault_leg(const SolParameters *params, bool is_deposit, VaultLeg *out) {
  uint64_t result = parse_leg(params, &out->leg);
  if (result != 0) return result;
  uint64_t accounts = is_deposit ? 9 : 8;
  if (params->accounts_len < accounts) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *a = params->accounts;
  out->owner = &a[0];
  out->router = &a[1];
  out->vault = &a[2];
  out->owner_usdc = &a[3];
  out->mint = &a[4];
  out->token = &a[5];
  out->position = &a[6];
  if (!out->owner->is_signer) return custom(E_OWNER_NOT_SIGNER);
  if ((result = check_plan_memo(&out->leg, &a[accounts - 1])) != 0) return result;
  if (!is_router(params, out->router) || !out->router->is_writable) {
    return custom(E_INVALID_ROUTER);
  }
  if (!yr_pubkey_eq(out->token->key, &YR_TOKEN_PROGRAM_ID)) {
    return custom(E_INVALID_TOKEN_PROGRAM);
  }
  if ((result = check_vault(out->vault, out->router, out->mint)) != 0) return result;
  if ((result = check_owned(out->owner_usdc, out->owner, out->mint)) != 0) return result;
  if ((result = usdc_decimals(out->mint, &out->decimals)) != 0) return result;
  return open_position(params, out->owner, out->position, is_deposit ? &a[7] : NULL, is_deposit);
}

/* ---- deposit(amount, plan_id): USDC from the owner into the router vault, credited to the
 *      owner's position. ---- */
static uint64_t deposit(const SolParameters *params) {
  VaultLeg v;
  uint64_t result = check_vault_leg(params, true, &v);
  if (result != 0) return result;
  if (!checked_add_at(v.position->data + POSITION_BALANCE, v.leg.amount) ||
      !checked_add_at(v.router->data + ROUTER_VAULT_IN, v.leg.amount)) {
    return custom(E_OVERFLOW);
  }
  YrTokenMove move = {v.token, v.owner_usdc, v.mint, v.vault, v.owner, v.leg.amount, v.decimals,
                      NULL};
  result = yr_token_transfer_checked(&move);
  if (result != 0) return result;
  log_event(&v.leg, "deposit", " amount=");
  return YR_SUCCESS;
}

/* ---- withdraw(amount, plan_id): USDC from the router vault back to the owner, signed by the
 *      router PDA, debited from the owner's position. ---- */
static uint64_t withdraw(const SolParameters *params) {
  VaultLeg v;
  uint64_t result = check_vault_leg(params, false, &v);
  if (result != 0) return result;
  uint64_t balance = yr_read_u64(v.position->data + POSITION_BALANCE);
  if (balance < v.leg.amount) return custom(E_INSUFFICIENT_POSITION);
  yr_write_u64(v.position->data + POSITION_BALANCE, balance - v.leg.amount);
  if (!checked_add_at(v.router->data + ROUTER_VAULT_OUT, v.leg.amount)) return custom(E_OVERFLOW);
  uint8_t bump = v.router->data[ROUTER_BUMP];
  SolSignerSeed seeds[2] = {{(const uint8_t *)ROUTER_SEED, sizeof(ROUTER_SEED) - 1}, {&bump, 1}};
  SolSignerSeeds signer = {seeds, 2};
  YrTokenMove move = {v.token, v.vault, v.mint, v.owner_usdc, v.router, v.leg.amount, v.decimals,
                      &signer};
  result = yr_token_transfer_checked(&move);
  if (result != 0) return result;
  log_event(&v.leg, "withdraw", " amount=");
  return YR_SUCCESS;
}

#include "venue_legs.c"
uint64_t entrypoint(uint8_t *input) {
  SolParameters params;
  if (!yr_deserialize(input, &params)) return YR_ERROR_INVALID_ARGUMENT;
  if (params.data_len < 8) return custom(E_INVALID_INSTRUCTION);
  const uint8_t *tag = params.data;
  if (yr_bytes_eq(tag, IX_DEPOSIT_TO_VENUE, 8)) return venue_leg(&params, true);
  if (yr_bytes_eq(tag, IX_WITHDRAW_FROM_VENUE, 8)) return venue_leg(&params, false);
  if (yr_bytes_eq(tag, IX_DEPOSIT, 8)) return deposit(&params);
  if (yr_bytes_eq(tag, IX_WITHDRAW, 8)) return withdraw(&params);
  if (yr_bytes_eq(tag, IX_REGISTER_ADAPTER, 8)) return register_adapter(&params);
  if (yr_bytes_eq(tag, IX_SET_FEE_CONFIG, 8)) return set_fee_config(&params);
  if (yr_bytes_eq(tag, IX_INITIALIZE, 8)) return initialize(&params);
  return custom(E_INVALID_INSTRUCTION);
}
