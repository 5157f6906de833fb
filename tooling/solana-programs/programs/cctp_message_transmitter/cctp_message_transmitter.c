/* Bed-only stand-in for Circle's CCTP v2 MessageTransmitterV2 on Solana (never deploy it on a
 * cluster). It takes the instructions of the published IDL with the IDL's accounts:
 *
 * receive_message({message, attestation}): checks one attester's signature over
 *   keccak256(message) (secp256k1 recovery, low s, recovery id 27..30, the recovered address the
 *   attester in the state), the version, the destination domain, the destination caller and the
 *   recipient (the receiver program), creates the used-nonce PDA ["used_nonce", nonce] (so a
 *   message is received once), then calls the receiver's handle_receive_{finalized,unfinalized}
 *   _message signed by ["message_transmitter_authority", receiver] with the remaining accounts.
 * send_message(params), called by a sender program signing with its ["sender_authority"]: writes
 *   the v2 message (nonce zero: the attestation service assigns it) into the fresh MessageSent
 *   account, laid out as Circle's program lays it out.
 *
 * What it leaves out: pausing, attester management, several attesters, the emitted events. */
#include "yr_solana.c"
#include "cctp_standin.h"

#define E_INVALID_INSTRUCTION 1
#define E_INVALID_ACCOUNT 2
#define E_NOT_SIGNER 3
#define E_INVALID_MESSAGE 4
#define E_INVALID_ATTESTATION 5
#define E_INVALID_DESTINATION_DOMAIN 6
#define E_INVALID_DESTINATION_CALLER 7
#define E_NONCE_USED 8
#define E_INVALID_RECIPIENT 9
#define E_DESTINATION_IS_LOCAL 10

static const char SEED_TRANSMITTER[] = "message_transmitter";
static const char SEED_AUTHORITY[] = "message_transmitter_authority";
static const char SEED_USED_NONCE[] = "used_nonce";
static const char SEED_SENDER_AUTHORITY[] = "sender_authority";

/* Scratch on the heap, after the account array the input parser puts there. */
#define SCRATCH (YR_HEAP_START + 4096)

static uint64_t custom(uint64_t code) {
  sol_log_64_(0x4d54, code, 0, 0, 0); /* "MT", code */
  return code;
}

/* The secp256k1 group order's half: an s above it is the malleable twin of a valid signature. */
static const uint8_t HALF_ORDER[32] = {0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                       0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                       0x5d, 0x57, 0x6e, 0x73, 0x57, 0xa4, 0x50, 0x1d,
                                       0xdf, 0xe9, 0x2f, 0x46, 0x68, 0x1b, 0x20, 0xa0};

static bool high_s(const uint8_t *s) {
  for (int i = 0; i < 32; i += 1) {
    if (s[i] != HALF_ORDER[i]) return s[i] > HALF_ORDER[i];
  }
  return false;
}

/* The attestation is one 65-byte signature r||s||v over keccak256(message) by `attester`. */
static bool attested(const uint8_t *message, uint64_t message_len, const uint8_t *attestation,
                     uint64_t attestation_len, const uint8_t *attester) {
  if (attestation_len != 65) return false;
  uint8_t v = attestation[64];
  if (v < 27 || v > 30 || high_s(attestation + 32)) return false;
  uint8_t hash[32];
  SolSignerSeed slice = {message, message_len};
  if (sol_keccak256(&slice, 1, hash) != 0) return false;
  uint8_t public_key[64];
  if (sol_secp256k1_recover(hash, v - 27, attestation, public_key) != 0) return false;
  uint8_t key_hash[32];
  SolSignerSeed key_slice = {public_key, 64};
  if (sol_keccak256(&key_slice, 1, key_hash) != 0) return false;
  return yr_bytes_eq(key_hash + 12, attester, 20);
}

/* receive_message: [payer (s, w), caller (s), authority PDA, message_transmitter, used_nonce (w),
 * receiver, system program, event authority, program, ...the receiver's accounts]. */
