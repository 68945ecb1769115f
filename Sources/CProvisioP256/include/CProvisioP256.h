// A P-256 scalar multiplication by a fixed point through a precomputed table: ECDH with a
// recipient key that seals many payloads (Apple's encipherment key) at the cost of a fixed-base
// multiplication instead of a variable-base one.
//
// Built on BoringSSL's constant-time nistz256 assembly, which swift-crypto already links on
// Linux x86_64. Elsewhere `provisio_p256_table_available()` answers 0 and callers keep to
// swift-crypto's own ECDH.
#ifndef CPROVISIO_P256_H
#define CPROVISIO_P256_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when this build has the nistz256 primitives the table needs, else 0.
int provisio_p256_table_available(void);

/// Builds the table for the point (x, y), big-endian coordinates of a valid P-256 public key.
/// Returns NULL when the table is unavailable or memory is short. Release with
/// `provisio_p256_table_free`.
void *provisio_p256_table_create(const uint8_t x[32], const uint8_t y[32]);

void provisio_p256_table_free(void *table);

/// Writes the big-endian x coordinate of scalar·Q, where Q is the table's point and `scalar` a
/// big-endian value in [1, n − 1]. Constant time in the scalar. Returns 1, or 0 when the product
/// is the point at infinity (a scalar that is 0 mod n).
int provisio_p256_table_multiply(uint8_t out_x[32], const void *table, const uint8_t scalar[32]);

#ifdef __cplusplus
}
#endif

#endif
