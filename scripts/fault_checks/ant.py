"""Ant: `export ant --force`."""

import os

from eth_keys import keys as eth_keys

from .common import Node, read, strict_json


class Ant(Node):
    """ant --force: identity.json of A; B replaces it."""

    name = "ant"
    unwritable_targets = ("", "identity.json")

    def __init__(self, h):
        self.h = h
        self.template = os.path.join(h.scratch, "ant-template")
        status, _, err = h.run(["export", "ant", "--data-dir", self.template], "A")
        assert status == 0, err
        self.address = {"A": self.address_of(self.template)}
        reference = os.path.join(h.scratch, "ant-B")
        h.run(["export", "ant", "--data-dir", reference], "B")
        self.address["B"] = self.address_of(reference)

    def arguments(self, directory, force=True):
        return ["export", "ant", "--data-dir", directory] + (["--force"] if force else [])

    def verify(self, directory, who):
        return ["verify", "--ant-dir", directory]

    @staticmethod
    def address_of(directory):
        value = strict_json(read(os.path.join(directory, "identity.json")))
        key = bytes.fromhex(value["signing_key"])
        return eth_keys.PrivateKey(key).public_key.to_checksum_address()

    def kept_identity(self, directory, backup):
        return {v: k for k, v in self.address.items()}.get(self.address_of(backup))

    def identity(self, directory, mid_change):
        who = {v: k for k, v in self.address.items()}.get(self.address_of(directory))
        if who is None:
            raise ValueError("identity.json is neither A's nor B's")
        return who
