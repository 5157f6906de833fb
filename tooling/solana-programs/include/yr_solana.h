/* Our minimal Solana runtime interface for C programs built with Debian's clang (-target bpf,
 * SBPFv0): syscall declarations, the loader's input format, cross-program invocation, and the
 * SPL Token / System instructions the programs use. No libc: freestanding C11. */
#ifndef YR_SOLANA_H
#define YR_SOLANA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Syscalls (resolved by the loader from their names, see the link step) ---- */
void sol_log_(const char *message, uint64_t length);
void sol_log_64_(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e);
void sol_memcpy_(void *dst, const void *src, uint64_t n);
void sol_memset_(void *dst, int value, uint64_t n);
void sol_memcmp_(const void *a, const void *b, uint64_t n, int32_t *result);
uint64_t sol_get_rent_sysvar(void *out);
/* Clock: slot u64, epoch_start_timestamp i64, epoch u64, leader_schedule_epoch u64,
 * unix_timestamp i64 (40 bytes). */
uint64_t sol_get_clock_sysvar(void *out);

typedef struct {
  uint8_t x[32];
} SolPubkey;

typedef struct {
  const uint8_t *addr;
  uint64_t len;
} SolSignerSeed;

typedef struct {
  const SolSignerSeed *addr;
  uint64_t len;
} SolSignerSeeds;

uint64_t sol_create_program_address(const SolSignerSeed *seeds, uint64_t seeds_len,
                                    const SolPubkey *program_id, SolPubkey *address);
uint64_t sol_try_find_program_address(const SolSignerSeed *seeds, uint64_t seeds_len,
                                      const SolPubkey *program_id, SolPubkey *address,
                                      uint8_t *bump);

/* keccak256 of the concatenated slices; secp256k1 public-key recovery (64-byte uncompressed key
 * without its 0x04 prefix) from a 32-byte hash, recovery id 0..3 and a 64-byte r||s signature. */
uint64_t sol_keccak256(const SolSignerSeed *slices, uint64_t count, uint8_t *hash);
uint64_t sol_secp256k1_recover(const uint8_t *hash, uint64_t recovery_id, const uint8_t *signature,
                               uint8_t *public_key);

/* The C ABI of sol_invoke_signed_c (matches the runtime's SolAccountInfo / SolInstruction). */
typedef struct {
  SolPubkey *key;
  uint64_t *lamports;
  uint64_t data_len;
  uint8_t *data;
  SolPubkey *owner;
  uint64_t rent_epoch;
  bool is_signer;
  bool is_writable;
  bool executable;
} SolAccountInfo;

typedef struct {
  SolPubkey *pubkey;
  bool is_writable;
  bool is_signer;
} SolAccountMeta;

typedef struct {
  SolPubkey *program_id;
  SolAccountMeta *accounts;
  uint64_t account_len;
  uint8_t *data;
  uint64_t data_len;
} SolInstruction;

uint64_t sol_invoke_signed_c(const SolInstruction *instruction, const SolAccountInfo *account_infos,
                             uint64_t account_infos_len, const SolSignerSeeds *signers_seeds,
                             uint64_t signers_seeds_len);

/* clang may lower struct copies to these; route them to the runtime's versions. */
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int value, size_t n);

/* ---- Program results ---- */
#define YR_SUCCESS 0
/* Builtin errors are (code << 32); a small number is Custom(n). */
#define YR_ERROR_INVALID_ARGUMENT (((uint64_t)2) << 32)
#define YR_ERROR_NOT_ENOUGH_ACCOUNT_KEYS (((uint64_t)11) << 32)

/* ---- The loader's input (SBPFv0, aligned serialization) ---- */
#define YR_MAX_ACCOUNTS 32
#define YR_MAX_PERMITTED_DATA_INCREASE (10 * 1024)
#define YR_HEAP_START ((uint8_t *)0x300000000)
/* Heap room after the account array, for buffers too large for a stack frame. */
#define YR_HEAP_SCRATCH (YR_HEAP_START + YR_MAX_ACCOUNTS * sizeof(SolAccountInfo))

