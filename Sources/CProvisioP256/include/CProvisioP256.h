// A P-256 scalar multiplication by a fixed point through a precomputed table: ECDH with a
// recipient key that seals many payloads (Apple's encipherment key) at the cost of a fixed-base
// multiplication instead of a variable-base one.
//
// Built on BoringSSL's constant-time nistz256 assembly, which swift-crypto already links on
// Linux x86_64, through weak references to its internal symbols. Where any of them is missing
// (other platforms, a swift-crypto that renamed one) `provisio_p256_table_available()` answers 0
// and callers keep to swift-crypto's own ECDH.
#ifndef CPROVISIO_P256_H
#define CPROVISIO_P256_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when every nistz256 primitive the table needs resolved in this link, else 0.
int provisio_p256_table_available(void);

/// Bits of `provisio_p256_table_variant()`.
#define PROVISIO_P256_VARIANT_ADX 1   // the `_adx` field arithmetic (MULX, ADCX, ADOX); else `_nohw`
#define PROVISIO_P256_VARIANT_AVX2 2  // `select_w7_avx2`; else `select_w7_nohw`

/// Which of BoringSSL's variants multiplications in this process run on, as bits above (chosen
/// from the CPU, less what `OPENSSL_ia32cap` masks off); -1 when the table is unavailable.
int provisio_p256_table_variant(void);

/// Builds the table for the point (x, y), big-endian coordinates. Returns NULL when the table is
/// unavailable, memory is short, or (x, y) is not a point of P-256 (a coordinate ≥ p, or
/// y² ≠ x³ − 3x + b). Release with `provisio_p256_table_free`.
void *provisio_p256_table_create(const uint8_t x[32], const uint8_t y[32]);

void provisio_p256_table_free(void *table);

/// Writes the big-endian x coordinate of scalar·Q, where Q is the table's point and `scalar` a
/// big-endian value in [1, n − 1]. Constant time in the scalar; wipes its own copies of the
/// scalar and of the intermediate points. Returns 1, or 0 when the product is the point at
/// infinity (a scalar that is 0 mod n).
int provisio_p256_table_multiply(uint8_t out_x[32], const void *table, const uint8_t scalar[32]);

/// Zeroes `count` bytes with stores the compiler cannot remove (for secrets about to be freed).
void provisio_p256_wipe(void *bytes, size_t count);

#ifdef __cplusplus
}
#endif

#endif
