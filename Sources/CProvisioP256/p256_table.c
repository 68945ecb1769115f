// Fixed-point P-256 multiplication over BoringSSL's nistz256 primitives.
//
// The table holds, for each of 37 windows of 7 bits, the affine multiples 1·B … 64·B of
// B = 2^(7·window)·Q, in the Montgomery domain — the layout BoringSSL uses for the generator, so
// its constant-time `select_w7` reads it. A multiplication recodes the scalar into signed digits
// in [−64, 64] and adds one selected (and conditionally negated) entry per window: 36 mixed
// additions and no doublings, against some 255 doublings and 50 additions for an arbitrary point.
//
// The primitives are swift-crypto's vendored BoringSSL (symbols prefixed `CCryptoBoringSSL_`,
// hidden, but resolvable from another object of the same static link). They are internal to
// BoringSSL, so every reference is weak: a swift-crypto that renamed or dropped one still links,
// `provisio_p256_table_available()` answers 0 and callers keep to swift-crypto's ECDH. A function
// that kept its name but changed its meaning is caught by the Swift side, which checks every new
// table against swift-crypto's ECDH before it seals with it (P256KeyAgreementTable).
#include "CProvisioP256.h"

#include <stdlib.h>
#include <string.h>

void provisio_p256_wipe(void *bytes, size_t count) {
    // Volatile stores: the compiler may not drop them as dead, even just before a free or a return.
    volatile uint8_t *target = bytes;
    for (size_t i = 0; i < count; i++) target[i] = 0;
}

#if defined(__linux__) && defined(__x86_64__)

typedef uint64_t felem[4];  // little-endian 64-bit limbs, Montgomery domain
typedef struct { felem X, Y, Z; } jacobian_point;
typedef struct { felem X, Y; } affine_point;

enum { WINDOWS = 37, ROW = 64 };

#define BORINGSSL_INTERNAL __attribute__((weak))

BORINGSSL_INTERNAL extern uint32_t CCryptoBoringSSL_OPENSSL_get_ia32cap(int idx);
BORINGSSL_INTERNAL extern void CCryptoBoringSSL_ecp_nistz256_neg(felem res, const felem a);
BORINGSSL_INTERNAL extern void CCryptoBoringSSL_ecp_nistz256_mul_mont_adx(felem res, const felem a, const felem b);
BORINGSSL_INTERNAL extern void CCryptoBoringSSL_ecp_nistz256_mul_mont_nohw(felem res, const felem a, const felem b);
BORINGSSL_INTERNAL extern void CCryptoBoringSSL_ecp_nistz256_sqr_mont_adx(felem res, const felem a);
BORINGSSL_INTERNAL extern void CCryptoBoringSSL_ecp_nistz256_sqr_mont_nohw(felem res, const felem a);
BORINGSSL_INTERNAL extern void CCryptoBoringSSL_ecp_nistz256_select_w7_avx2(affine_point *out,
                                                                            const affine_point row[ROW], int index);
BORINGSSL_INTERNAL extern void CCryptoBoringSSL_ecp_nistz256_select_w7_nohw(affine_point *out,
                                                                            const affine_point row[ROW], int index);
BORINGSSL_INTERNAL extern void CCryptoBoringSSL_ecp_nistz256_point_double_adx(jacobian_point *r,
                                                                              const jacobian_point *a);
BORINGSSL_INTERNAL extern void CCryptoBoringSSL_ecp_nistz256_point_double_nohw(jacobian_point *r,
                                                                               const jacobian_point *a);
BORINGSSL_INTERNAL extern void CCryptoBoringSSL_ecp_nistz256_point_add_adx(jacobian_point *r, const jacobian_point *a,
                                                                           const jacobian_point *b);
BORINGSSL_INTERNAL extern void CCryptoBoringSSL_ecp_nistz256_point_add_nohw(jacobian_point *r, const jacobian_point *a,
                                                                            const jacobian_point *b);
BORINGSSL_INTERNAL extern void CCryptoBoringSSL_ecp_nistz256_point_add_affine_adx(jacobian_point *r,
                                                                                  const jacobian_point *a,
                                                                                  const affine_point *b);
