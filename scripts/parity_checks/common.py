"""What every part of the parity check shares: the paths and constants of the references,
running freedom-keys and other programs, a case's result, private files."""

from __future__ import annotations

import os
import pathlib
import subprocess
from dataclasses import dataclass, field


ROOT = pathlib.Path(__file__).resolve().parent.parent.parent  # the checkout

# The ten BIP-39 languages freedom-keys reads, in python-mnemonic's names (which are also the
# CLI's). python-mnemonic also ships russian and turkish lists, which are not BIP-39 lists.
LANGUAGES = [
    "english",
    "japanese",
    "korean",
    "spanish",
    "chinese_simplified",
    "chinese_traditional",
    "french",
    "italian",
    "czech",
    "portuguese",
]
CHINESE = {"chinese_simplified", "chinese_traditional"}
LATIN = {"english", "spanish", "french", "italian", "czech", "portuguese"}
WORD_COUNTS = [12, 15, 18, 21, 24]

WALLET_PATH = "m/44'/60'/0'/0/0"
SWARM_PATH = "m/44'/60'/0'/0/1"
IPFS_PATH = "m/44'/73405'/0'/0'/0'"
RADICLE_PATH = "m/44'/73404'/0'/0'/0'"
SWARM_NETWORK_ID = 1
COMMAND_TIMEOUT = 120  # seconds for one freedom-keys or ssh-keygen run
OVERLAY_NONCE = bytes(32)


def flatten(value: object, prefix: str = "") -> dict[str, object]:
    if isinstance(value, dict):
        flat: dict[str, object] = {}
        for key, inner in value.items():
            flat.update(flatten(inner, f"{prefix}{key}."))
        return flat
    return {prefix[:-1]: value}


def run(binary: str, args: list[str]) -> subprocess.CompletedProcess[bytes]:
    """Runs a command without a terminal; one that hangs counts as failed (status -1)."""
    try:
        return subprocess.run(
            [binary, *args], stdin=subprocess.DEVNULL, capture_output=True, timeout=COMMAND_TIMEOUT
        )
    except subprocess.TimeoutExpired:
        message = f"no answer within {COMMAND_TIMEOUT} s".encode()
        return subprocess.CompletedProcess([binary, *args], -1, b"", message)


def first_line(data: bytes) -> str:
    lines = data.decode("utf-8", "replace").strip().splitlines()
    return lines[0] if lines else "(nothing)"


@dataclass
class Result:
    number: int
    label: str
    mismatches: list[tuple[str, str, str]] = field(default_factory=list)
    exported: bool = False
    unchecked_fields: set[str] = field(default_factory=set)


def write_private(path: pathlib.Path, data: bytes) -> None:
    """Writes `data` with mode 0600, as a user keeps a mnemonic file (freedom-keys warns
    otherwise)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(data)


Mismatch = tuple[str, str, str]  # check, expected, got


def one_line(value: object) -> str:
    text = str(value)
    return repr(value) if isinstance(value, (bytes, str)) and "\n" in text else text


def secret_args(mnemonic_file: pathlib.Path, passphrase_file: pathlib.Path | None) -> list[str]:
    args = ["--mnemonic-file", str(mnemonic_file)]
    if passphrase_file is not None:
        args += ["--passphrase-file", str(passphrase_file)]
    return args
