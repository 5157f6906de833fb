/* Bed-only stand-in for Circle's CCTP v2 TokenMessengerMinterV2 on Solana (never deploy it on a
 * cluster). It takes the instructions of the published IDL with the IDL's accounts:
 *
 * handle_receive_{finalized,unfinalized}_message(params), called by MessageTransmitterV2 signing
 *   with ["message_transmitter_authority", this program]: checks the sender is the remote token
 *   messenger registered for the source domain, the token pair of the burn token, the burn
 *   message's version, fee (fee_executed < amount, <= max_fee), expiration and mint recipient
 *   (the recipient token account), then pays amount − fee_executed to the recipient and the fee
 *   to the fee recipient's token account out of the custody token account, signed by the
 *   ["token_minter"] PDA that owns the custody, as Circle's program does.
 * deposit_for_burn(params): checks the amount, max fee, mint recipient, denylist PDA (empty),
 *   remote token messenger, local token and the owner's token account, burns the amount from the
 *   owner's token account (the supply falls), and has MessageTransmitterV2 send the v2 burn
 *   message, signed by ["sender_authority"], into the fresh MessageSent account.
 *
 * What it leaves out: pausing, min fees, burn limits, hooks, admin instructions, the events. */
#include "yr_solana.c"
#include "cctp_standin.h"

#define E_INVALID_INSTRUCTION 1
#define E_INVALID_ACCOUNT 2
#define E_NOT_SIGNER 3
#define E_INVALID_AUTHORITY 4
#define E_INVALID_SENDER 5
#define E_INVALID_TOKEN_PAIR 6
#define E_INVALID_BURN_MESSAGE 7
#define E_FEE 8
#define E_EXPIRED 9
#define E_INVALID_MINT_RECIPIENT 10
#define E_INVALID_AMOUNT 11
#define E_DENYLISTED 12
#define E_INVALID_DESTINATION_DOMAIN 13

static const char SEED_TOKEN_MESSENGER[] = "token_messenger";
static const char SEED_TOKEN_MINTER[] = "token_minter";
static const char SEED_SENDER_AUTHORITY[] = "sender_authority";
static const char SEED_DENYLIST[] = "denylist_account";
static const char SEED_MT_AUTHORITY[] = "message_transmitter_authority";

#define SCRATCH (YR_HEAP_START + 4096)

static uint64_t custom(uint64_t code) {
  sol_log_64_(0x544d, code, 0, 0, 0); /* "TM", code */
  return code;
}

/* The token messenger state at its PDA. */
static bool is_token_messenger(const SolParameters *params, const SolAccountInfo *account) {
  SolSignerSeed seed = {(const uint8_t *)SEED_TOKEN_MESSENGER, sizeof(SEED_TOKEN_MESSENGER) - 1};
  return cctp_is_state(account, params->program_id, TM_MAGIC, TM_LEN) &&
         cctp_is_pda(account, &seed, 1, params->program_id, NULL);
}

/* The token minter state at its PDA; its seeds (with the bump) sign custody transfers. */
static bool is_token_minter(const SolParameters *params, const SolAccountInfo *account,
                            SolSignerSeed *seeds) {
  if (!cctp_is_state(account, params->program_id, MN_MAGIC, MN_LEN)) return false;
  seeds[0].addr = (const uint8_t *)SEED_TOKEN_MINTER;
  seeds[0].len = sizeof(SEED_TOKEN_MINTER) - 1;
  seeds[1].addr = account->data + MN_BUMP;
  seeds[1].len = 1;
  SolPubkey expected;
  if (sol_create_program_address(seeds, 2, params->program_id, &expected) != 0) return false;
  return yr_pubkey_eq(&expected, account->key);
}

/* handle_receive_*_message: [authority PDA (s), token_messenger, remote_token_messenger,
 * token_minter, local_token (w), token_pair, fee recipient token account (w), recipient token
 * account (w), custody token account (w), token program, event authority, program]. */