BORINGSSL_INTERNAL extern void CCryptoBoringSSL_ecp_nistz256_point_add_affine_nohw(jacobian_point *r,
                                                                                   const jacobian_point *a,
                                                                                   const affine_point *b);

// R mod p and R² mod p for R = 2^256: the Montgomery forms of 1 and of R.
static const felem montgomery_one = {0x0000000000000001, 0xffffffff00000000, 0xffffffffffffffff,
                                     0x00000000fffffffe};
static const felem montgomery_r_squared = {0x0000000000000003, 0xfffffffbffffffff, 0xfffffffffffffffe,
                                           0x00000004fffffffd};
static const felem plain_one = {1, 0, 0, 0};
// The field prime p and the curve's b, plain (not Montgomery) little-endian limbs.
static const felem field_prime = {0xffffffffffffffff, 0x00000000ffffffff, 0x0000000000000000,
                                  0xffffffff00000001};
static const felem curve_b = {0x3bce3c3e27d2604b, 0x651d06b0cc53b0f6, 0xb3ebbd55769886bc, 0x5ac635d8aa3a93e7};

int provisio_p256_table_available(void) {
    // An unresolved weak reference is a null address.
    return CCryptoBoringSSL_OPENSSL_get_ia32cap != NULL && CCryptoBoringSSL_ecp_nistz256_neg != NULL &&
           CCryptoBoringSSL_ecp_nistz256_mul_mont_adx != NULL && CCryptoBoringSSL_ecp_nistz256_mul_mont_nohw != NULL &&
           CCryptoBoringSSL_ecp_nistz256_sqr_mont_adx != NULL && CCryptoBoringSSL_ecp_nistz256_sqr_mont_nohw != NULL &&
           CCryptoBoringSSL_ecp_nistz256_select_w7_avx2 != NULL &&
           CCryptoBoringSSL_ecp_nistz256_select_w7_nohw != NULL &&
           CCryptoBoringSSL_ecp_nistz256_point_double_adx != NULL &&
           CCryptoBoringSSL_ecp_nistz256_point_double_nohw != NULL &&
           CCryptoBoringSSL_ecp_nistz256_point_add_adx != NULL && CCryptoBoringSSL_ecp_nistz256_point_add_nohw != NULL &&
           CCryptoBoringSSL_ecp_nistz256_point_add_affine_adx != NULL &&
           CCryptoBoringSSL_ecp_nistz256_point_add_affine_nohw != NULL;
}

// Returns `value` unchanged, but the empty asm makes the compiler forget what it knows about it.
// Applied to a mask, it keeps `(a & mask) | (b & ~mask)` a select: knowing a mask can only be all
// ones or all zeros, clang may otherwise compile the select into a branch on a secret.
static inline uint64_t opaque64(uint64_t value) {
    __asm__("" : "+r"(value));
    return value;
}

static inline uint32_t opaque32(uint32_t value) {
    __asm__("" : "+r"(value));
    return value;
}

// The same CPU tests BoringSSL makes before it picks a variant: MULX (BMI2) with ADCX/ADOX (ADX),
// and AVX2 (which BoringSSL's detection clears when the OS does not save YMM registers). Both
// honour OPENSSL_ia32cap, which BoringSSL applies when it first probes the CPU.
static int has_adx(void) {
    uint32_t leaf7 = CCryptoBoringSSL_OPENSSL_get_ia32cap(2);
    return (leaf7 & (1u << 8)) != 0 && (leaf7 & (1u << 19)) != 0;
}

static int has_avx2(void) { return (CCryptoBoringSSL_OPENSSL_get_ia32cap(2) & (1u << 5)) != 0; }

int provisio_p256_table_variant(void) {
    if (!provisio_p256_table_available()) return -1;
    return (has_adx() ? PROVISIO_P256_VARIANT_ADX : 0) | (has_avx2() ? PROVISIO_P256_VARIANT_AVX2 : 0);
}

static void mul(felem r, const felem a, const felem b) {
    if (has_adx()) {
        CCryptoBoringSSL_ecp_nistz256_mul_mont_adx(r, a, b);
    } else {
        CCryptoBoringSSL_ecp_nistz256_mul_mont_nohw(r, a, b);
    }
}

