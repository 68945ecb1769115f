"""The Issuer Outbound API's `encryptedPayload`, as MDES builds it.

Written for this black-box client from Mastercard's Issuer Outbound document 2.0.33
(`encryptedPayloadIn`, `fundingAccountDataSchema`) and the Pre-Digitization page
"Security Overview and Encryption":

  * a one-time AES key, 128 bits (required) or 256 bits (optional);
  * `encryptedKey`: that key wrapped with the issuer's RSA public key, OAEP when
    `oaepHashingAlgorithm` is SHA256 or SHA512, PKCS#1 v1.5 when it is absent;
  * `encryptedData`: the JSON object encrypted with AES, `algorithmCipherMode` GCM
    (`iv` 12 bytes, `tag`, `aad`) or CBC (`iv` 16 bytes, PKCS#7 padding; no iv = zeros);
  * every binary field hex (case-insensitive), `publicKeyFingerprint` hex of 32-64 chars.

Open points, and what this client chooses (README.md says the same):
  * OAEP's MGF1 digest is not named: this client uses the OAEP digest for MGF1 too and an
    empty label (what Mastercard's client-encryption library does).
  * `aad` content is not described: this client sends 16 random bytes and feeds them to
    GCM as additional authenticated data.
  * The tag length is not given beyond "at most 36 hex": this client sends 16 bytes.
  * The fingerprint's computation is not given: this client computes SHA-256 over the DER
    SubjectPublicKeyInfo (lower-case hex), and compares it with what Provisio prints.
"""

import hashlib
import json
import os

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives import padding as sym_padding
from cryptography.hazmat.primitives.asymmetric import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

MODES = ("GCM", "CBC")
WRAPS = ("SHA256", "SHA512", None)  # None: PKCS#1 v1.5 (oaepHashingAlgorithm absent)
KEY_BITS = (128, 256)


def spki_der(public_key):
    return public_key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


def fingerprint_sha256(public_key):
    return hashlib.sha256(spki_der(public_key)).hexdigest()


def fingerprint_sha1(public_key):
    return hashlib.sha1(spki_der(public_key)).hexdigest()


def _oaep(name):
    digest = {"SHA256": hashes.SHA256, "SHA512": hashes.SHA512}[name]()
    return padding.OAEP(mgf=padding.MGF1(algorithm=digest), algorithm=digest, label=None)


def wrap_key(public_key, aes_key, oaep_hash):
    if oaep_hash is None:
        return public_key.encrypt(aes_key, padding.PKCS1v15())
    return public_key.encrypt(aes_key, _oaep(oaep_hash))


def unwrap_key(private_key, wrapped, oaep_hash):
    if oaep_hash is None:
        return private_key.decrypt(wrapped, padding.PKCS1v15())
    return private_key.decrypt(wrapped, _oaep(oaep_hash))


def aes_encrypt(mode, key, plaintext, iv=None, aad=None):
    """Returns (ciphertext, iv, tag, aad); tag and aad are None for CBC."""
    if mode == "GCM":
        iv = os.urandom(12) if iv is None else iv
        aad = os.urandom(16) if aad is None else aad
        sealed = AESGCM(key).encrypt(iv, plaintext, aad)
        return sealed[:-16], iv, sealed[-16:], aad
    if mode == "CBC":
        iv = os.urandom(16) if iv is None else iv
        padder = sym_padding.PKCS7(128).padder()
        padded = padder.update(plaintext) + padder.finalize()
        enc = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
        return enc.update(padded) + enc.finalize(), iv, None, None
    raise ValueError("mode must be GCM or CBC")


def aes_decrypt(mode, key, ciphertext, iv, tag=None, aad=None):
    if mode == "GCM":
        return AESGCM(key).decrypt(iv, ciphertext + tag, aad)
    if iv is None:
        iv = bytes(16)
    dec = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
    padded = dec.update(ciphertext) + dec.finalize()
    unpadder = sym_padding.PKCS7(128).unpadder()
    return unpadder.update(padded) + unpadder.finalize()


def encrypt_payload(plaintext_obj, public_key, fingerprint, mode="GCM", oaep_hash="SHA256",
                    key_bits=128, send_iv=True):
    """Builds an `encryptedPayload` object (all binary fields lower-case hex).
    `send_iv=False` (CBC only) leaves `iv` out and encrypts with the zero IV the
    document says is then assumed."""
    aes_key = os.urandom(key_bits // 8)
    plaintext = json.dumps(plaintext_obj, separators=(",", ":")).encode("utf-8")
    iv = None
    if mode == "CBC" and not send_iv:
        iv = bytes(16)
    ciphertext, iv, tag, aad = aes_encrypt(mode, aes_key, plaintext, iv=iv)
    payload = {
        "encryptedData": ciphertext.hex(),
        "encryptedKey": wrap_key(public_key, aes_key, oaep_hash).hex(),
        "publicKeyFingerprint": fingerprint,
        "algorithmCipherMode": mode,
    }
    if oaep_hash is not None:
        payload["oaepHashingAlgorithm"] = oaep_hash
    if send_iv:
        payload["iv"] = iv.hex()
    if mode == "GCM":
        payload["tag"] = tag.hex()
        payload["aad"] = aad.hex()
    return payload


def decrypt_payload(payload, private_key):
    """The receiving side, written from the same field descriptions; used by the self-tests."""
    oaep_hash = payload.get("oaepHashingAlgorithm")
    aes_key = unwrap_key(private_key, bytes.fromhex(payload["encryptedKey"]), oaep_hash)
    if len(aes_key) not in (16, 32):
        raise ValueError("unwrapped key is %d bytes" % len(aes_key))
    mode = payload.get("algorithmCipherMode", "CBC")
    iv = bytes.fromhex(payload["iv"]) if "iv" in payload else None
    tag = bytes.fromhex(payload["tag"]) if "tag" in payload else None
    aad = bytes.fromhex(payload["aad"]) if "aad" in payload else None
    if mode == "GCM" and iv is None:
        iv = bytes(12)
    plaintext = aes_decrypt(mode, aes_key, bytes.fromhex(payload["encryptedData"]), iv, tag, aad)
    return json.loads(plaintext.decode("utf-8"))


def variants():
    for mode in MODES:
        for wrap in WRAPS:
            for bits in KEY_BITS:
                yield mode, wrap, bits


def variant_name(mode, wrap, bits):
    return "%s/%s/AES-%d" % (mode, "OAEP-" + wrap if wrap else "PKCS1v1.5", bits)
