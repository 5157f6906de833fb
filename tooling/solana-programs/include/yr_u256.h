/* Unsigned 256-bit arithmetic on four 64-bit limbs (little endian), for the fixed-point products
 * a lending stand-in needs (a 128-bit scaled fraction times a 64-bit amount). Pointers only: the
 * BPF target passes no struct by value. Bit-by-bit long division: slow, but a handful per
 * instruction fits the compute budget. Include once, after yr_solana.c. */
#ifndef YR_U256_H
#define YR_U256_H

#define YR_NOINLINE __attribute__((noinline))

typedef struct {
  uint64_t w[4];
} YrU256;

static void u256_set(YrU256 *out, uint64_t hi, uint64_t lo) {
  out->w[0] = lo;
  out->w[1] = hi;
  out->w[2] = 0;
  out->w[3] = 0;
}

static bool u256_is_zero(const YrU256 *a) { return (a->w[0] | a->w[1] | a->w[2] | a->w[3]) == 0; }

static YR_NOINLINE int u256_cmp(const YrU256 *a, const YrU256 *b) {
  for (int i = 3; i >= 0; i -= 1) {
    if (a->w[i] != b->w[i]) return a->w[i] < b->w[i] ? -1 : 1;
  }
  return 0;
}

/* a += b (mod 2^256). */
static YR_NOINLINE void u256_add(YrU256 *a, const YrU256 *b) {
  uint64_t carry = 0;
  for (int i = 0; i < 4; i += 1) {
    uint64_t sum = a->w[i] + b->w[i];
    uint64_t c1 = sum < a->w[i];
    uint64_t total = sum + carry;
    uint64_t c2 = total < sum;
    a->w[i] = total;
    carry = c1 | c2;
  }
}

/* a -= b; the caller makes sure a >= b. */
static YR_NOINLINE void u256_sub(YrU256 *a, const YrU256 *b) {
  uint64_t borrow = 0;
  for (int i = 0; i < 4; i += 1) {
    uint64_t diff = a->w[i] - b->w[i];
    uint64_t b1 = a->w[i] < b->w[i];
    uint64_t total = diff - borrow;
    uint64_t b2 = diff < borrow;
    a->w[i] = total;
    borrow = b1 | b2;
  }
}

/* a <<= bits (bits < 256). */
static YR_NOINLINE void u256_shl(YrU256 *a, int bits) {
  while (bits >= 64) {
    a->w[3] = a->w[2];
    a->w[2] = a->w[1];
    a->w[1] = a->w[0];
    a->w[0] = 0;
    bits -= 64;
  }
  if (bits > 0) {
    for (int i = 3; i > 0; i -= 1) a->w[i] = (a->w[i] << bits) | (a->w[i - 1] >> (64 - bits));
    a->w[0] <<= bits;
  }
}

/* a *= b (a below 2^192, so the product fits). */
static YR_NOINLINE void u256_mul_u64(YrU256 *a, uint64_t b) {
  uint64_t carry = 0;
  uint64_t b_lo = b & 0xffffffff, b_hi = b >> 32;
  for (int i = 0; i < 4; i += 1) {
    uint64_t x = a->w[i];
    uint64_t x_lo = x & 0xffffffff, x_hi = x >> 32;
    uint64_t lo_lo = x_lo * b_lo, hi_lo = x_hi * b_lo, lo_hi = x_lo * b_hi, hi_hi = x_hi * b_hi;
    uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xffffffff) + lo_hi;
    uint64_t hi = hi_hi + (hi_lo >> 32) + (cross >> 32);
    uint64_t lo = (cross << 32) | (lo_lo & 0xffffffff);
    uint64_t with_carry = lo + carry;
    hi += with_carry < lo;
    a->w[i] = with_carry;
    carry = hi;
  }
}

/* q = n / d, r = n % d (r may be NULL); d must not be zero. */
static YR_NOINLINE void u256_divmod(const YrU256 *n, const YrU256 *d, YrU256 *q, YrU256 *r) {
  YrU256 rest;
  u256_set(&rest, 0, 0);
  u256_set(q, 0, 0);
  for (int bit = 255; bit >= 0; bit -= 1) {
    u256_shl(&rest, 1);
    rest.w[0] |= (n->w[bit / 64] >> (bit % 64)) & 1;
    if (u256_cmp(&rest, d) >= 0) {
      u256_sub(&rest, d);
      q->w[bit / 64] |= (uint64_t)1 << (bit % 64);
    }
  }
  if (r != NULL) *r = rest;
}

/* floor(n / d) or ceil(n / d) as a u64; false when d is zero or the result does not fit. */
static YR_NOINLINE bool u256_div_u64(const YrU256 *n, const YrU256 *d, bool ceil, uint64_t *out) {
  if (u256_is_zero(d)) return false;
  YrU256 q, r;
  u256_divmod(n, d, &q, &r);
  if (ceil && !u256_is_zero(&r)) {
    YrU256 one;
    u256_set(&one, 0, 1);
    u256_add(&q, &one);
  }
  if (q.w[1] | q.w[2] | q.w[3]) return false;
  *out = q.w[0];
  return true;
}

/* A little-endian u128 field of account data. */
static void u256_read_u128(YrU256 *out, const uint8_t *bytes) {
  u256_set(out, yr_read_u64(bytes + 8), yr_read_u64(bytes));
}

/* Writes the low 128 bits; false when the value does not fit. */
static bool u256_write_u128(uint8_t *bytes, const YrU256 *value) {
  if (value->w[2] | value->w[3]) return false;
  yr_write_u64(bytes, value->w[0]);
  yr_write_u64(bytes + 8, value->w[1]);
  return true;
}

#endif
