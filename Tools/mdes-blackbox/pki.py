"""A throw-away PKI for the mutually authenticated TLS the Pre-Digitization API requires:
a CA, a server certificate for 127.0.0.1 and a client certificate (playing MDES), plus a
second, untrusted CA with its own client certificate for the negative check."""

import datetime
import ipaddress
import os

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


def new_rsa(bits=2048):
    return rsa.generate_private_key(public_exponent=65537, key_size=bits)


def _name(cn):
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "mdes-blackbox test"),
                      x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def _validity(builder):
    now = datetime.datetime.now(datetime.timezone.utc)
    return builder.not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=2))


def make_ca(cn):
    key = new_rsa()
    builder = _validity(x509.CertificateBuilder()
                        .subject_name(_name(cn)).issuer_name(_name(cn))
                        .public_key(key.public_key()).serial_number(x509.random_serial_number()))
    builder = (builder.add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
               .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                            data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                            crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False))
    return key, builder.sign(key, hashes.SHA256())


def make_leaf(ca_key, ca_cert, cn, server):
    key = new_rsa()
    builder = _validity(x509.CertificateBuilder()
                        .subject_name(_name(cn)).issuer_name(ca_cert.subject)
                        .public_key(key.public_key()).serial_number(x509.random_serial_number()))
    builder = (builder.add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
               .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=True,
                                            data_encipherment=False, key_agreement=False, key_cert_sign=False,
                                            crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
               .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH if server
                                                     else ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
               .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False))
    if server:
        builder = builder.add_extension(x509.SubjectAlternativeName([
            x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]), critical=False)
    return key, builder.sign(ca_key, hashes.SHA256())


def write_key(path, key):
    with open(path, "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption()))
    os.chmod(path, 0o600)


def write_cert(path, *certs):
    with open(path, "wb") as f:
        for c in certs:
            f.write(c.public_bytes(serialization.Encoding.PEM))


def make_all(directory):
    """Writes every file into `directory`; returns a dict of paths."""
    ca_key, ca = make_ca("mdes-blackbox CA")
    srv_key, srv = make_leaf(ca_key, ca, "127.0.0.1", server=True)
    cli_key, cli = make_leaf(ca_key, ca, "MDES stand-in client", server=False)
    rogue_ca_key, rogue_ca = make_ca("untrusted CA")
    rogue_key, rogue = make_leaf(rogue_ca_key, rogue_ca, "untrusted client", server=False)
    p = {name: os.path.join(directory, name) for name in
         ("ca.pem", "server.pem", "server-key.pem", "client.pem", "client-key.pem", "rogue.pem", "rogue-key.pem")}
    write_cert(p["ca.pem"], ca)
    write_cert(p["server.pem"], srv)
    write_key(p["server-key.pem"], srv_key)
    write_cert(p["client.pem"], cli)
    write_key(p["client-key.pem"], cli_key)
    write_cert(p["rogue.pem"], rogue)
    write_key(p["rogue-key.pem"], rogue_key)
    return p
