/* The implementation of yr_solana.h. A program is one translation unit (our link step takes one
 * object), so each program includes this file once. */
#include "yr_solana.h"

const SolPubkey YR_TOKEN_PROGRAM_ID = {{0x06, 0xdd, 0xf6, 0xe1, 0xd7, 0x65, 0xa1, 0x93,
                                        0xd9, 0xcb, 0xe1, 0x46, 0xce, 0xeb, 0x79, 0xac,
                                        0x1c, 0xb4, 0x85, 0xed, 0x5f, 0x5b, 0x37, 0x91,
                                        0x3a, 0x8c, 0xf5, 0x85, 0x7e, 0xff, 0x00, 0xa9}};
const SolPubkey YR_SYSTEM_PROGRAM_ID = {{0}};

void *memcpy(void *dst, const void *src, size_t n) {
  sol_memcpy_(dst, src, n);
  return dst;
}

void *memset(void *dst, int value, size_t n) {
  sol_memset_(dst, value, n);
  return dst;
}

bool yr_bytes_eq(const uint8_t *a, const uint8_t *b, uint64_t n) {
  for (uint64_t i = 0; i < n; i += 1) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

bool yr_pubkey_eq(const SolPubkey *a, const SolPubkey *b) { return yr_bytes_eq(a->x, b->x, 32); }

uint64_t yr_read_u64(const uint8_t *bytes) {
  uint64_t value = 0;
  for (int i = 7; i >= 0; i -= 1) value = (value << 8) | bytes[i];
  return value;
}

void yr_write_u64(uint8_t *bytes, uint64_t value) {
  for (int i = 0; i < 8; i += 1) {
    bytes[i] = (uint8_t)(value & 0xff);
    value >>= 8;
  }
}

void yr_log(const char *text) {
  uint64_t length = 0;
  while (text[length] != 0) length += 1;
  sol_log_(text, length);
}

bool yr_deserialize(uint8_t *input, SolParameters *params) {
  SolAccountInfo *accounts = (SolAccountInfo *)YR_HEAP_START;
  uint64_t count = *(uint64_t *)input;
  input += 8;
  if (count > YR_MAX_ACCOUNTS) return false;
  for (uint64_t i = 0; i < count; i += 1) {
    uint8_t dup = *input;
    input += 1;
    if (dup != 0xff) {
      /* A duplicate of an earlier account: 7 bytes of padding follow. */
      input += 7;
      accounts[i] = accounts[dup];
      continue;
    }
    accounts[i].is_signer = *input != 0;
    input += 1;
    accounts[i].is_writable = *input != 0;
    input += 1;
    accounts[i].executable = *input != 0;
    input += 1;
    input += 4; /* original data length */
    accounts[i].key = (SolPubkey *)input;
    input += 32;
    accounts[i].owner = (SolPubkey *)input;
    input += 32;
    accounts[i].lamports = (uint64_t *)input;
    input += 8;
    accounts[i].data_len = *(uint64_t *)input;
    input += 8;
    accounts[i].data = input;
    input += accounts[i].data_len + YR_MAX_PERMITTED_DATA_INCREASE;
    input = (uint8_t *)(((uint64_t)input + 7) & ~(uint64_t)7);
    accounts[i].rent_epoch = *(uint64_t *)input;
    input += 8;
  }
  params->accounts = accounts;
  params->accounts_len = count;
  params->data_len = *(uint64_t *)input;
  input += 8;
  params->data = input;
  input += params->data_len;
  params->program_id = (const SolPubkey *)input;
  return true;
}

/* 128-bit arithmetic on two 64-bit halves: clang's BPF backend has no __int128 library. */
typedef struct {
  uint64_t hi;
  uint64_t lo;
} YrU128;

static YrU128 yr_mul_64(uint64_t a, uint64_t b) {
  uint64_t a_lo = a & 0xffffffff, a_hi = a >> 32, b_lo = b & 0xffffffff, b_hi = b >> 32;
  uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
  uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xffffffff) + lo_hi;
  YrU128 out;
  out.hi = hi_hi + (hi_lo >> 32) + (cross >> 32);
  out.lo = (cross << 32) | (lo_lo & 0xffffffff);
  return out;
}

