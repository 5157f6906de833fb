/* What the two CCTP v2 stand-ins (cctp_message_transmitter, cctp_token_messenger_minter) share:
 * the v2 message and burn-message layouts (circlefin/solana-cctp-contracts, programs/v2), the
 * Anchor discriminators of the instructions they exchange, and the layouts of their state
 * accounts. The state accounts sit at the PDAs Circle's programs use, but hold our own compact
 * layout (a magic, then the fields below): the bed writes them when it loads the programs, as a
 * cluster's genesis would, so the stand-ins need no admin instructions. */
#ifndef CCTP_STANDIN_H
#define CCTP_STANDIN_H

#include "yr_solana.h"

/* ---- v2 message: header (big-endian integers) then the body ---- */
#define MSG_VERSION 0
#define MSG_SOURCE_DOMAIN 4
#define MSG_DESTINATION_DOMAIN 8
#define MSG_NONCE 12
#define MSG_SENDER 44
#define MSG_RECIPIENT 76
#define MSG_DESTINATION_CALLER 108
#define MSG_MIN_FINALITY 140
#define MSG_FINALITY_EXECUTED 144
#define MSG_BODY 148
#define CCTP_MESSAGE_VERSION 1

/* ---- v2 burn message (the body): u256 fields are big-endian, u64 in their last 8 bytes ---- */
#define BURN_VERSION 0
#define BURN_TOKEN 4
#define BURN_MINT_RECIPIENT 36
#define BURN_AMOUNT 68
#define BURN_MESSAGE_SENDER 100
#define BURN_MAX_FEE 132
#define BURN_FEE_EXECUTED 164
#define BURN_EXPIRATION_BLOCK 196
#define BURN_HOOK_DATA 228
#define CCTP_BURN_VERSION 1
#define FINALITY_FINALIZED 2000

/* ---- Anchor discriminators (sha256("global:<name>")[..8], sha256("account:<Name>")[..8]) ---- */
static const uint8_t IX_RECEIVE_MESSAGE[8] = {0x26, 0x90, 0x7f, 0xe1, 0x1f, 0xe1, 0xee, 0x19};
static const uint8_t IX_SEND_MESSAGE[8] = {0x39, 0x28, 0x22, 0xb2, 0xbd, 0x0a, 0x41, 0x1a};
static const uint8_t IX_DEPOSIT_FOR_BURN[8] = {0xd7, 0x3c, 0x3d, 0x2e, 0x72, 0x37, 0x80, 0xb0};
static const uint8_t IX_HANDLE_FINALIZED[8] = {0xba, 0xfc, 0xef, 0x46, 0x56, 0xb4, 0x6e, 0x5f};
static const uint8_t IX_HANDLE_UNFINALIZED[8] = {0xc8, 0xa9, 0xaf, 0x14, 0xc8, 0x3a, 0xb6, 0x3d};
static const uint8_t ACCOUNT_MESSAGE_SENT[8] = {0x83, 0x64, 0x85, 0x38, 0xa6, 0xe1, 0x97, 0x3c};
static const uint8_t ACCOUNT_USED_NONCE[8] = {0xd4, 0xde, 0x9d, 0xfc, 0x82, 0x47, 0xb3, 0xee};

/* ---- MessageTransmitterV2 state ---- */
/* ["message_transmitter"]: magic, local domain (u32 LE), the attester's 20-byte EVM address. */
static const uint8_t MT_MAGIC[8] = {'Y', 'R', 'C', 'C', 'T', 'P', 'M', 'T'};
#define MT_LEN 32
#define MT_LOCAL_DOMAIN 8
#define MT_ATTESTER 12
/* MessageSent (Anchor layout, as Circle's): discriminator, rent payer, created_at (i64),
 * message (u32 LE length + bytes). */
#define SENT_RENT_PAYER 8
#define SENT_CREATED_AT 40
#define SENT_MESSAGE_LEN 48
#define SENT_MESSAGE 52