static uint64_t receive_message(const SolParameters *params) {
  if (params->accounts_len < 9) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *a = params->accounts;
  SolAccountInfo *payer = &a[0], *caller = &a[1], *authority = &a[2], *transmitter = &a[3],
                 *used_nonce = &a[4], *receiver = &a[5], *system = &a[6];
  if (!payer->is_signer || !caller->is_signer) return custom(E_NOT_SIGNER);
  /* data: discriminator, message (u32 LE length + bytes), attestation (same). */
  if (params->data_len < 16) return custom(E_INVALID_INSTRUCTION);
  uint64_t message_len = cctp_read_u32_le(params->data + 8);
  if (message_len + 16 > params->data_len) return custom(E_INVALID_INSTRUCTION);
  const uint8_t *message = params->data + 12;
  uint64_t attestation_len = cctp_read_u32_le(message + message_len);
  if (12 + message_len + 4 + attestation_len != params->data_len) {
    return custom(E_INVALID_INSTRUCTION);
  }
  const uint8_t *attestation = message + message_len + 4;

  SolSignerSeed state_seed = {(const uint8_t *)SEED_TRANSMITTER, sizeof(SEED_TRANSMITTER) - 1};
  if (!cctp_is_state(transmitter, params->program_id, MT_MAGIC, MT_LEN) ||
      !cctp_is_pda(transmitter, &state_seed, 1, params->program_id, NULL)) {
    return custom(E_INVALID_ACCOUNT);
  }
  if (message_len < MSG_BODY || cctp_read_u32_be(message + MSG_VERSION) != CCTP_MESSAGE_VERSION) {
    return custom(E_INVALID_MESSAGE);
  }
  if (!attested(message, message_len, attestation, attestation_len,
                transmitter->data + MT_ATTESTER)) {
    return custom(E_INVALID_ATTESTATION);
  }
  if (cctp_read_u32_be(message + MSG_DESTINATION_DOMAIN) !=
      cctp_read_u32_le(transmitter->data + MT_LOCAL_DOMAIN)) {
    return custom(E_INVALID_DESTINATION_DOMAIN);
  }
  static const uint8_t ZERO[32] = {0};
  if (!yr_bytes_eq(message + MSG_DESTINATION_CALLER, ZERO, 32) &&
      !yr_bytes_eq(message + MSG_DESTINATION_CALLER, caller->key->x, 32)) {
    return custom(E_INVALID_DESTINATION_CALLER);
  }
  if (!receiver->executable || yr_pubkey_eq(receiver->key, params->program_id) ||
      !yr_bytes_eq(message + MSG_RECIPIENT, receiver->key->x, 32)) {
    return custom(E_INVALID_RECIPIENT);
  }

  /* The used nonce: created here, so the same message fails the second time. */
  uint8_t nonce_bump;
  SolSignerSeed nonce_seeds[3] = {
      {(const uint8_t *)SEED_USED_NONCE, sizeof(SEED_USED_NONCE) - 1},
      {message + MSG_NONCE, 32},
      {&nonce_bump, 1}};
  if (!cctp_is_pda(used_nonce, nonce_seeds, 2, params->program_id, &nonce_bump)) {
    return custom(E_INVALID_ACCOUNT);
  }
  if (yr_pubkey_eq(used_nonce->owner, params->program_id) || used_nonce->data_len != 0) {
    return custom(E_NONCE_USED);
  }
  SolSignerSeeds nonce_signer = {nonce_seeds, 3};
  YrCreateAccount create = {payer, used_nonce, system, 9, params->program_id, &nonce_signer};
  uint64_t result = yr_create_pda_account(&create);
  if (result != 0) return result;
  memcpy(used_nonce->data, ACCOUNT_USED_NONCE, 8);
  used_nonce->data[8] = 1;

  /* The receiver's handler, signed by ["message_transmitter_authority", receiver]. */
  uint8_t authority_bump;
  SolSignerSeed authority_seeds[3] = {
      {(const uint8_t *)SEED_AUTHORITY, sizeof(SEED_AUTHORITY) - 1},
      {receiver->key->x, 32},
      {&authority_bump, 1}};
  if (!cctp_is_pda(authority, authority_seeds, 2, params->program_id, &authority_bump)) {
    return custom(E_INVALID_ACCOUNT);
  }
  uint64_t body_len = message_len - MSG_BODY;
  uint32_t executed = cctp_read_u32_be(message + MSG_FINALITY_EXECUTED);
  /* HandleReceiveMessageParams (borsh): remote_domain u32, sender, finality_threshold_executed
   * u32, message_body (u32 length + bytes), authority_bump u8. */
  uint8_t *data = SCRATCH;
  memcpy(data, executed < FINALITY_FINALIZED ? IX_HANDLE_UNFINALIZED : IX_HANDLE_FINALIZED, 8);
  cctp_write_u32_le(data + 8, cctp_read_u32_be(message + MSG_SOURCE_DOMAIN));
  memcpy(data + 12, message + MSG_SENDER, 32);
  cctp_write_u32_le(data + 44, executed);
  cctp_write_u32_le(data + 48, (uint32_t)body_len);
  memcpy(data + 52, message + MSG_BODY, body_len);
  data[52 + body_len] = authority_bump;

  uint64_t remaining = params->accounts_len - 9;
  SolAccountMeta *metas = (SolAccountMeta *)(SCRATCH + 2048);
  SolAccountInfo *infos = (SolAccountInfo *)(SCRATCH + 4096);
  metas[0].pubkey = authority->key;
  metas[0].is_writable = false;
  metas[0].is_signer = true;
  infos[0] = *authority;
  for (uint64_t i = 0; i < remaining; i += 1) {
    SolAccountInfo *account = &a[9 + i];
    metas[1 + i].pubkey = account->key;
    metas[1 + i].is_writable = account->is_writable;
    metas[1 + i].is_signer = account->is_signer;
    infos[1 + i] = *account;
  }
  SolInstruction instruction = {receiver->key, metas, 1 + remaining, data, 53 + body_len};
  SolSignerSeeds signer = {authority_seeds, 3};
  return sol_invoke_signed_c(&instruction, infos, 1 + remaining, &signer, 1);
}