/* n / d for a 128-bit n and a 64-bit d; false when the quotient does not fit 64 bits. */
static bool yr_div_128(YrU128 n, uint64_t d, uint64_t *quotient, uint64_t *remainder) {
  if (d == 0 || n.hi >= d) return false;
  uint64_t q = 0, r = n.hi;
  for (int i = 63; i >= 0; i -= 1) {
    uint64_t carry = r >> 63;
    r = (r << 1) | ((n.lo >> i) & 1);
    q <<= 1;
    if (carry || r >= d) {
      r -= d;
      q |= 1;
    }
  }
  *quotient = q;
  *remainder = r;
  return true;
}

bool yr_mul_div_floor(uint64_t a, uint64_t b, uint64_t c, uint64_t *out) {
  uint64_t remainder;
  return yr_div_128(yr_mul_64(a, b), c, out, &remainder);
}

bool yr_mul_div_ceil(uint64_t a, uint64_t b, uint64_t c, uint64_t *out) {
  uint64_t quotient, remainder;
  if (!yr_div_128(yr_mul_64(a, b), c, &quotient, &remainder)) return false;
  if (remainder != 0) {
    if (quotient == UINT64_MAX) return false;
    quotient += 1;
  }
  *out = quotient;
  return true;
}

void yr_line_text(YrLine *line, const char *text) {
  for (uint64_t i = 0; text[i] != 0 && line->len < sizeof(line->text); i += 1) {
    line->text[line->len++] = text[i];
  }
}

void yr_line_hex(YrLine *line, const uint8_t *bytes, uint64_t n) {
  static const char DIGITS[] = "0123456789abcdef";
  for (uint64_t i = 0; i < n && line->len + 2 <= sizeof(line->text); i += 1) {
    line->text[line->len++] = DIGITS[bytes[i] >> 4];
    line->text[line->len++] = DIGITS[bytes[i] & 0xf];
  }
}

void yr_line_u64(YrLine *line, uint64_t value) {
  char digits[20];
  int count = 0;
  do {
    digits[count++] = (char)('0' + value % 10);
    value /= 10;
  } while (value != 0);
  while (count > 0 && line->len < sizeof(line->text)) line->text[line->len++] = digits[--count];
}

void yr_line_log(const YrLine *line) { sol_log_(line->text, line->len); }

void yr_log_move(const YrMove *move) {
  YrLine line = {{0}, 0};
  yr_line_text(&line, move->program);
  yr_line_text(&line, ": ");
  yr_line_text(&line, move->what);
  yr_line_text(&line, " ");
  yr_line_text(&line, move->a_name);
  yr_line_text(&line, "=");
  yr_line_u64(&line, move->a);
  yr_line_text(&line, " ");
  yr_line_text(&line, move->b_name);
  yr_line_text(&line, "=");
  yr_line_u64(&line, move->b);
  yr_line_log(&line);
}

bool yr_read_token_account(const SolAccountInfo *account, YrTokenAccount *out) {
  if (!yr_pubkey_eq(account->owner, &YR_TOKEN_PROGRAM_ID)) return false;
  if (account->data_len != YR_TOKEN_ACCOUNT_LEN) return false;
  if (account->data[108] != 1) return false; /* AccountState::Initialized */
  out->mint = (const SolPubkey *)account->data;
  out->owner = (const SolPubkey *)(account->data + 32);
  out->amount = yr_read_u64(account->data + 64);
  return true;
}

bool yr_read_mint(const SolAccountInfo *account, uint64_t *supply, uint8_t *decimals) {
  if (!yr_pubkey_eq(account->owner, &YR_TOKEN_PROGRAM_ID)) return false;
  if (account->data_len != YR_MINT_LEN || account->data[45] != 1) return false;
  *supply = yr_read_u64(account->data + 36);
  *decimals = account->data[44];
  return true;
}

uint64_t yr_token_transfer_checked(const YrTokenMove *move) {
  uint8_t data[10];
  data[0] = 12; /* TransferChecked */
  yr_write_u64(data + 1, move->amount);
  data[9] = move->decimals;
  SolAccountMeta metas[4] = {{move->source->key, true, false},
                             {move->mint->key, false, false},
                             {move->destination->key, true, false},
                             {move->authority->key, false, true}};
  SolAccountInfo infos[4] = {*move->source, *move->mint, *move->destination, *move->authority};
  SolInstruction instruction = {move->token_program->key, metas, 4, data, sizeof(data)};
  return sol_invoke_signed_c(&instruction, infos, 4, move->signer, move->signer == NULL ? 0 : 1);
}

