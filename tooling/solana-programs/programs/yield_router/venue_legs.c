/* Venue legs of the router (included once by yield_router.c, which defines the helpers used here).
 *
 * ---- deposit_to_venue / withdraw_from_venue(amount, plan_id):
 *   0 owner (signer, w)   1 router PDA (w)   2 registry PDA
 *   3 adapter: the protocol account the registry entry is bound to (reserve, pool, bank)
 *   4 venue program (the registered one)     5 Instructions sysvar (the plan memo is checked)
 *   6 venue position PDA ["venue_position", owner, adapter] (w; a deposit creates it)
 *   7 treasury: the registry treasury's token account of the owner's USDC mint (w)
 *   8 Token program   9 System program
 *   10.. the protocol's own accounts for the call, in the protocol's order (its layout header)
 * The registry entry of the adapter names the venue program and the layout; the router checks the
 * leg and the protocol accounts the layout points at, builds the protocol's instruction data
 * (tag ++ u64 amount ++ suffix) and invokes the venue program with the owner's signature and
 * nothing of its own: USDC leaves (or returns to) the owner's account and the receipt is the
 * owner's.
 *
 * After the call it logs `svc:<plan id> venue_usdc delta=<n>`, the USDC the owner's account
 * actually moved (the protocol may take less than the argument: klend rounds), and adds that to
 * the router's lifetime venue totals.
 *
 * The yield skim: around the call the router reads the owner's USDC and receipt balances. A
 * deposit adds the USDC spent to the venue position's principal and the receipts minted to its
 * shares. A withdrawal may burn at most the position's shares; the principal those shares carry
 * is `ceil(principal × burnt / shares)`, the yield is what the owner received above it, and the
 * skim `floor(yield × skim_bps / 10000)` goes from the owner's USDC account to the treasury in
 * the same instruction (the owner's signature, passed on). Contract: docs/venues/solana.md. ---- */
#define VENUE_FIXED_ACCOUNTS 10

/* The registry entry bound to `adapter`, or NULL. */
static const uint8_t *listed_entry(const SolAccountInfo *registry, const SolAccountInfo *adapter) {
  uint64_t count = yr_read_u64(registry->data + REGISTRY_COUNT);
  for (uint64_t i = 0; i < count && i < REGISTRY_MAX; i += 1) {
    const uint8_t *entry = registry->data + REGISTRY_ENTRIES + i * REGISTRY_ENTRY_LEN;
    if (yr_bytes_eq(entry + ENTRY_ADAPTER, adapter->key->x, 32)) return entry;
  }
  return NULL;
}

/* The protocol accounts the layout names: the owner where the protocol wants its signer, the
 * registered account where the protocol reads it, and the owner's token accounts. */
static uint64_t check_venue_accounts(const SolParameters *params, const YrVenueCall *call) {
  SolAccountInfo *a = params->accounts;
  const SolAccountInfo *owner = &a[0], *adapter = &a[3];
  SolAccountInfo *venue_accounts = a + VENUE_FIXED_ACCOUNTS;
  if (params->accounts_len != VENUE_FIXED_ACCOUNTS + call->accounts) {
    return custom(E_VENUE_ACCOUNTS);
  }
  if (!yr_pubkey_eq(venue_accounts[call->owner].key, owner->key) ||
      !venue_accounts[call->owner].is_signer) {
    return custom(E_VENUE_ACCOUNTS);
  }
  if (!yr_pubkey_eq(venue_accounts[call->bound].key, adapter->key)) {
    return custom(E_FOREIGN_RESERVE);
  }
  for (uint8_t i = 0; i < call->owner_tokens_len && i < YR_LAYOUT_MAX_OWNER_TOKENS; i += 1) {
    YrTokenAccount token;
    const SolAccountInfo *account = &venue_accounts[call->owner_tokens[i]];
    if (!yr_read_token_account(account, &token) || !yr_pubkey_eq(token.owner, owner->key)) {
      return custom(E_INVALID_TOKEN_ACCOUNT);
    }
  }
  return YR_SUCCESS;
}

/* The venue position PDA of (owner, adapter): checked, or created when `create` (paid by the
 * owner). A withdrawal without one has nothing recorded to take out. */
