#!/usr/bin/env python3
"""Writes the MetaMask vault fixtures of Tests/GoldenVectors/Vectors/metamask/.

Requires the `cryptography` package; this script installs nothing itself:

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install cryptography
    /tmp/venv/bin/python scripts/make-metamask-fixtures.py

MetaMask keeps `KeyringController.vault`: the string @metamask/browser-passworder's
`encrypt(password, keyrings)` returns, compact JSON with the keys data, iv, keyMetadata, salt:

  key   = PBKDF2-HMAC-SHA256(UTF-8 password, salt, keyMetadata.params.iterations, 32 bytes)
          (600,000 today; 10,000 when keyMetadata is absent: vaults of browser-passworder < 4.2)
  data  = base64(AES-256-GCM(key, iv, compact JSON of the keyrings) ciphertext || 16-byte tag)
  iv    = base64 of 16 bytes, salt = base64 of 32 bytes (standard alphabet, padded).

The keyrings are a JSON array of {"type", "data"}; an "HD Key Tree" keyring's data holds
{"mnemonic", "numberOfAccounts", "hdPath"}, the mnemonic as text in older versions and as the
array of its UTF-8 bytes (@metamask/eth-hd-keyring's serialize) in newer ones. A "Simple Key
Pair" keyring holds imported private keys (data: a list of hex keys).

Salts and IVs are fixed below, so running the script again reproduces identical files. Only
published BIP-39 test mnemonics, the well-known key 0x4c0883a6…362318 and made-up passwords
appear here.
"""

import base64
import json
import pathlib

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC

OUT = pathlib.Path(__file__).resolve().parent.parent / "Tests/GoldenVectors/Vectors/metamask"

PASSWORD = "MetaMask test password 1"
ABANDON_ABOUT = " ".join(["abandon"] * 11 + ["about"])
LEGAL_WINNER = "legal winner thank year wave sausage worth useful legal winner thank yellow"
IMPORTED_KEY = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def compact(value) -> str:
    """JSON.stringify(value): no spaces, non-ASCII kept as is."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def hd(mnemonic: str, as_bytes: bool):
    words = list(mnemonic.encode("utf-8")) if as_bytes else mnemonic
    return {
        "type": "HD Key Tree",
        "data": {"mnemonic": words, "numberOfAccounts": 1, "hdPath": "m/44'/60'/0'/0"},
    }


def simple(keys):
    return {"type": "Simple Key Pair", "data": keys}


def vault(keyrings, salt_hex: str, iv_hex: str, iterations, password=PASSWORD) -> str:
    """`iterations=None` leaves keyMetadata out (legacy vaults: 10,000 iterations)."""
    salt, iv = bytes.fromhex(salt_hex), bytes.fromhex(iv_hex)
    kdf = PBKDF2HMAC(
        algorithm=hashes.SHA256(), length=32, salt=salt, iterations=iterations or 10_000
    )
    key = kdf.derive(password.encode("utf-8"))
    data = AESGCM(key).encrypt(iv, compact(keyrings).encode("utf-8"), None)
    payload = {"data": b64(data), "iv": b64(iv)}
    if iterations is not None:
        payload["keyMetadata"] = {"algorithm": "PBKDF2", "params": {"iterations": iterations}}
    payload["salt"] = b64(salt)
    return compact(payload)


def write(name: str, text: str) -> None:
    (OUT / name).write_text(text, encoding="utf-8")
    print(f"wrote {name}")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    current = vault(
        [hd(ABANDON_ABOUT, as_bytes=True)],
        "6d6574616d61736b2d3630306b2d73616c742d6669787475726500000000000a",
        "6d6d2d3630306b2d69762d3031323334",
        600_000,
    )
    # The vault string as the extension's console prints it.
    write("vault-600k-bytes.json", current)
    # The same inside the controller's state, as state files and btcrecover's extractor hold it.
    write(
        "state-600k.json",
        json.dumps({"KeyringController": {"vault": current}}, indent=2),
    )
    # The same inside chrome.storage.local's object.
    write(
        "storage-600k.json",
        compact({"data": {"KeyringController": {"vault": current}, "meta": {"version": 74}}}),
    )
    # A vault of browser-passworder < 4.2: no keyMetadata (10,000 iterations), mnemonic as text,
    # an imported key first.
    write(
        "legacy-text.json",
        vault(
            [simple([IMPORTED_KEY]), hd(LEGAL_WINNER, as_bytes=False)],
            "1e9ac7d0c0ffee00112233445566778899aabbccddeeff00112233445566778f",
            "00ff00ff00ff00ff00ff00ff00ff00ff",
            None,
        ),
    )
    # For `recover password`: the password typed with caps lock on (1,000 iterations, so a search
    # takes seconds in a debug build).
    write(
        "capslock-1000.json",
        vault(
            [hd(ABANDON_ABOUT, as_bytes=True)],
            "c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4",
            "c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4",
            1_000,
            password=PASSWORD.swapcase(),
        ),
    )
    # Imported keys only: it opens, but holds no Secret Recovery Phrase.
    write(
        "imported-only.json",
        vault(
            [simple([IMPORTED_KEY])],
            "0101010101010101010101010101010101010101010101010101010101010101",
            "01010101010101010101010101010101",
            1_000,
        ),
    )


if __name__ == "__main__":
    main()
