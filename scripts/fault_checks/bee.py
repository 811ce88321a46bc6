"""bee: `export bee --force` with state present."""

import json
import os

import eth_keyfile
from eth_keys import keys as eth_keys

from .common import Node, SCRYPT_N, exists, read


class Bee(Node):
    """bee --force with state present: keys/swarm.key of A plus A's libp2p_v2.key, pss.key,
    statestore and localstore; B replaces it."""

    name = "bee"
    state_dirs = ("statestore", "localstore")
    unwritable_targets = ("", "keys", "keys/swarm.key", "statestore")

    def __init__(self, h):
        self.h = h
        self.template = os.path.join(h.scratch, "bee-template")
        status, _, err = h.run(
            ["export", "bee", "--data-dir", self.template, "--scrypt-n", SCRYPT_N], "A")
        assert status == 0, err
        for name in ("keys/libp2p_v2.key", "keys/pss.key"):
            with open(os.path.join(self.template, name), "wb") as f:
                f.write(b"state of A: " + name.encode())
            os.chmod(os.path.join(self.template, name), 0o600)
        for name in ("statestore", "localstore"):
            os.mkdir(os.path.join(self.template, name), 0o700)
            with open(os.path.join(self.template, name, "000001.log"), "wb") as f:
                f.write(b"state of A: " + name.encode())
        self.address = {"A": self.address_of(self.template)}
        reference = os.path.join(h.scratch, "bee-B")
        h.run(["export", "bee", "--data-dir", reference, "--scrypt-n", SCRYPT_N], "B")
        self.address["B"] = self.address_of(reference)

    def arguments(self, directory, force=True):
        return (["export", "bee", "--data-dir", directory, "--scrypt-n", SCRYPT_N]
                + (["--force"] if force else []))

    def verify(self, directory, who):
        return ["verify", "--bee-dir", directory, "--password-file",
                os.path.join(directory, "password")]

    def kept_identity(self, directory, backup):
        """Whose key the backup holds, opened with the directory's password (kept in place)."""
        password = read(os.path.join(directory, "password")).strip(b"\n")
        keystore = json.loads(read(os.path.join(backup, "keys", "swarm.key")))
        key = eth_keyfile.decode_keyfile_json(keystore, password)
        address = eth_keys.PrivateKey(key).public_key.to_checksum_address()
        return {v: k for k, v in self.address.items()}.get(address)

    @staticmethod
    def address_of(directory):
        password = read(os.path.join(directory, "password")).strip(b"\n")
        keystore = json.loads(read(os.path.join(directory, "keys", "swarm.key")))
        key = eth_keyfile.decode_keyfile_json(keystore, password)
        return eth_keys.PrivateKey(key).public_key.to_checksum_address()

    def identity(self, directory, mid_change):
        """Who the directory belongs to, or raises with what is inconsistent."""
        if not exists(os.path.join(directory, "keys", "swarm.key")):
            raise ValueError("keys/swarm.key is missing")
        try:
            address = self.address_of(directory)
        except Exception as error:  # the password file must open the key at every instant
            raise ValueError(f"password does not open keys/swarm.key ({error})")
        who = {v: k for k, v in self.address.items()}.get(address)
        if who is None:
            raise ValueError(f"keys/swarm.key holds {address}, neither A nor B")
        keys = sorted(os.listdir(os.path.join(directory, "keys")))
        if who == "A" and not self.with_state:
            if keys != ["swarm.key"]:
                raise ValueError(f"keys/ of A holds {keys}")
        elif who == "A":
            if keys != ["libp2p_v2.key", "pss.key", "swarm.key"]:
                raise ValueError(f"keys/ of A holds {keys}")  # (a)
            journal = exists(os.path.join(directory, ".freedom-keys.intent"))
            for state in ("statestore", "localstore"):
                if exists(os.path.join(directory, state)):
                    continue
                aside = os.path.join(directory, ".freedom-keys.old")
                if mid_change and journal and any(
                    exists(os.path.join(aside, n, "000001.log"))
                    for n in (os.listdir(aside) if os.path.isdir(aside) else [])
                ):
                    continue
                raise ValueError(f"{state} of A is gone while A's key is in place")  # (b)
        else:
            if keys != ["swarm.key"]:
                raise ValueError(f"keys/ of B holds {keys}")  # (a)
            if not mid_change:
                for state in ("statestore", "localstore"):
                    if exists(os.path.join(directory, state)):
                        raise ValueError(f"{state} of A is still there beside B's key")
        return who