static uint64_t open_venue_position(const SolParameters *params, bool create) {
  SolAccountInfo *a = params->accounts;
  SolAccountInfo *owner = &a[0], *adapter = &a[3], *position = &a[6];
  uint8_t bump;
  SolPubkey expected;
  SolSignerSeed seeds[4] = {
      {(const uint8_t *)VENUE_POSITION_SEED, sizeof(VENUE_POSITION_SEED) - 1},
      {owner->key->x, 32},
      {adapter->key->x, 32},
      {&bump, 1}};
  if (sol_try_find_program_address(seeds, 3, params->program_id, &expected, &bump) != 0 ||
      !yr_pubkey_eq(&expected, position->key) || !position->is_writable) {
    return custom(E_INVALID_POSITION);
  }
  if (position->data_len == 0) {
    if (!create) return custom(E_INSUFFICIENT_POSITION);
    if (!yr_pubkey_eq(a[9].key, &YR_SYSTEM_PROGRAM_ID)) return custom(E_INVALID_POSITION);
    SolSignerSeeds signer = {seeds, 4};
    YrCreateAccount account = {owner, position, &a[9], VENUE_POSITION_LEN, params->program_id,
                               &signer};
    uint64_t result = yr_create_pda_account(&account);
    if (result != 0) return result;
    memcpy(position->data, VENUE_POSITION_MAGIC, 8);
    memcpy(position->data + VENUE_POSITION_OWNER, owner->key->x, 32);
    memcpy(position->data + VENUE_POSITION_ADAPTER, adapter->key->x, 32);
    position->data[VENUE_POSITION_BUMP] = bump;
  }
  if (!yr_pubkey_eq(position->owner, params->program_id) ||
      position->data_len != VENUE_POSITION_LEN ||
      !yr_bytes_eq(position->data, VENUE_POSITION_MAGIC, 8) ||
      !yr_bytes_eq(position->data + VENUE_POSITION_OWNER, owner->key->x, 32) ||
      !yr_bytes_eq(position->data + VENUE_POSITION_ADAPTER, adapter->key->x, 32)) {
    return custom(E_INVALID_POSITION);
  }
  return YR_SUCCESS;
}

/* The treasury account: a token account whose token owner is the registry's treasury and whose
 * mint is the owner's USDC account's; the registry must have a fee configuration. */
static uint64_t check_treasury(const SolParameters *params, const YrVenueCall *call) {
  SolAccountInfo *a = params->accounts;
  const SolAccountInfo *registry = &a[2], *treasury = &a[7];
  static const uint8_t zero[32] = {0};
  if (yr_bytes_eq(registry->data + REGISTRY_TREASURY, zero, 32)) {
    return custom(E_FEE_NOT_CONFIGURED);
  }
  if (!yr_pubkey_eq(a[8].key, &YR_TOKEN_PROGRAM_ID)) return custom(E_INVALID_TOKEN_PROGRAM);
  YrTokenAccount token, usdc;
  if (!yr_read_token_account(treasury, &token) || !treasury->is_writable ||
      !yr_bytes_eq(token.owner->x, registry->data + REGISTRY_TREASURY, 32)) {
    return custom(E_INVALID_TREASURY);
  }
  if (!yr_read_token_account(&a[VENUE_FIXED_ACCOUNTS + call->liquidity], &usdc) ||
      !yr_pubkey_eq(usdc.mint, token.mint)) {
    return custom(E_INVALID_TREASURY);
  }
  return YR_SUCCESS;
}

#define MARGINFI_ACCOUNT_LEN 2312
#define MARGINFI_AUTHORITY 40
#define MARGINFI_BALANCES 72
#define MARGINFI_BALANCE_LEN 104
static const uint8_t MARGINFI_ACCOUNT_DISCRIMINATOR[8] = {67, 178, 130, 109, 126, 114, 28, 42};

/* The owner's whole asset shares in the registered bank (account 3) from a MarginfiAccount owned
 * by the venue program whose authority is the owner; 0 for any other account or no balance. */
static uint64_t marginfi_shares(const SolParameters *params, const SolAccountInfo *account) {
  const SolAccountInfo *a = params->accounts;
  if (!yr_pubkey_eq(account->owner, a[4].key) || account->data_len != MARGINFI_ACCOUNT_LEN ||
      !yr_bytes_eq(account->data, MARGINFI_ACCOUNT_DISCRIMINATOR, 8) ||
      !yr_bytes_eq(account->data + MARGINFI_AUTHORITY, a[0].key->x, 32)) {
    return 0;
  }
  for (int i = 0; i < 16; i += 1) {
    const uint8_t *balance = account->data + MARGINFI_BALANCES + i * MARGINFI_BALANCE_LEN;
    if (balance[0] == 0 || !yr_bytes_eq(balance + 1, a[3].key->x, 32)) continue;
    uint64_t lo = yr_read_u64(balance + 40), hi = yr_read_u64(balance + 48);
    if ((hi >> 63) != 0) return 0; /* negative: not an asset */
    return (hi << 16) | (lo >> 48); /* I80F48 → whole shares (hi < 2^48 for any real balance) */
  }
  return 0;
}

