"""Ant: the identity.json `export ant` writes, read back to the Swarm key and overlay nonce,
and byte for byte what iOS writes."""

from __future__ import annotations

import json

from bip_utils import Bip32Slip10Secp256k1, EthAddrEncoder

from .common import OVERLAY_NONCE
from .exports import Exports


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


def check_exports(x: Exports) -> None:
    # ant: identity.json holds the swarm signing key and overlay nonce (hex). Ant (Rust) cannot
    # run here; the key is read back through bip-utils and the overlay recomputed.
    ant = x.scratch / "ant"
    if x.export("ant", ["--data-dir", str(ant)]):
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
            x.check(
                "ant identity.json signing_key", x.expected["swarm.privateKey"], signing_key.hex()
            )
            x.check("ant identity.json address", x.expected["swarm.address"], address)
            x.check("ant identity.json overlay_nonce", OVERLAY_NONCE.hex(), nonce.hex())
        except Exception as error:  # noqa: BLE001
            x.reader_failed("ant identity.json", error)

    # Ant: identity.json byte for byte as iOS writes it.
    if "antd" in x.commands:
        ant = x.scratch / "ant-ios"
        if x.exported("export ant", x.run_export("ant", ["--data-dir", str(ant)], x.secrets)):
            want = ios_identity_json(bytes.fromhex(str(x.expected["swarm.privateKey"])))
            got = (ant / "identity.json").read_bytes() if (ant / "identity.json").exists() else b""
            x.check_file(
                "ant identity.json bytes (iOS layout, 176 bytes)",
                want,
                got,
            )
