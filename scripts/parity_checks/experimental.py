"""Desktop's experimental keys: Railgun (babyjubjub seed tree, storage roots) and Kohaku PPv2

Desktop (solardev-xyz/freedom-browser src/main/identity/privacy-keys.js, railgun-credential-
host.js, ppv2-keys.js) derives them from the 64-byte BIP-39 seed; written here from those
rules with hashlib/hmac, json and bip-utils, sharing nothing with freedom-keys."""

from __future__ import annotations

import hashlib
import hmac
import json
import pathlib
import random

from bip_utils import Bip32Slip10Secp256k1, EthAddrEncoder
from mnemonic import Mnemonic

from .cases import Case
from .common import ROOT, Result, first_line, run, secret_args


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