/* The Token program's amount instructions with (writable, writable, signing authority). */
static uint64_t token_amount_call(uint8_t tag, SolAccountInfo *first, SolAccountInfo *second,
                                  const YrTokenMove *move) {
  uint8_t data[9];
  data[0] = tag;
  yr_write_u64(data + 1, move->amount);
  SolAccountMeta metas[3] = {
      {first->key, true, false}, {second->key, true, false}, {move->authority->key, false, true}};
  SolAccountInfo infos[3] = {*first, *second, *move->authority};
  SolInstruction instruction = {move->token_program->key, metas, 3, data, sizeof(data)};
  return sol_invoke_signed_c(&instruction, infos, 3, move->signer, move->signer == NULL ? 0 : 1);
}

uint64_t yr_token_transfer(const YrTokenMove *move) {
  return token_amount_call(3 /* Transfer */, move->source, move->destination, move);
}

uint64_t yr_token_mint_to(const YrTokenMove *move) {
  return token_amount_call(7 /* MintTo */, move->mint, move->destination, move);
}

uint64_t yr_token_burn(const YrTokenMove *move) {
  return token_amount_call(8 /* Burn */, move->source, move->mint, move);
}

static uint64_t yr_minimum_balance(uint64_t space) {
  /* Rent sysvar: lamports_per_byte_year (u64), exemption_threshold (f64), burn_percent (u8).
   * The threshold has been 2.0 years since genesis; BPF has no floating point to read it. */
  uint8_t rent[17];
  if (sol_get_rent_sysvar(rent) != 0) return 0;
  return (128 + space) * yr_read_u64(rent) * 2;
}

/* One System program instruction, signed by the PDA's seeds when `signer` is set. */
static uint64_t yr_system(const YrCreateAccount *create, SolAccountMeta *metas, uint64_t count,
                          uint8_t *data, uint64_t data_len) {
  SolInstruction instruction = {create->system_program->key, metas, count, data, data_len};
  SolAccountInfo infos[2] = {*create->payer, *create->account};
  /* One-account instructions (allocate, assign) take the new account alone. */
  const SolAccountInfo *passed = count == 1 ? infos + 1 : infos;
  return sol_invoke_signed_c(&instruction, passed, count, create->signer,
                             create->signer == NULL ? 0 : 1);
}

uint64_t yr_create_pda_account(const YrCreateAccount *create) {
  if (!yr_pubkey_eq(create->system_program->key, &YR_SYSTEM_PROGRAM_ID)) {
    return YR_ERROR_INVALID_ARGUMENT;
  }
  SolAccountInfo *account = create->account;
  uint64_t needed = yr_minimum_balance(create->space);
  uint64_t held = *account->lamports;
  uint64_t result;
  if (held == 0) {
    uint8_t data[52] = {0}; /* CreateAccount */
    yr_write_u64(data + 4, needed);
    yr_write_u64(data + 12, create->space);
    memcpy(data + 20, create->owner->x, 32);
    SolAccountMeta metas[2] = {{create->payer->key, true, true}, {account->key, true, true}};
    result = yr_system(create, metas, 2, data, sizeof(data));
  } else {
    /* Someone sent lamports first (it would block CreateAccount): top up, allocate, assign. */
    if (held < needed) {
      uint8_t transfer[12] = {2, 0, 0, 0};
      yr_write_u64(transfer + 4, needed - held);
      SolAccountMeta metas[2] = {{create->payer->key, true, true}, {account->key, true, false}};
      result = yr_system(create, metas, 2, transfer, sizeof(transfer));
      if (result != 0) return result;
    }
    uint8_t allocate[12] = {8, 0, 0, 0};
    yr_write_u64(allocate + 4, create->space);
    SolAccountMeta one[1] = {{account->key, true, true}};
    result = yr_system(create, one, 1, allocate, sizeof(allocate));
    if (result != 0) return result;
    /* The next call passes the account again: with its new length, or the runtime reads the old
     * one as this program shrinking data it does not own. */
    account->data_len = *(uint64_t *)(account->data - 8);
    uint8_t assign[36] = {1, 0, 0, 0};
    memcpy(assign + 4, create->owner->x, 32);
    result = yr_system(create, one, 1, assign, sizeof(assign));
  }
  if (result == 0) account->data_len = *(uint64_t *)(account->data - 8);
  return result;
}
