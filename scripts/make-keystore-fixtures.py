#!/usr/bin/env python3
"""Writes the web3 v3 keystores of Tests/GoldenVectors/Vectors/keystores/ with eth-keyfile.

Requires the `eth-keyfile` package (0.10.0 wrote the committed files); this script installs
nothing itself:

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install eth-keyfile
    /tmp/venv/bin/python scripts/make-keystore-fixtures.py

eth-keyfile draws its salt, IV and id at random, so a new run writes other bytes that open the
same way. The private key and the password "testpassword" are the Web3 Secret Storage
Definition's published test vector; the costs are small (scrypt n=1024, pbkdf2 c=1000) so
that `recover password` tests can try hundreds of candidates in a second.
"""
import json
import os

import eth_keyfile

KEY = bytes.fromhex("7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d")
PASSWORD = b"testpassword"
OUT = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "GoldenVectors", "Vectors",
    "keystores")

os.makedirs(OUT, exist_ok=True)
for kdf, work in [("scrypt", 1024), ("pbkdf2", 1000)]:
    keyfile = eth_keyfile.create_keyfile_json(KEY, PASSWORD, kdf=kdf, iterations=work)
    assert eth_keyfile.decode_keyfile_json(keyfile, PASSWORD) == KEY
    with open(os.path.join(OUT, f"eth-keyfile-{kdf}.json"), "w") as out:
        out.write(json.dumps(keyfile, indent=2) + "\n")