static void sqr(felem r, const felem a) {
    if (has_adx()) {
        CCryptoBoringSSL_ecp_nistz256_sqr_mont_adx(r, a);
    } else {
        CCryptoBoringSSL_ecp_nistz256_sqr_mont_nohw(r, a);
    }
}

static void sqr_times(felem r, const felem a, int times) {
    memcpy(r, a, sizeof(felem));
    for (int i = 0; i < times; i++) sqr(r, r);
}

static void select_w7(affine_point *out, const affine_point row[ROW], int index) {
    if (has_avx2()) {
        CCryptoBoringSSL_ecp_nistz256_select_w7_avx2(out, row, index);
    } else {
        CCryptoBoringSSL_ecp_nistz256_select_w7_nohw(out, row, index);
    }
}

static void point_double(jacobian_point *r, const jacobian_point *a) {
    if (has_adx()) {
        CCryptoBoringSSL_ecp_nistz256_point_double_adx(r, a);
    } else {
        CCryptoBoringSSL_ecp_nistz256_point_double_nohw(r, a);
    }
}

static void point_add(jacobian_point *r, const jacobian_point *a, const jacobian_point *b) {
    if (has_adx()) {
        CCryptoBoringSSL_ecp_nistz256_point_add_adx(r, a, b);
    } else {
        CCryptoBoringSSL_ecp_nistz256_point_add_nohw(r, a, b);
    }
}

static void point_add_affine(jacobian_point *r, const jacobian_point *a, const affine_point *b) {
    if (has_adx()) {
        CCryptoBoringSSL_ecp_nistz256_point_add_affine_adx(r, a, b);
    } else {
        CCryptoBoringSSL_ecp_nistz256_point_add_affine_nohw(r, a, b);
    }
}

// r = a^(2^n) · b: a shifted left by n bits in the exponent, then b's bits appended.
static void shift_then_mul(felem r, const felem a, int n, const felem b) {
    felem t;
    sqr_times(t, a, n);
    mul(r, t, b);
}

// z^(p − 2) = z⁻¹ in the Montgomery domain (Fermat), a fixed sequence of 269 squarings and 13
// multiplications: constant time. p − 2 reads, from the top, 32 ones, 31 zeros and a one, 96
// zeros, 32 ones, 32 ones, 30 ones, a zero and a one. zN is z raised to N one-bits.
static void invert(felem r, const felem z) {
    felem z2, z4, z8, z16, z32, z24, z28, z30, t;
    shift_then_mul(z2, z, 1, z);
    shift_then_mul(z4, z2, 2, z2);
    shift_then_mul(z8, z4, 4, z4);
    shift_then_mul(z16, z8, 8, z8);
    shift_then_mul(z32, z16, 16, z16);
    shift_then_mul(z24, z16, 8, z8);
    shift_then_mul(z28, z24, 4, z4);
    shift_then_mul(z30, z28, 2, z2);

    shift_then_mul(t, z32, 32, z);    // ffffffff 00000001
    shift_then_mul(t, t, 96 + 32, z32);  // 96 zeros, ffffffff
    shift_then_mul(t, t, 32, z32);    // ffffffff
    shift_then_mul(t, t, 30, z30);    // 30 ones …
    shift_then_mul(r, t, 2, z);       // … then 01
}

static void from_big_endian(felem r, const uint8_t bytes[32]) {
    for (int limb = 0; limb < 4; limb++) {
        uint64_t value = 0;
        for (int i = 0; i < 8; i++) value = (value << 8) | bytes[(3 - limb) * 8 + i];
        r[limb] = value;
    }
}

static void to_big_endian(uint8_t bytes[32], const felem a) {
    for (int limb = 0; limb < 4; limb++) {
        for (int i = 0; i < 8; i++) bytes[(3 - limb) * 8 + i] = (uint8_t)(a[limb] >> (56 - 8 * i));
    }
}

// The on-curve check's helpers work on the public key only, so they may branch.

// Whether a < p.
static int is_reduced(const felem a) {
    for (int limb = 3; limb >= 0; limb--) {
        if (a[limb] != field_prime[limb]) return a[limb] < field_prime[limb];
    }
    return 0;
}

