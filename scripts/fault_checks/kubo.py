"""kubo: `export kubo --repo --force`."""

import base64
import os

import base58

from .common import Node, read, strict_json


class Kubo(Node):
    """kubo --repo --force: config holding A's Identity; B replaces it. Every member but
    Identity.PeerID and Identity.PrivKey must stay byte for byte."""

    name = "kubo"
    unwritable_targets = ("", "config")

    def __init__(self, h):
        self.h = h
        self.template = os.path.join(h.scratch, "kubo-template")
        os.mkdir(self.template, 0o700)
        config = (
            '{\n  "Identity": {\n    "PeerID": "",\n    "PrivKey": ""\n  },\n'
            '  "Datastore": {"StorageMax": "10GB"},\n  "Addresses": {"API": "/ip4/127.0.0.1/tcp/5001"}\n}\n'
        )
        self.empty_config = config
        self.write_config(self.template, config)
        status, _, err = h.run(["export", "kubo", "--repo", self.template], "A")
        assert status == 0, err
        self.peer = {"A": self.peer_of(self.template)}
        reference = os.path.join(h.scratch, "kubo-B")
        os.mkdir(reference, 0o700)
        self.write_config(reference, config)
        h.run(["export", "kubo", "--repo", reference], "B")
        self.peer["B"] = self.peer_of(reference)
        self.rest = self.without_identity(read(os.path.join(self.template, "config")))

    @staticmethod
    def write_config(directory, text):
        path = os.path.join(directory, "config")
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o600)

    @staticmethod
    def without_identity(data):
        value = strict_json(data)
        value["Identity"] = None
        return value

    def arguments(self, directory, force=True):
        return ["export", "kubo", "--repo", directory] + (["--force"] if force else [])

    def verify(self, directory, who):
        return ["verify", "--kubo-repo", directory]

    @staticmethod
    def peer_of(directory):
        identity = strict_json(read(os.path.join(directory, "config")))["Identity"]
        key = base64.b64decode(identity["PrivKey"], validate=True)
        if key[:4] != b"\x08\x01\x12\x40" or len(key) != 68:
            raise ValueError("PrivKey is not an Ed25519 libp2p private key")
        peer = base58.b58encode(b"\x00\x24\x08\x01\x12\x20" + key[36:]).decode()
        if peer != identity["PeerID"]:
            raise ValueError(f"PeerID {identity['PeerID']} is not the PrivKey's {peer}")
        return peer

    def kept_identity(self, directory, backup):
        return {v: k for k, v in self.peer.items()}.get(self.peer_of(backup))

    def identity(self, directory, mid_change):
        data = read(os.path.join(directory, "config"))
        if self.without_identity(data) != self.rest:
            raise ValueError("members other than Identity changed")
        peer = self.peer_of(directory)
        who = {v: k for k, v in self.peer.items()}.get(peer)
        if who is None:
            raise ValueError(f"config holds {peer}, neither A nor B")
        return who

    def emptied(self, directory):
        Kubo.write_config(directory, self.empty_config)
