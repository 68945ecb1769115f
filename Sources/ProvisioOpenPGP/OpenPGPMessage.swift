/// Signed and encrypted OpenPGP messages, as Google's push provisioning takes an issuer's
/// opaque payment card: "encrypted and signed in accordance with the OpenPGP specification
/// defined in RFC 4880", then base64.
///
/// `seal` writes, and `open` reads, this message (RFC 9580 §10.3's grammar):
///
///     PKESK v3 (RSA)…  SEIPD v1 ( [Compressed ( ] OPS v3  Literal  Signature v4 [ ) ] )
///
/// What is implemented, by RFC 9580 section (RFC 4880's numbering is the same where it exists):
/// - §4.2 packet framing: both header formats, every length form, partial bodies (read);
/// - §3.2 MPIs; §5.5.2–5.5.4 version 4 public and secret keys and subkeys, fingerprints, key
///   IDs; unprotected secret keys only (S2K usage 0; GnuPG exports a key without a passphrase
///   so);
/// - §5.5.5.1 and §5.1.3 / §5.2.2 RSA: EME-PKCS1-v1_5 session keys, PKCS #1 v1.5 signatures
///   with SHA-256/384/512 (the only algorithm Google documents for these keys);
/// - §5.2 version 4 signatures: binary and text documents, certifications, subkey bindings with
///   back-signatures, direct-key and revocation signatures; subpackets §5.2.3.7 onwards, a
///   critical unknown one invalidating its signature; key expiry and key flags;
/// - §5.1 PKESK v3; §5.4 one-pass signatures v3; §5.6 compressed data (ZIP, ZLIB); §5.9
///   literal data; §5.13.1 SEIPD v1 with AES-128/192/256 and its modification detection code;
/// - §6 ASCII armour, with RFC 4880 §6.1's CRC-24 written and checked;
/// - §10.1 / §10.2 transferable public and secret keys, read and written.
///
/// Left out: version 5 and 6 keys and signatures, SEIPD v2 / AEAD (§5.13.2), ECC and the other
/// public-key algorithms (DSA, ElGamal, ECDH, EdDSA, X25519…), password-encrypted messages
/// (SKESK), passphrase-protected secret keys (S2K), BZip2, cleartext signatures (§7), detached
/// signatures, user attributes, third-party certifications and trust (kept, never checked),
/// designated revokers, and data encrypted without integrity protection (refused).
///
/// Every input is bounded by `OpenPGPLimits`; every failure is an `OpenPGPError` with a stable
/// code. Nothing here logs, and no error carries key material or plaintext.
public enum OpenPGPMessage {}