// r = a + b mod p, for a, b < p (either domain: addition does not care).
static void add_mod(felem r, const felem a, const felem b) {
    felem sum, less_p;
    unsigned __int128 carry = 0;
    for (int limb = 0; limb < 4; limb++) {
        carry += (unsigned __int128)a[limb] + b[limb];
        sum[limb] = (uint64_t)carry;
        carry >>= 64;
    }
    uint64_t borrow = 0;
    for (int limb = 0; limb < 4; limb++) {
        unsigned __int128 difference = (unsigned __int128)sum[limb] - field_prime[limb] - borrow;
        less_p[limb] = (uint64_t)difference;
        borrow = (uint64_t)(difference >> 64) & 1;
    }
    // a + b ≥ p when it overflowed 256 bits or subtracting p did not borrow.
    memcpy(r, (carry != 0 || borrow == 0) ? less_p : sum, sizeof(felem));
}

// Reads (x, y) into the Montgomery domain, or answers 0 unless both coordinates are below p and
// y² = x³ − 3x + b: a point off the curve would make the table multiply on another curve.
static int read_curve_point(affine_point *out, const uint8_t x[32], const uint8_t y[32]) {
    felem plain_x, plain_y, b, lhs, rhs, three_x;
    from_big_endian(plain_x, x);
    from_big_endian(plain_y, y);
    if (!is_reduced(plain_x) || !is_reduced(plain_y)) return 0;
    mul(out->X, plain_x, montgomery_r_squared);
    mul(out->Y, plain_y, montgomery_r_squared);
    mul(b, curve_b, montgomery_r_squared);

    sqr(lhs, out->Y);
    sqr(rhs, out->X);
    mul(rhs, rhs, out->X);
    add_mod(three_x, out->X, out->X);
    add_mod(three_x, three_x, out->X);
    CCryptoBoringSSL_ecp_nistz256_neg(three_x, three_x);
    add_mod(rhs, rhs, three_x);
    add_mod(rhs, rhs, b);
    return memcmp(lhs, rhs, sizeof(felem)) == 0;
}

// Converts a row of Jacobian points to affine with one inversion (Montgomery's trick). Public
// data only: the table is made from a public key.
static void row_to_affine(affine_point out[ROW], const jacobian_point in[ROW]) {
    felem prefix[ROW];
    memcpy(prefix[0], in[0].Z, sizeof(felem));
    for (int i = 1; i < ROW; i++) mul(prefix[i], prefix[i - 1], in[i].Z);
    felem inverse;
    invert(inverse, prefix[ROW - 1]);
    for (int i = ROW - 1; i >= 0; i--) {
        felem z_inverse, z_inverse2, z_inverse3;
        if (i > 0) {
            mul(z_inverse, inverse, prefix[i - 1]);
            mul(inverse, inverse, in[i].Z);
        } else {
            memcpy(z_inverse, inverse, sizeof(felem));
        }
        sqr(z_inverse2, z_inverse);
        mul(z_inverse3, z_inverse2, z_inverse);
        mul(out[i].X, in[i].X, z_inverse2);
        mul(out[i].Y, in[i].Y, z_inverse3);
    }
}

void *provisio_p256_table_create(const uint8_t x[32], const uint8_t y[32]) {
    if (!provisio_p256_table_available()) return NULL;
    affine_point point;
    if (!read_curve_point(&point, x, y)) return NULL;
    // 32-byte alignment for select_w7_avx2's aligned loads; 64 for the cache lines.
    affine_point *table = aligned_alloc(64, sizeof(affine_point) * WINDOWS * ROW);
    jacobian_point *row = malloc(sizeof(jacobian_point) * ROW);
    if (table == NULL || row == NULL) {
        free(table);
        free(row);
        return NULL;
    }
    jacobian_point base;
    memcpy(base.X, point.X, sizeof(felem));
    memcpy(base.Y, point.Y, sizeof(felem));
    memcpy(base.Z, montgomery_one, sizeof(felem));

    for (int window = 0; window < WINDOWS; window++) {
        row[0] = base;
        point_double(&row[1], &base);
        // j·B for j ≥ 3 never meets ±B: that would need j ∓ 1 ≡ 0 mod n.
        for (int j = 2; j < ROW; j++) point_add(&row[j], &row[j - 1], &base);
        row_to_affine(&table[window * ROW], row);
        for (int i = 0; i < 7; i++) point_double(&base, &base);
    }
    free(row);
    return table;
}