/* The owner's USDC and receipt balances (the layout's `liquidity` / `receipt` accounts). */
static void owner_balances(const SolParameters *params, const YrVenueCall *call, uint64_t *usdc,
                           uint64_t *receipts) {
  YrTokenAccount token;
  SolAccountInfo *venue_accounts = params->accounts + VENUE_FIXED_ACCOUNTS;
  *usdc = yr_read_token_account(&venue_accounts[call->liquidity], &token) ? token.amount : 0;
  if (call->receipt_kind == YR_RECEIPT_MARGINFI) {
    *receipts = marginfi_shares(params, &venue_accounts[call->receipt]);
    return;
  }
  *receipts = yr_read_token_account(&venue_accounts[call->receipt], &token) ? token.amount : 0;
}

/* `svc:<plan id> <event> <name>=<n>`. */
static void log_value(const Leg *leg, const char *event, uint64_t value) {
  YrLine line = {{0}, 0};
  yr_line_text(&line, "svc:plan_");
  yr_line_hex(&line, leg->plan_id, 16);
  yr_line_text(&line, " ");
  yr_line_text(&line, event);
  yr_line_u64(&line, value);
  yr_line_log(&line);
}

/* After a deposit: the USDC spent joins the principal, the receipts minted the shares. */
static uint64_t record_deposit(uint8_t *position, uint64_t spent, uint64_t minted) {
  if (!checked_add_at(position + VENUE_POSITION_PRINCIPAL, spent) ||
      !checked_add_at(position + VENUE_POSITION_SHARES, minted)) {
    return custom(E_OVERFLOW);
  }
  return YR_SUCCESS;
}

/* After a withdrawal: the burnt shares leave the position with their part of the principal
 * (rounded up: in the owner's favour, the skim is on what is left), and the skim on the yield
 * above that part is paid from the owner's USDC to the treasury. */
static uint64_t take_skim(const SolParameters *params, const YrVenueCall *call, const Leg *leg,
                          uint64_t burnt, uint64_t received) {
  SolAccountInfo *a = params->accounts;
  uint8_t *position = a[6].data;
  uint64_t shares = yr_read_u64(position + VENUE_POSITION_SHARES);
  uint64_t principal = yr_read_u64(position + VENUE_POSITION_PRINCIPAL);
  /* Receipts the router did not record for this owner (bought or sent from elsewhere) do not
   * leave through it: otherwise moving receipts to a fresh wallet would skip the skim. */
  if (burnt > shares) return custom(E_INSUFFICIENT_POSITION);
  uint64_t part = 0;
  if (burnt > 0 && !yr_mul_div_ceil(principal, burnt, shares, &part)) return custom(E_OVERFLOW);
  yr_write_u64(position + VENUE_POSITION_SHARES, shares - burnt);
  yr_write_u64(position + VENUE_POSITION_PRINCIPAL, principal - part);
  uint64_t yield = received > part ? received - part : 0;
  uint64_t bps = yr_read_u64(a[2].data + REGISTRY_SKIM_BPS);
  uint64_t skim = 0;
  if (!yr_mul_div_floor(yield, bps, 10000, &skim)) return custom(E_OVERFLOW);
  if (skim > 0) {
    YrTokenMove move = {&a[8], &a[VENUE_FIXED_ACCOUNTS + call->liquidity], NULL, &a[7], &a[0],
                        skim, 0, NULL};
    uint64_t result = yr_token_transfer(&move);
    if (result != 0) return result;
  }
  log_value(leg, "venue_skim yield=", yield);
  log_value(leg, "venue_skim amount=", skim);
  return YR_SUCCESS;
}

