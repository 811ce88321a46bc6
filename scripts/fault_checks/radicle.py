"""Radicle: `export radicle --force --alias`."""

import os
import subprocess

from .common import Node, read, strict_json


class Radicle(Node):
    """radicle --force --alias: A's key pair and config.json with alias alice; B with bob."""

    name = "radicle"
    unwritable_targets = ("", "keys", "keys/radicle.pub", "config.json")
    aliases = {"A": "alice", "B": "bob"}

    def __init__(self, h):
        self.h = h
        self.template = os.path.join(h.scratch, "radicle-template")
        status, _, err = h.run(
            ["export", "radicle", "--home", self.template, "--alias", "alice"], "A")
        assert status == 0, err
        with open(os.path.join(self.template, "config.json"), "w") as f:
            f.write('{"node": {"alias": "alice", "listen": []}, "preferredSeeds": []}\n')
        self.key = {"A": self.key_of(self.template)}
        reference = os.path.join(h.scratch, "radicle-B")
        h.run(["export", "radicle", "--home", reference, "--alias", "bob"], "B")
        self.key["B"] = self.key_of(reference)

    def arguments(self, directory, force=True, who="B"):
        return (["export", "radicle", "--home", directory, "--alias", self.aliases[who]]
                + (["--force"] if force else []))

    def verify(self, directory, who):
        return ["verify", "--radicle-home", directory]

    def key_of(self, directory):
        private = os.path.join(directory, "keys", "radicle")
        p = subprocess.run([self.h.ssh_keygen, "-y", "-f", private], capture_output=True,
                           stdin=subprocess.DEVNULL)
        if p.returncode != 0:
            raise ValueError(f"ssh-keygen cannot read keys/radicle: {p.stderr.decode().strip()}")
        from_private = p.stdout.split()[1]
        line = read(os.path.join(directory, "keys", "radicle.pub")).split()
        if line[0] != b"ssh-ed25519" or line[1] != from_private:
            raise ValueError("keys/radicle and keys/radicle.pub are of different keys")  # (a)
        return from_private

    def kept_identity(self, directory, backup):
        return {v: k for k, v in self.key.items()}.get(self.key_of(backup))

    def identity(self, directory, mid_change):
        who = {v: k for k, v in self.key.items()}.get(self.key_of(directory))
        if who is None:
            raise ValueError("the key pair is neither A's nor B's")
        alias = strict_json(read(os.path.join(directory, "config.json")))["node"]["alias"]
        if alias not in self.aliases.values():
            raise ValueError(f"config.json holds alias {alias!r}")
        if not mid_change and alias != self.aliases[who]:
            raise ValueError(f"the key of {who} with the alias {alias!r}")  # (d)
        return who

    def concurrent_arguments(self, directory, force, who):
        return self.arguments(directory, force=force, who=who)
