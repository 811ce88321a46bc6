"""Desktop Freedom: `export freedom` writes a whole installation, whose vault an independent
browser-passworder opens to the phrase, whose vault-meta.json holds the reference addresses
and whose ant-data and Radicle home hold the derived keys; a phrase or passphrase desktop
cannot use is refused."""

from __future__ import annotations

import base64
import json
import re

from bip_utils import Bip32Slip10Secp256k1, EthAddrEncoder
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ed25519 as crypto_ed25519
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC
from mnemonic import Mnemonic

from .antd import swarm_key
from .cases import english_twin
from .common import write_private
from .exports import Exports
from .references import reference


VAULT_ITERATIONS = 900_000  # browser-passworder 6's PBKDF2 iterations, as desktop writes them
DESKTOP_RADICLE_ALIAS = "FreedomBrowser"
ISO_MILLISECONDS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


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


def check_exports(x: Exports) -> None:
    if "freedom" not in x.commands:
        return
    # Desktop reads English phrases only and has no passphrase. An English case without one is
    # exported as it is; any other must be refused (desktop could not open the vault, or would
    # derive other keys from it than the ones written beside it), and its entropy is exported
    # again as a plain English phrase.
    if x.case.language == "english" and not x.case.passphrase:
        # `export freedom` has no --passphrase-file (desktop has no passphrase).
        twin, twin_secrets = x.case, x.secrets[:2]
    else:
        refused = x.scratch / "freedom-refused"
        vault_password_file = x.scratch / "vault-password"
        write_private(vault_password_file, x.case.password.encode())
        args = ["--user-data", str(refused), "--create", "--vault-password-file",
                str(vault_password_file)]
        done = x.run_export("freedom", args, x.secrets)
        why = "a passphrase" if x.case.passphrase else f"a {x.case.language} phrase"
        written = (
            sorted(str(p.relative_to(refused)) for p in refused.rglob("*"))
            if refused.exists()
            else []
        )
        if done.returncode == 0 or written:
            x.result.mismatches.append(
                (
                    f"export freedom with {why} (desktop cannot use it)",
                    "refused, nothing written",
                    f"exit {done.returncode}, wrote {written}",
                )
            )
        twin = english_twin(x.case)
        twin_file = x.scratch / "english.txt"
        write_private(twin_file, twin.mnemonic_text.encode())
        twin_secrets = ["--mnemonic-file", str(twin_file)]
    twin_seed = Mnemonic.to_seed(" ".join(twin.words), "")
    want = reference(twin_seed)
    vault_password = x.case.password
    vault_password_file = x.scratch / "vault-password"
    write_private(vault_password_file, (vault_password + x.rng.choice(["", "\n"])).encode())
    user_data = x.scratch / "freedom-user-data"
    args = ["--user-data", str(user_data), "--create", "--vault-password-file",
            str(vault_password_file)]
    if x.exported("export freedom", x.run_export("freedom", args, twin_secrets)):
        swarm_key(x, "freedom ant-data", user_data / "ant-data", want)
        try:
            vault_bytes = (user_data / "identity/identity-vault.json").read_bytes()
            vault = json.loads(vault_bytes)
            x.check_file(
                "freedom vault members", ["version", "encrypted", "createdAt"], list(vault)
            )
            x.check_file(
                "freedom vault layout (JSON.stringify(v, null, 2))",
                json.dumps(vault, indent=2, ensure_ascii=False),
                vault_bytes.decode(),
            )
            x.check_file("freedom vault version", 1, vault.get("version"))
            x.check_file(
                "freedom vault createdAt",
                True,
                bool(ISO_MILLISECONDS.match(str(vault.get("createdAt")))),
            )
            plaintext, problems = browser_passworder_decrypt(
                vault_password.encode(), vault["encrypted"]
            )
            x.check_file("freedom vault encrypted (browser-passworder 6)", [], problems)
            x.check_file(
                "freedom vault plaintext (browser-passworder decrypt)",
                json.dumps({"mnemonic": " ".join(twin.words)}, separators=(",", ":")),
                plaintext.decode("utf-8", "replace"),
            )
        except Exception as error:  # noqa: BLE001
            x.result.mismatches.append(
                (
                    "freedom identity-vault.json (browser-passworder)",
                    "decrypts",
                    f"{type(error).__name__}: {error}",
                )
            )
        try:
            meta_bytes = (user_data / "identity/vault-meta.json").read_bytes()
            meta = json.loads(meta_bytes)
            x.check_file(
                "freedom vault-meta layout (JSON.stringify(m, null, 2))",
                json.dumps(meta, indent=2, ensure_ascii=False),
                meta_bytes.decode(),
            )
            x.check_file(
                "freedom vault-meta members",
                ["userKnowsPassword", "createdAt", "addresses"],
                list(meta)[:3],
            )
            x.check_file(
                "freedom vault-meta userKnowsPassword", True, meta.get("userKnowsPassword")
            )
            x.check_file(
                "freedom vault-meta createdAt",
                True,
                bool(ISO_MILLISECONDS.match(str(meta.get("createdAt")))),
            )
            x.check_file(
                "freedom vault-meta addresses",
                {"userWallet": want["wallet.address"], "beeWallet": want["swarm.address"]},
                meta.get("addresses"),
            )
            secp256k1 = Bip32Slip10Secp256k1.FromSeed(twin_seed)
            for wallet in meta.get("derivedWallets", []):
                if wallet.get("type") == "mnemonic":
                    node = secp256k1.DerivePath(f"m/44'/60'/{wallet['index']}'/0/0")
                    x.check_file(
                        f"freedom vault-meta derivedWallets[{wallet['index']}].address",
                        EthAddrEncoder.EncodeKey(node.PublicKey().KeyObject()),
                        wallet.get("address"),
                    )
        except Exception as error:  # noqa: BLE001
            x.result.mismatches.append(
                ("freedom vault-meta.json", "readable", f"{type(error).__name__}: {error}")
            )
        home = user_data / "radicle-data"
        try:
            public = (home / "keys/radicle.pub").read_text().split()
            x.check_file("freedom radicle.pub", want["radicle.sshPublicKey"], " ".join(public[:2]))
            key = serialization.load_ssh_private_key(
                (home / "keys/radicle").read_bytes(), password=None
            )
            if not isinstance(key, crypto_ed25519.Ed25519PrivateKey):
                raise ValueError(f"not an Ed25519 key: {type(key).__name__}")
            x.check_file(
                "freedom keys/radicle (cryptography) key",
                want["radicle.privateKey"],
                key.private_bytes_raw().hex(),
            )
            node = json.loads((home / "config.json").read_bytes())["node"]
            x.check_file(
                "freedom radicle config.json node.alias", DESKTOP_RADICLE_ALIAS, node.get("alias")
            )
        except Exception as error:  # noqa: BLE001
            x.result.mismatches.append(
                ("freedom Radicle home", "readable", f"{type(error).__name__}: {error}")
            )