__attribute__((noinline)) static uint64_t handle_receive(const SolParameters *params) {
  if (params->accounts_len < 10) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *a = params->accounts;
  SolAccountInfo *authority = &a[0], *messenger = &a[1], *remote = &a[2], *minter = &a[3],
                 *local_token = &a[4], *pair = &a[5], *fee_account = &a[6], *recipient = &a[7],
                 *custody = &a[8], *token_program = &a[9];
  /* HandleReceiveMessageParams: remote_domain u32, sender, finality u32, body, authority_bump. */
  if (params->data_len < 53) return custom(E_INVALID_INSTRUCTION);
  const uint8_t *p = params->data + 8;
  uint32_t remote_domain = cctp_read_u32_le(p);
  const uint8_t *sender = p + 4;
  uint64_t body_len = cctp_read_u32_le(p + 40);
  if (53 + body_len != params->data_len) return custom(E_INVALID_INSTRUCTION);
  const uint8_t *body = p + 44;
  uint8_t authority_bump = body[body_len];

  if (!is_token_messenger(params, messenger)) return custom(E_INVALID_ACCOUNT);
  /* Only MessageTransmitterV2 signs for ["message_transmitter_authority", this program]. */
  SolSignerSeed authority_seeds[3] = {
      {(const uint8_t *)SEED_MT_AUTHORITY, sizeof(SEED_MT_AUTHORITY) - 1},
      {params->program_id->x, 32},
      {&authority_bump, 1}};
  SolPubkey expected;
  if (!authority->is_signer ||
      sol_create_program_address(authority_seeds, 3,
                                 (const SolPubkey *)(messenger->data + TM_MESSAGE_TRANSMITTER),
                                 &expected) != 0 ||
      !yr_pubkey_eq(&expected, authority->key)) {
    return custom(E_INVALID_AUTHORITY);
  }
  if (!cctp_is_state(remote, params->program_id, RM_MAGIC, RM_LEN) ||
      cctp_read_u32_le(remote->data + RM_DOMAIN) != remote_domain) {
    return custom(E_INVALID_ACCOUNT);
  }
  if (!yr_bytes_eq(sender, remote->data + RM_TOKEN_MESSENGER, 32)) {
    return custom(E_INVALID_SENDER);
  }
  if (body_len < BURN_HOOK_DATA || cctp_read_u32_be(body + BURN_VERSION) != CCTP_BURN_VERSION) {
    return custom(E_INVALID_BURN_MESSAGE);
  }
  SolSignerSeed minter_seeds[2];
  if (!is_token_minter(params, minter, minter_seeds)) return custom(E_INVALID_ACCOUNT);
  if (!cctp_is_state(local_token, params->program_id, LT_MAGIC, LT_LEN)) {
    return custom(E_INVALID_ACCOUNT);
  }
  if (!cctp_is_state(pair, params->program_id, TP_MAGIC, TP_LEN) ||
      cctp_read_u32_le(pair->data + TP_DOMAIN) != remote_domain ||
      !yr_bytes_eq(pair->data + TP_REMOTE_TOKEN, body + BURN_TOKEN, 32) ||
      !yr_bytes_eq(pair->data + TP_LOCAL_TOKEN, local_token->key->x, 32)) {
    return custom(E_INVALID_TOKEN_PAIR);
  }
  const SolPubkey *mint = (const SolPubkey *)(local_token->data + LT_MINT);

  uint64_t amount, max_fee, fee, expiration;
  if (!cctp_read_u256_as_u64(body + BURN_AMOUNT, &amount) ||
      !cctp_read_u256_as_u64(body + BURN_MAX_FEE, &max_fee) ||
      !cctp_read_u256_as_u64(body + BURN_FEE_EXECUTED, &fee) ||
      !cctp_read_u256_as_u64(body + BURN_EXPIRATION_BLOCK, &expiration)) {
    return custom(E_INVALID_BURN_MESSAGE);
  }
  if (fee >= amount || fee > max_fee) return custom(E_FEE);
  if (expiration != 0) {
    uint8_t clock[40];
    if (sol_get_clock_sysvar(clock) != 0 || expiration <= yr_read_u64(clock)) {
      return custom(E_EXPIRED);
    }
  }
  if (!yr_bytes_eq(recipient->key->x, body + BURN_MINT_RECIPIENT, 32)) {
    return custom(E_INVALID_MINT_RECIPIENT);
  }
  YrTokenAccount token;
  if (!yr_read_token_account(recipient, &token) || !yr_pubkey_eq(token.mint, mint)) {
    return custom(E_INVALID_MINT_RECIPIENT);
  }
  if (!yr_read_token_account(fee_account, &token) || !yr_pubkey_eq(token.mint, mint) ||
      !yr_bytes_eq(token.owner->x, messenger->data + TM_FEE_RECIPIENT, 32)) {
    return custom(E_INVALID_ACCOUNT);
  }
  if (!yr_read_token_account(custody, &token) || !yr_pubkey_eq(token.mint, mint) ||
      !yr_pubkey_eq(token.owner, minter->key)) {
    return custom(E_INVALID_ACCOUNT);
  }
  if (!yr_pubkey_eq(token_program->key, &YR_TOKEN_PROGRAM_ID)) return custom(E_INVALID_ACCOUNT);
  SolSignerSeeds signer = {minter_seeds, 2};
  /* Transfer (not TransferChecked: the mint is not among the IDL's accounts). */
  uint64_t result;
  SolAccountMeta *metas = (SolAccountMeta *)SCRATCH;
  SolAccountInfo *infos = (SolAccountInfo *)(SCRATCH + 256);
  uint8_t *data = SCRATCH + 1024;
  data[0] = 3; /* Transfer */
  if (fee > 0) {
    yr_write_u64(data + 1, fee);
    metas[0] = (SolAccountMeta){custody->key, true, false};
    metas[1] = (SolAccountMeta){fee_account->key, true, false};
    metas[2] = (SolAccountMeta){minter->key, false, true};
    infos[0] = *custody;
    infos[1] = *fee_account;
    infos[2] = *minter;
    SolInstruction fee_transfer = {token_program->key, metas, 3, data, 9};
    result = sol_invoke_signed_c(&fee_transfer, infos, 3, &signer, 1);
    if (result != 0) return result;
  }
  yr_write_u64(data + 1, amount - fee);
  metas[0] = (SolAccountMeta){custody->key, true, false};
  metas[1] = (SolAccountMeta){recipient->key, true, false};
  metas[2] = (SolAccountMeta){minter->key, false, true};
  infos[0] = *custody;
  infos[1] = *recipient;
  infos[2] = *minter;
  SolInstruction transfer = {token_program->key, metas, 3, data, 9};
  return sol_invoke_signed_c(&transfer, infos, 3, &signer, 1);
}