typedef struct {
  SolAccountInfo *accounts; /* on the heap: too large for the 512-byte stack frames */
  uint64_t accounts_len;
  const uint8_t *data;
  uint64_t data_len;
  const SolPubkey *program_id;
} SolParameters;

/* Parses the serialized input into `params`; the account array lives at the start of the heap. */
bool yr_deserialize(uint8_t *input, SolParameters *params);

/* ---- Helpers ---- */
bool yr_pubkey_eq(const SolPubkey *a, const SolPubkey *b);
bool yr_bytes_eq(const uint8_t *a, const uint8_t *b, uint64_t n);
uint64_t yr_read_u64(const uint8_t *bytes);
void yr_write_u64(uint8_t *bytes, uint64_t value);
void yr_log(const char *text);
/* floor(a * b / c) and ceil(a * b / c) in 128-bit precision; false on c == 0 or a u64 overflow. */
bool yr_mul_div_floor(uint64_t a, uint64_t b, uint64_t c, uint64_t *out);
bool yr_mul_div_ceil(uint64_t a, uint64_t b, uint64_t c, uint64_t *out);

/* A text buffer for log lines (no printf here). */
typedef struct {
  char text[160];
  uint64_t len;
} YrLine;
void yr_line_text(YrLine *line, const char *text);
void yr_line_hex(YrLine *line, const uint8_t *bytes, uint64_t n);
void yr_line_u64(YrLine *line, uint64_t value);
void yr_line_log(const YrLine *line);
/* A venue stand-in's movement line: "<program>: <what> <a_name>=<a> <b_name>=<b>". */
typedef struct {
  const char *program;
  const char *what;
  const char *a_name;
  uint64_t a;
  const char *b_name;
  uint64_t b;
} YrMove;
void yr_log_move(const YrMove *move);

/* ---- Well-known programs ---- */
extern const SolPubkey YR_TOKEN_PROGRAM_ID;
extern const SolPubkey YR_SYSTEM_PROGRAM_ID;

/* SPL Token account and mint layouts (classic Token program). */
#define YR_TOKEN_ACCOUNT_LEN 165
#define YR_MINT_LEN 82
typedef struct {
  const SolPubkey *mint;
  const SolPubkey *owner;
  uint64_t amount;
} YrTokenAccount;
/* Reads a token account owned by the Token program; false if it is not one (or not initialised). */
bool yr_read_token_account(const SolAccountInfo *account, YrTokenAccount *out);
/* Reads a mint's supply and decimals; false if the account is not a Token-program mint. */
bool yr_read_mint(const SolAccountInfo *account, uint64_t *supply, uint8_t *decimals);

/* A token movement (clang's BPF target passes at most 5 arguments, hence the struct).
 * `signer` is NULL when the authority signed the transaction itself. */
typedef struct {
  const SolAccountInfo *token_program;
  SolAccountInfo *source;      /* transfer: from; burn: the burnt account */
  SolAccountInfo *mint;
  SolAccountInfo *destination; /* transfer: to; mint_to: the credited account */
  SolAccountInfo *authority;   /* owner of `source`, or the mint authority */
  uint64_t amount;
  uint8_t decimals;
  const SolSignerSeeds *signer;
} YrTokenMove;
uint64_t yr_token_transfer_checked(const YrTokenMove *move);
/* Transfer (tag 3): source, destination, authority; `mint` and `decimals` are not used. */
uint64_t yr_token_transfer(const YrTokenMove *move);
uint64_t yr_token_mint_to(const YrTokenMove *move);
uint64_t yr_token_burn(const YrTokenMove *move);

/* Creates `account` (a PDA signed by `signer`, or a key that signed the transaction when `signer`
 * is NULL) with `space` bytes owned by `owner`, paid by `payer`; works when someone has already
 * sent lamports to the address. Refreshes data_len. */
typedef struct {
  SolAccountInfo *payer;
  SolAccountInfo *account;
  const SolAccountInfo *system_program;
  uint64_t space;
  const SolPubkey *owner;
  const SolSignerSeeds *signer;
} YrCreateAccount;
uint64_t yr_create_pda_account(const YrCreateAccount *create);

#endif