/* ---- TokenMessengerMinterV2 state ---- */
/* ["token_messenger"]: magic, the MessageTransmitterV2 program id, the fee recipient (wallet). */
static const uint8_t TM_MAGIC[8] = {'Y', 'R', 'C', 'C', 'T', 'P', 'T', 'M'};
#define TM_LEN 72
#define TM_MESSAGE_TRANSMITTER 8
#define TM_FEE_RECIPIENT 40
/* ["remote_token_messenger", domain text]: magic, domain (u32 LE), its token messenger. */
static const uint8_t RM_MAGIC[8] = {'Y', 'R', 'C', 'C', 'T', 'P', 'R', 'M'};
#define RM_LEN 48
#define RM_DOMAIN 8
#define RM_TOKEN_MESSENGER 12
/* ["token_minter"]: magic, bump (the custody's owner: it signs custody transfers). */
static const uint8_t MN_MAGIC[8] = {'Y', 'R', 'C', 'C', 'T', 'P', 'M', 'N'};
#define MN_LEN 16
#define MN_BUMP 8
/* ["local_token", mint]: magic, mint. */
static const uint8_t LT_MAGIC[8] = {'Y', 'R', 'C', 'C', 'T', 'P', 'L', 'T'};
#define LT_LEN 40
#define LT_MINT 8
/* ["token_pair", domain text, remote token]: magic, domain (u32 LE), remote token, local token. */
static const uint8_t TP_MAGIC[8] = {'Y', 'R', 'C', 'C', 'T', 'P', 'T', 'P'};
#define TP_LEN 80
#define TP_DOMAIN 8
#define TP_REMOTE_TOKEN 12
#define TP_LOCAL_TOKEN 44

/* Big-endian helpers of the message format. */
static inline uint32_t cctp_read_u32_be(const uint8_t *bytes) {
  return ((uint32_t)bytes[0] << 24) | ((uint32_t)bytes[1] << 16) | ((uint32_t)bytes[2] << 8) |
         (uint32_t)bytes[3];
}
static inline void cctp_write_u32_be(uint8_t *bytes, uint32_t value) {
  for (int i = 3; i >= 0; i -= 1) {
    bytes[i] = (uint8_t)(value & 0xff);
    value >>= 8;
  }
}
static inline uint32_t cctp_read_u32_le(const uint8_t *bytes) {
  return (uint32_t)bytes[0] | ((uint32_t)bytes[1] << 8) | ((uint32_t)bytes[2] << 16) |
         ((uint32_t)bytes[3] << 24);
}
static inline void cctp_write_u32_le(uint8_t *bytes, uint32_t value) {
  for (int i = 0; i < 4; i += 1) {
    bytes[i] = (uint8_t)(value & 0xff);
    value >>= 8;
  }
}
/* A u256 field that must fit a u64: false when any of its first 24 bytes is set. */
static inline bool cctp_read_u256_as_u64(const uint8_t *bytes, uint64_t *out) {
  for (int i = 0; i < 24; i += 1) {
    if (bytes[i] != 0) return false;
  }
  uint64_t value = 0;
  for (int i = 24; i < 32; i += 1) value = (value << 8) | bytes[i];
  *out = value;
  return true;
}
static inline void cctp_write_u64_as_u256(uint8_t *bytes, uint64_t value) {
  memset(bytes, 0, 24);
  for (int i = 31; i >= 24; i -= 1) {
    bytes[i] = (uint8_t)(value & 0xff);
    value >>= 8;
  }
}

/* A state account of `program`: owned by it, `len` bytes, starting with `magic`. */
static inline bool cctp_is_state(const SolAccountInfo *account, const SolPubkey *program,
                                 const uint8_t *magic, uint64_t len) {
  return yr_pubkey_eq(account->owner, program) && account->data_len == len &&
         yr_bytes_eq(account->data, magic, 8);
}

/* `account` is the PDA of `program` for `seeds` (found with its canonical bump, written to
 * `bump` when not NULL). */
static inline bool cctp_is_pda(const SolAccountInfo *account, const SolSignerSeed *seeds,
                               uint64_t count, const SolPubkey *program, uint8_t *bump) {
  SolPubkey expected;
  uint8_t found;
  if (sol_try_find_program_address(seeds, count, program, &expected, &found) != 0) return false;
  if (bump != NULL) *bump = found;
  return yr_pubkey_eq(&expected, account->key);
}

/* A domain as the decimal text Circle's programs use in seeds; returns its length. */
static inline uint64_t cctp_domain_text(uint32_t domain, uint8_t *text) {
  uint8_t digits[10];
  uint64_t count = 0;
  do {
    digits[count++] = (uint8_t)('0' + domain % 10);
    domain /= 10;
  } while (domain != 0);
  for (uint64_t i = 0; i < count; i += 1) text[i] = digits[count - 1 - i];
  return count;
}

#endif