static uint64_t venue_leg(const SolParameters *params, bool into_venue) {
  Leg leg;
  uint64_t result = parse_leg(params, &leg);
  if (result != 0) return result;
  if (params->accounts_len < VENUE_FIXED_ACCOUNTS) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *a = params->accounts;
  SolAccountInfo *owner = &a[0], *router = &a[1], *registry = &a[2], *adapter = &a[3],
                 *venue = &a[4];
  if (!owner->is_signer) return custom(E_OWNER_NOT_SIGNER);
  if ((result = check_plan_memo(&leg, &a[5])) != 0) return result;
  if (!is_router(params, router) || !router->is_writable) return custom(E_INVALID_ROUTER);
  if (!is_registry(params, registry)) return custom(E_INVALID_REGISTRY);

  /* The adapter must be listed, and the venue program must be the one it is listed with (and
   * own the adapter account): the router invokes no program the operator did not register. */
  const uint8_t *listed = listed_entry(registry, adapter);
  if (listed == NULL) return custom(E_UNLISTED_ADAPTER);
  if (!yr_bytes_eq(listed + ENTRY_PROGRAM, venue->key->x, 32) || !venue->executable ||
      !yr_pubkey_eq(adapter->owner, venue->key)) {
    return custom(E_INVALID_VENUE_PROGRAM);
  }
  const YrVenueLayout *layout = find_layout(listed[ENTRY_LAYOUT]);
  if (layout == NULL) return custom(E_UNKNOWN_LAYOUT);
  const YrVenueCall *call = into_venue ? &layout->deposit : &layout->withdraw;
  if ((result = check_venue_accounts(params, call)) != 0) return result;
  if ((result = check_treasury(params, call)) != 0) return result;
  if ((result = open_venue_position(params, into_venue)) != 0) return result;

  uint8_t data[YR_LAYOUT_MAX_TAG + 8 + YR_LAYOUT_MAX_SUFFIX];
  uint64_t length = 0;
  memcpy(data, call->tag, call->tag_len);
  length += call->tag_len;
  yr_write_u64(data + length, leg.amount);
  length += 8;
  memcpy(data + length, call->suffix, call->suffix_len);
  length += call->suffix_len;
  /* The metas mirror the transaction's flags for the protocol's accounts (the owner's signature
   * is the only one passed on: the router signs nothing here). */
  SolAccountMeta *metas = (SolAccountMeta *)YR_HEAP_SCRATCH;
  for (uint64_t i = 0; i < call->accounts; i += 1) {
    const SolAccountInfo *account = &a[VENUE_FIXED_ACCOUNTS + i];
    metas[i].pubkey = account->key;
    metas[i].is_writable = account->is_writable;
    metas[i].is_signer = account->is_signer;
  }
  uint64_t usdc_before, receipts_before, usdc_after, receipts_after;
  owner_balances(params, call, &usdc_before, &receipts_before);
  SolInstruction instruction = {venue->key, metas, call->accounts, data, length};
  result = sol_invoke_signed_c(&instruction, a, params->accounts_len, NULL, 0);
  if (result != 0) return result;
  owner_balances(params, call, &usdc_after, &receipts_after);
  /* The event names the argument's unit: `amount=` USDC, `shares=` the protocol's receipts. */
  log_event(&leg, into_venue ? "deposit_to_venue" : "withdraw_from_venue",
            call->unit == YR_UNIT_SHARES ? " shares=" : " amount=");
  /* Receipts no token balance shows (a marginfi balance): the router states what it measured. */
  if (call->receipt_kind != YR_RECEIPT_TOKEN) {
    log_value(&leg, "venue_receipts delta=",
              into_venue ? receipts_after - receipts_before : receipts_before - receipts_after);
  }
  if (into_venue ? usdc_after > usdc_before || receipts_after < receipts_before
                 : usdc_after < usdc_before || receipts_after > receipts_before) {
    return custom(E_VENUE_ACCOUNTS);
  }
  /* The USDC the protocol actually moved, which may differ from the argument (klend takes the
   * liquidity its floored cTokens are worth): stated, and counted in the router's totals. */
  uint64_t usdc = into_venue ? usdc_before - usdc_after : usdc_after - usdc_before;
  log_value(&leg, "venue_usdc delta=", usdc);
  if (!checked_add_at(router->data + (into_venue ? ROUTER_VENUE_IN : ROUTER_VENUE_OUT), usdc)) {
    return custom(E_OVERFLOW);
  }
  if (into_venue) {
    return record_deposit(a[6].data, usdc, receipts_after - receipts_before);
  }
  return take_skim(params, call, &leg, receipts_before - receipts_after, usdc);
}