/* deposit_for_burn: [owner (s), event rent payer (s, w), sender authority, burn token account
 * (w), denylist, message_transmitter (w), token_messenger, remote_token_messenger, token_minter,
 * local_token (w), mint (w), message_sent_event_data (s, w), MessageTransmitterV2, this program,
 * token program, system program, event authority, program]. */
__attribute__((noinline)) static uint64_t deposit_for_burn(const SolParameters *params) {
  if (params->accounts_len < 16) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *a = params->accounts;
  SolAccountInfo *owner = &a[0], *payer = &a[1], *sender_authority = &a[2], *burn_account = &a[3],
                 *denylist = &a[4], *transmitter = &a[5], *messenger = &a[6], *remote = &a[7],
                 *local_token = &a[9], *mint = &a[10], *event = &a[11],
                 *transmitter_program = &a[12], *self = &a[13], *token_program = &a[14],
                 *system = &a[15];
  /* DepositForBurnParams: amount u64, destination_domain u32, mint_recipient, destination_caller,
   * max_fee u64, min_finality_threshold u32. */
  if (params->data_len != 96) return custom(E_INVALID_INSTRUCTION);
  const uint8_t *p = params->data + 8;
  uint64_t amount = yr_read_u64(p);
  uint32_t destination = cctp_read_u32_le(p + 8);
  const uint8_t *mint_recipient = p + 12;
  const uint8_t *destination_caller = p + 44;
  uint64_t max_fee = yr_read_u64(p + 76);
  uint32_t min_finality = cctp_read_u32_le(p + 84);
  if (!owner->is_signer || !payer->is_signer || !event->is_signer) return custom(E_NOT_SIGNER);
  if (amount == 0 || max_fee >= amount) return custom(E_INVALID_AMOUNT);
  static const uint8_t ZERO[32] = {0};
  if (yr_bytes_eq(mint_recipient, ZERO, 32)) return custom(E_INVALID_MINT_RECIPIENT);

  SolSignerSeed denylist_seeds[2] = {{(const uint8_t *)SEED_DENYLIST, sizeof(SEED_DENYLIST) - 1},
                                     {owner->key->x, 32}};
  if (!cctp_is_pda(denylist, denylist_seeds, 2, params->program_id, NULL)) {
    return custom(E_INVALID_ACCOUNT);
  }
  if (denylist->data_len != 0) return custom(E_DENYLISTED);
  if (!is_token_messenger(params, messenger) ||
      !yr_bytes_eq(transmitter_program->key->x, messenger->data + TM_MESSAGE_TRANSMITTER, 32) ||
      !yr_pubkey_eq(self->key, params->program_id)) {
    return custom(E_INVALID_ACCOUNT);
  }
  if (!cctp_is_state(remote, params->program_id, RM_MAGIC, RM_LEN)) {
    return custom(E_INVALID_ACCOUNT);
  }
  if (cctp_read_u32_le(remote->data + RM_DOMAIN) != destination) {
    return custom(E_INVALID_DESTINATION_DOMAIN);
  }
  if (!cctp_is_state(local_token, params->program_id, LT_MAGIC, LT_LEN) ||
      !yr_bytes_eq(local_token->data + LT_MINT, mint->key->x, 32)) {
    return custom(E_INVALID_ACCOUNT);
  }
  YrTokenAccount token;
  if (!yr_read_token_account(burn_account, &token) || !yr_pubkey_eq(token.mint, mint->key) ||
      !yr_pubkey_eq(token.owner, owner->key)) {
    return custom(E_INVALID_ACCOUNT);
  }
  if (!yr_pubkey_eq(token_program->key, &YR_TOKEN_PROGRAM_ID)) return custom(E_INVALID_ACCOUNT);
  uint8_t sender_bump;
  SolSignerSeed sender_seeds[2] = {
      {(const uint8_t *)SEED_SENDER_AUTHORITY, sizeof(SEED_SENDER_AUTHORITY) - 1},
      {&sender_bump, 1}};
  if (!cctp_is_pda(sender_authority, sender_seeds, 1, params->program_id, &sender_bump)) {
    return custom(E_INVALID_ACCOUNT);
  }

  /* The owner signed the transaction: the burn needs no seeds. */
  YrTokenMove burn = {token_program, burn_account, mint, NULL, owner, amount, 0, NULL};
  uint64_t result = yr_token_burn(&burn);
  if (result != 0) return result;

  /* SendMessageParams with the v2 burn message as the body. */
  uint8_t *data = SCRATCH;
  memcpy(data, IX_SEND_MESSAGE, 8);
  cctp_write_u32_le(data + 8, destination);
  memcpy(data + 12, remote->data + RM_TOKEN_MESSENGER, 32);
  memcpy(data + 44, destination_caller, 32);
  cctp_write_u32_le(data + 76, min_finality);
  cctp_write_u32_le(data + 80, BURN_HOOK_DATA);
  uint8_t *body = data + 84;
  cctp_write_u32_be(body + BURN_VERSION, CCTP_BURN_VERSION);
  memcpy(body + BURN_TOKEN, mint->key->x, 32);
  memcpy(body + BURN_MINT_RECIPIENT, mint_recipient, 32);
  cctp_write_u64_as_u256(body + BURN_AMOUNT, amount);
  memcpy(body + BURN_MESSAGE_SENDER, owner->key->x, 32);
  cctp_write_u64_as_u256(body + BURN_MAX_FEE, max_fee);
  cctp_write_u64_as_u256(body + BURN_FEE_EXECUTED, 0);
  cctp_write_u64_as_u256(body + BURN_EXPIRATION_BLOCK, 0);

  SolAccountMeta metas[6] = {{payer->key, true, true},       {sender_authority->key, false, true},
                             {transmitter->key, true, false}, {event->key, true, true},
                             {self->key, false, false},       {system->key, false, false}};
  SolAccountInfo *infos = (SolAccountInfo *)(SCRATCH + 2048);
  infos[0] = *payer;
  infos[1] = *sender_authority;
  infos[2] = *transmitter;
  infos[3] = *event;
  infos[4] = *self;
  infos[5] = *system;
  SolInstruction send = {transmitter_program->key, metas, 6, data, 84 + BURN_HOOK_DATA};
  SolSignerSeeds signer = {sender_seeds, 2};
  return sol_invoke_signed_c(&send, infos, 6, &signer, 1);
}

uint64_t entrypoint(uint8_t *input) {
  SolParameters params;
  if (!yr_deserialize(input, &params)) return YR_ERROR_INVALID_ARGUMENT;
  if (params.data_len < 8) return custom(E_INVALID_INSTRUCTION);
  if (yr_bytes_eq(params.data, IX_HANDLE_FINALIZED, 8) ||
      yr_bytes_eq(params.data, IX_HANDLE_UNFINALIZED, 8)) {
    return handle_receive(&params);
  }
  if (yr_bytes_eq(params.data, IX_DEPOSIT_FOR_BURN, 8)) return deposit_for_burn(&params);
  return custom(E_INVALID_INSTRUCTION);
}
