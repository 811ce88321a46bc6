#!/usr/bin/env python3
"""Writes the desktop Freedom identity-vault fixtures of Tests/GoldenVectors/Vectors/vaults/.

Requires the `cryptography` package; this script installs nothing itself:

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install cryptography
    /tmp/venv/bin/python scripts/make-vault-fixtures.py

Desktop Freedom writes `identity-vault.json` as JSON.stringify(vault, null, 2) (no trailing
newline) with `{"version": 1, "encrypted": <string>, "createdAt": <ISO 8601>}`. `encrypted` is
the output of @metamask/browser-passworder's `encrypt(password, {mnemonic})`: compact JSON with
the keys in the order data, iv, keyMetadata, salt, where

  key   = PBKDF2-HMAC-SHA256(UTF-8 password, salt, keyMetadata.params.iterations, 32 bytes)
          (10,000 iterations when keyMetadata is absent: vaults of browser-passworder < 4.2)
  data  = base64(AES-256-GCM(key, iv, compact JSON {"mnemonic": ...}) ciphertext || 16-byte tag)
  iv    = base64 of 16 bytes, salt = base64 of 32 bytes (standard alphabet, padded).

Salts and IVs are fixed below, so running the script again reproduces identical files. Only
published BIP-39 test mnemonics and a made-up password appear here.
"""

import base64
import json
import pathlib

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

OUT = pathlib.Path(__file__).resolve().parent.parent / "Tests/GoldenVectors/Vectors/vaults"

PASSWORD = "correct horse battery staple"
CREATED_AT = "2025-01-01T00:00:00.000Z"
ABANDON_ABOUT = " ".join(["abandon"] * 11 + ["about"])
ABANDON_ART = " ".join(["abandon"] * 23 + ["art"])


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def compact(value) -> str:
    """JSON.stringify(value): no spaces, non-ASCII kept as is."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def pbkdf2(password: str, salt: bytes, iterations: int) -> bytes:
    kdf = PBKDF2HMAC(algorithm=hashes.SHA256(), length=32, salt=salt, iterations=iterations)
    return kdf.derive(password.encode("utf-8"))


def seal(key: bytes, iv: bytes, mnemonic: str) -> bytes:
    """ciphertext || tag, as WebCrypto's AES-GCM encrypt returns it (128-bit tag, no AAD)."""
    return AESGCM(key).encrypt(iv, compact({"mnemonic": mnemonic}).encode("utf-8"), None)


def inner(data: bytes, iv: bytes, salt: bytes, key_metadata) -> str:
    payload = {"data": b64(data), "iv": b64(iv)}
    if key_metadata is not None:
        payload["keyMetadata"] = key_metadata
    payload["salt"] = b64(salt)
    return compact(payload)


def write(name: str, version: int, encrypted: str) -> None:
    text = json.dumps(
        {"version": version, "encrypted": encrypted, "createdAt": CREATED_AT},
        indent=2,
        ensure_ascii=False,
    )
    (OUT / name).write_text(text, encoding="utf-8")
    print(f"wrote {name}")


def pbkdf2_vault(
    salt_hex: str, iv_hex: str, mnemonic: str, iterations, version: int = 1, password=PASSWORD
) -> str:
    """`iterations=None` leaves keyMetadata out (legacy vaults: 10,000 iterations)."""
    salt, iv = bytes.fromhex(salt_hex), bytes.fromhex(iv_hex)
    key = pbkdf2(password, salt, iterations or 10_000)
    metadata = None if iterations is None else {"algorithm": "PBKDF2", "params": {"iterations": iterations}}
    return inner(seal(key, iv, mnemonic), iv, salt, metadata)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    write(
        "abandon-about.json",
        1,
        pbkdf2_vault(
            "a7c1e3b5d9f20468ace13579bdf02468a1b2c3d4e5f60718293a4b5c6d7e8f90",
            "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
            ABANDON_ABOUT,
            900_000,
        ),
    )
    write(
        "legacy-no-keymetadata.json",
        1,
        pbkdf2_vault(
            "5e4d3c2b1a09182736455463728190a0b0c0d0e0f101112131415161718191a1",
            "00112233445566778899aabbccddeeff",
            ABANDON_ART,
            None,
        ),
    )
    # The password typed with shift on its first key and its last key dropped, for `recover
    # password` (1,000 iterations, so a search of tens of thousands of candidates takes
    # seconds even in a debug build).
    write(
        "shifted-truncated.json",
        1,
        pbkdf2_vault(
            "4444444444444444444444444444444444444444444444444444444444444444",
            "44444444444444444444444444444444",
            ABANDON_ABOUT,
            1_000,
            password="Correct horse battery stapl",
        ),
    )
    # A well-formed, decryptable vault that claims version 2: readers must refuse it.
    write(
        "version-2.json",
        2,
        pbkdf2_vault(
            "2222222222222222222222222222222222222222222222222222222222222222",
            "22222222222222222222222222222222",
            ABANDON_ABOUT,
            10_000,
        ),
    )
    # A vault keyed with scrypt (no browser-passworder release writes this): readers must refuse it.
    salt = bytes.fromhex("3333333333333333333333333333333333333333333333333333333333333333")
    iv = bytes.fromhex("33333333333333333333333333333333")
    key = Scrypt(salt=salt, length=32, n=1024, r=8, p=1).derive(PASSWORD.encode("utf-8"))
    metadata = {"algorithm": "scrypt", "params": {"n": 1024, "r": 8, "p": 1}}
    write("algorithm-scrypt.json", 1, inner(seal(key, iv, ABANDON_ABOUT), iv, salt, metadata))


if __name__ == "__main__":
    main()
