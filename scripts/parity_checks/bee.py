"""bee: eth-keyfile decrypts the keys/swarm.key `export bee` writes (Web3 Secret Storage)
to the Swarm key, with the password given or the one it wrote."""

from __future__ import annotations

import json

from eth_keyfile import decode_keyfile_json

from .common import write_private
from .exports import Exports


def bee_password(data: bytes) -> bytes:
    """A password file as bee reads --password-file: leading and trailing newlines dropped."""
    return data.strip(b"\n")


def check_exports(x: Exports) -> None:
    bee = x.scratch / "bee"
    with_password_file = x.case.bee_password_file
    args = ["--data-dir", str(bee)]
    if with_password_file:
        password_file = x.scratch / "bee-password"
        # Written with a final newline half the time, as `echo pw > file` would.
        newline = b"\n" if x.case.number % 4 < 2 else b""
        write_private(password_file, x.case.password.encode("utf-8") + newline)
        args += ["--password-file", str(password_file)]
    if x.export("bee", args):
        try:
            if with_password_file:
                password = x.case.password.encode("utf-8")
            else:
                password = bee_password((bee / "password").read_bytes())
            keyfile = json.loads((bee / "keys/swarm.key").read_bytes())
            x.check(
                "bee keys/swarm.key key",
                x.expected["swarm.privateKey"],
                decode_keyfile_json(keyfile, password).hex(),
            )
            x.check(
                "bee keys/swarm.key address",
                str(x.expected["swarm.address"])[2:].lower(),
                # geth and bee compare the stated address ignoring case and an 0x prefix.
                str(keyfile.get("address")).lower().removeprefix("0x"),
            )
        except Exception as error:  # noqa: BLE001 - any rejection is the finding
            x.reader_failed("bee keys/swarm.key (eth-keyfile)", error)
