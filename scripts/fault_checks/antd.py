"""antd (desktop's ant-data): `export antd --force` with state present."""

import json
import os
import shutil
import tempfile

import eth_keyfile
from eth_keys import keys as eth_keys

from .common import Node, exists, read


class Antd(Node):
    """antd --force with state present: ant-data of A (keys/swarm.key opened by config.yaml's
    password, keys/pss.key, statestore) in a userData; B replaces it. The next run is
    verify --freedom-dir of the userData, as desktop Freedom's installation is checked."""

    name = "antd"
    state_dirs = ("statestore",)
    unwritable_targets = ("", "keys", "keys/swarm.key", "statestore")

    def __init__(self, h):
        self.h = h
        self.template = os.path.join(h.scratch, "antd-template")
        status, _, err = h.run(["export", "antd", "--data-dir", self.template], "A")
        assert status == 0, err
        with open(os.path.join(self.template, "keys", "pss.key"), "wb") as f:
            f.write(b"state of A: pss.key")
        os.chmod(os.path.join(self.template, "keys", "pss.key"), 0o600)
        os.mkdir(os.path.join(self.template, "statestore"), 0o700)
        with open(os.path.join(self.template, "statestore", "000001.log"), "wb") as f:
            f.write(b"state of A: statestore")
        self.address = {"A": self.address_of(self.template)}
        reference = os.path.join(h.scratch, "antd-B")
        h.run(["export", "antd", "--data-dir", reference], "B")
        self.address["B"] = self.address_of(reference)

    def make(self, parent=None):
        user_data = tempfile.mkdtemp(dir=parent or self.h.scratch, prefix="antd-")
        directory = os.path.join(user_data, "ant-data")
        shutil.copytree(self.template, directory, symlinks=True)
        return directory

    def arguments(self, directory, force=True):
        return ["export", "antd", "--data-dir", directory] + (["--force"] if force else [])

    def verify(self, directory, who):
        return ["verify", "--freedom-dir", os.path.dirname(directory)]

    @staticmethod
    def address_of(directory):
        config = read(os.path.join(directory, "config.yaml")).decode()
        password = next(line.split(":", 1)[1].strip() for line in config.splitlines()
                        if line.startswith("password:"))
        keystore = json.loads(read(os.path.join(directory, "keys", "swarm.key")))
        key = eth_keyfile.decode_keyfile_json(keystore, password.encode())
        return eth_keys.PrivateKey(key).public_key.to_checksum_address()

    def kept_identity(self, directory, backup):
        return Antd.kept_owner(directory, backup, self.address)

    @staticmethod
    def kept_owner(directory, backup, addresses):
        """Whose key a backup of ant-data `directory` holds, opened by its config.yaml."""
        config = read(os.path.join(directory, "config.yaml")).decode()
        password = next(line.split(":", 1)[1].strip() for line in config.splitlines()
                        if line.startswith("password:"))
        keystore = json.loads(read(os.path.join(backup, "keys", "swarm.key")))
        key = eth_keyfile.decode_keyfile_json(keystore, password.encode())
        return {v: k for k, v in addresses.items()}.get(
            eth_keys.PrivateKey(key).public_key.to_checksum_address())

    @staticmethod
    def owner(directory, addresses):
        """Whose keystore ant-data `directory` holds (A or B), opened by config.yaml's password."""
        if not exists(os.path.join(directory, "keys", "swarm.key")):
            raise ValueError(f"{directory}/keys/swarm.key is missing")
        try:
            address = Antd.address_of(directory)
        except Exception as error:  # config.yaml's password must open the key at every instant
            raise ValueError(f"config.yaml's password does not open keys/swarm.key ({error})")
        who = {v: k for k, v in addresses.items()}.get(address)
        if who is None:
            raise ValueError(f"keys/swarm.key holds {address}, neither A nor B")
        return who

    def identity(self, directory, mid_change):
        who = self.owner(directory, self.address)
        keys = sorted(os.listdir(os.path.join(directory, "keys")))
        journal = exists(os.path.join(directory, ".freedom-keys.intent"))
        if who == "A" and self.with_state:
            if keys != ["pss.key", "swarm.key"]:
                raise ValueError(f"keys/ of A holds {keys}")  # (a)
            aside = os.path.join(directory, ".freedom-keys.old")
            if not exists(os.path.join(directory, "statestore", "000001.log")) and not (
                    mid_change and journal and os.path.isdir(aside)):
                raise ValueError("statestore of A is gone while A's key is in place")  # (b)
        if who == "B":
            if keys != ["swarm.key"]:
                raise ValueError(f"keys/ of B holds {keys}")  # (a)
            if not mid_change and exists(os.path.join(directory, "statestore")):
                raise ValueError("statestore of A is still there beside B's key")
        return who