void provisio_p256_table_free(void *table) { free(table); }

// All ones when `value` is zero, else zero, without a branch.
static uint64_t zero_mask(uint64_t value) { return opaque64(((value | (0 - value)) >> 63) - 1); }

int provisio_p256_table_multiply(uint8_t out_x[32], const void *table_pointer, const uint8_t scalar[32]) {
    const affine_point *table = table_pointer;
    if (table == NULL) return 0;
    // Little-endian with a zero byte on top, so every window can read two bytes.
    uint8_t bits[33];
    for (int i = 0; i < 32; i++) bits[i] = scalar[31 - i];
    bits[32] = 0;

    jacobian_point accumulator;
    affine_point entry;
    felem negated_y;
    for (int window = 0; window < WINDOWS; window++) {
        // Eight bits: the window's seven, and below them the top bit of the window before.
        uint32_t raw;
        if (window == 0) {
            raw = ((uint32_t)bits[0] << 1) & 0xff;
        } else {
            int low = window * 7 - 1;
            raw = (((uint32_t)bits[low / 8] | ((uint32_t)bits[low / 8 + 1] << 8)) >> (low % 8)) & 0xff;
        }
        // Signed digit: ceil(raw / 2), less 128 when the top bit is set; as sign and magnitude.
        uint32_t negative = raw >> 7;
        uint32_t folded = (raw ^ opaque32(0u - negative)) & 0xff;
        int magnitude = (int)((folded + 1) >> 1);

        select_w7(&entry, &table[window * ROW], magnitude);
        CCryptoBoringSSL_ecp_nistz256_neg(negated_y, entry.Y);
        uint64_t take_negated = opaque64(0 - (uint64_t)negative);
        for (int limb = 0; limb < 4; limb++) {
            entry.Y[limb] = (negated_y[limb] & take_negated) | (entry.Y[limb] & ~take_negated);
        }

        if (window == 0) {
            // Digit zero selects (0, 0): the accumulator starts at infinity (Z = 0).
            uint64_t nonzero = ~zero_mask((uint64_t)magnitude);
            memcpy(accumulator.X, entry.X, sizeof(felem));
            memcpy(accumulator.Y, entry.Y, sizeof(felem));
            for (int limb = 0; limb < 4; limb++) accumulator.Z[limb] = montgomery_one[limb] & nonzero;
        } else {
            point_add_affine(&accumulator, &accumulator, &entry);
        }
    }

    felem z_inverse, z_inverse2, x;
    uint64_t z_bits = accumulator.Z[0] | accumulator.Z[1] | accumulator.Z[2] | accumulator.Z[3];
    invert(z_inverse, accumulator.Z);
    sqr(z_inverse2, z_inverse);
    mul(x, accumulator.X, z_inverse2);
    mul(x, x, plain_one);  // out of the Montgomery domain
    to_big_endian(out_x, x);
    int finite = (int)(1 & ~zero_mask(z_bits));

    // The scalar's copy, and everything it selected or summed to, leave no trace on the stack.
    provisio_p256_wipe(bits, sizeof(bits));
    provisio_p256_wipe(&entry, sizeof(entry));
    provisio_p256_wipe(negated_y, sizeof(negated_y));
    provisio_p256_wipe(&accumulator, sizeof(accumulator));
    provisio_p256_wipe(z_inverse, sizeof(z_inverse));
    provisio_p256_wipe(z_inverse2, sizeof(z_inverse2));
    provisio_p256_wipe(x, sizeof(x));
    return finite;
}

#else

int provisio_p256_table_available(void) { return 0; }

int provisio_p256_table_variant(void) { return -1; }

void *provisio_p256_table_create(const uint8_t x[32], const uint8_t y[32]) {
    (void)x;
    (void)y;
    return NULL;
}

void provisio_p256_table_free(void *table) { (void)table; }

int provisio_p256_table_multiply(uint8_t out_x[32], const void *table, const uint8_t scalar[32]) {
    (void)out_x;
    (void)table;
    (void)scalar;
    return 0;
}

#endif
