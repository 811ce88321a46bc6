"""The references' values for a seed, every one `derive --json --include-secrets` prints,
and the check that the references reproduce desktop Freedom's golden values first."""

from __future__ import annotations

import base64
import hashlib
import json

import base58
import cid
import multibase
import multicodec
import nacl.signing
from bip_utils import Bip32Slip10Ed25519, Bip32Slip10Secp256k1, EthAddrEncoder
from Crypto.Hash import keccak
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519 as crypto_ed25519
from libp2p.crypto.ed25519 import Ed25519PublicKey
from libp2p.crypto.keys import KeyType
from libp2p.crypto.pb import crypto_pb2
from libp2p.peer.id import ID
from mnemonic import Mnemonic

from .common import (
    IPFS_PATH,
    OVERLAY_NONCE,
    RADICLE_PATH,
    ROOT,
    SWARM_NETWORK_ID,
    SWARM_PATH,
    WALLET_PATH,
)
from .experimental import experimental_self_check


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