/* send_message: [event rent payer (s, w), sender authority (s), message_transmitter (w),
 * message_sent_event_data (s, w), sender program, system program]. */
static uint64_t send_message(const SolParameters *params) {
  if (params->accounts_len < 6) return YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  SolAccountInfo *a = params->accounts;
  SolAccountInfo *payer = &a[0], *sender_authority = &a[1], *transmitter = &a[2],
                 *event = &a[3], *sender = &a[4], *system = &a[5];
  if (!payer->is_signer || !sender_authority->is_signer || !event->is_signer) {
    return custom(E_NOT_SIGNER);
  }
  SolSignerSeed sender_seed = {(const uint8_t *)SEED_SENDER_AUTHORITY,
                               sizeof(SEED_SENDER_AUTHORITY) - 1};
  if (!sender->executable || !cctp_is_pda(sender_authority, &sender_seed, 1, sender->key, NULL)) {
    return custom(E_INVALID_ACCOUNT);
  }
  SolSignerSeed state_seed = {(const uint8_t *)SEED_TRANSMITTER, sizeof(SEED_TRANSMITTER) - 1};
  if (!cctp_is_state(transmitter, params->program_id, MT_MAGIC, MT_LEN) ||
      !cctp_is_pda(transmitter, &state_seed, 1, params->program_id, NULL)) {
    return custom(E_INVALID_ACCOUNT);
  }
  /* SendMessageParams (borsh): destination_domain u32, recipient, destination_caller,
   * min_finality_threshold u32, message_body (u32 length + bytes). */
  if (params->data_len < 84) return custom(E_INVALID_INSTRUCTION);
  const uint8_t *p = params->data + 8;
  uint32_t destination = cctp_read_u32_le(p);
  uint64_t body_len = cctp_read_u32_le(p + 72);
  if (84 + body_len != params->data_len) return custom(E_INVALID_INSTRUCTION);
  uint32_t local = cctp_read_u32_le(transmitter->data + MT_LOCAL_DOMAIN);
  if (destination == local) return custom(E_DESTINATION_IS_LOCAL);
  static const uint8_t ZERO[32] = {0};
  if (yr_bytes_eq(p + 4, ZERO, 32)) return custom(E_INVALID_RECIPIENT);

  uint64_t message_len = MSG_BODY + body_len;
  YrCreateAccount create = {payer, event, system, SENT_MESSAGE + message_len, params->program_id,
                            NULL};
  uint64_t result = yr_create_pda_account(&create);
  if (result != 0) return result;
  uint8_t clock[40];
  if (sol_get_clock_sysvar(clock) != 0) return custom(E_INVALID_ACCOUNT);
  uint8_t *out = event->data;
  memcpy(out, ACCOUNT_MESSAGE_SENT, 8);
  memcpy(out + SENT_RENT_PAYER, payer->key->x, 32);
  memcpy(out + SENT_CREATED_AT, clock + 32, 8);
  cctp_write_u32_le(out + SENT_MESSAGE_LEN, (uint32_t)message_len);
  uint8_t *message = out + SENT_MESSAGE;
  cctp_write_u32_be(message + MSG_VERSION, CCTP_MESSAGE_VERSION);
  cctp_write_u32_be(message + MSG_SOURCE_DOMAIN, local);
  cctp_write_u32_be(message + MSG_DESTINATION_DOMAIN, destination);
  memset(message + MSG_NONCE, 0, 32);
  memcpy(message + MSG_SENDER, sender->key->x, 32);
  memcpy(message + MSG_RECIPIENT, p + 4, 32);
  memcpy(message + MSG_DESTINATION_CALLER, p + 36, 32);
  cctp_write_u32_be(message + MSG_MIN_FINALITY, cctp_read_u32_le(p + 68));
  cctp_write_u32_be(message + MSG_FINALITY_EXECUTED, 0);
  memcpy(message + MSG_BODY, p + 76, body_len);
  return YR_SUCCESS;
}

uint64_t entrypoint(uint8_t *input) {
  SolParameters params;
  if (!yr_deserialize(input, &params)) return YR_ERROR_INVALID_ARGUMENT;
  if (params.data_len < 8) return custom(E_INVALID_INSTRUCTION);
  if (yr_bytes_eq(params.data, IX_RECEIVE_MESSAGE, 8)) return receive_message(&params);
  if (yr_bytes_eq(params.data, IX_SEND_MESSAGE, 8)) return send_message(&params);
  return custom(E_INVALID_INSTRUCTION);
}
