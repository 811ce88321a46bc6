"""Radicle: ssh-keygen and cryptography read the key pair `export radicle` writes, and its
config.json names the alias."""

from __future__ import annotations

import json

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519 as crypto_ed25519

from .common import first_line, run
from .exports import Exports


def check_exports(x: Exports) -> None:
    # radicle: ssh-keygen reads both files, cryptography loads the OpenSSH private key.
    home = x.scratch / "radicle"
    alias = f"parity{x.case.number}"
    if x.export("radicle", ["--home", str(home), "--alias", alias]):
        private_file, public_file = home / "keys/radicle", home / "keys/radicle.pub"
        public_line = public_file.read_text().split()
        x.check("radicle.pub", x.expected["radicle.sshPublicKey"], " ".join(public_line[:2]))
        x.check("radicle.pub comment", alias, " ".join(public_line[2:]))
        try:
            node = json.loads((home / "config.json").read_bytes())["node"]
            x.check("radicle config.json node.alias", alias, node.get("alias"))
        except Exception as error:  # noqa: BLE001
            x.reader_failed("radicle config.json", error)
        derived = run("ssh-keygen", ["-y", "-f", str(private_file)])
        if derived.returncode != 0:
            x.result.mismatches.append(
                (
                    "ssh-keygen -y keys/radicle",
                    "accepted",
                    f"rejected: {first_line(derived.stderr)}",
                )
            )
        else:
            x.check(
                "ssh-keygen -y keys/radicle",
                " ".join(public_line[:2]),
                " ".join(derived.stdout.decode().split()[:2]),
            )
        listed = run("ssh-keygen", ["-l", "-f", str(public_file)])
        if listed.returncode != 0:
            x.result.mismatches.append(
                ("ssh-keygen -l radicle.pub", "accepted", f"rejected: {first_line(listed.stderr)}")
            )
        else:
            fields = listed.stdout.decode().split()
            x.check(
                "ssh-keygen -l radicle.pub",
                x.expected["radicle.sshFingerprint"],
                fields[1] if len(fields) > 1 else "",
            )
        try:
            key = serialization.load_ssh_private_key(private_file.read_bytes(), password=None)
            if not isinstance(key, crypto_ed25519.Ed25519PrivateKey):
                raise ValueError(f"not an Ed25519 key: {type(key).__name__}")
            x.check(
                "keys/radicle (cryptography) key",
                x.expected["radicle.privateKey"],
                key.private_bytes_raw().hex(),
            )
        except Exception as error:  # noqa: BLE001
            x.reader_failed("keys/radicle (cryptography)", error)
