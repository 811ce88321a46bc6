#!/usr/bin/env python3
"""Fault injection for freedom-keys' node directory transactions (issue 8).

For each export (bee --force with state present, kubo --repo --force, radicle --force --alias,
ant --force, antd --force with state present, and freedom --force: antd's ant-data and Radicle's
home in one transaction) it kills the export with SIGKILL at a random instant and checks the directory at
once with independent readers (eth-keyfile, ssh-keygen, Python's json), then again after the
next run (a verify, which finishes or undoes the interrupted change, and an export run to the
end). `undo` is killed the same way after an export of B --force (issue 26, item 8): one whole
identity at every instant, and the other kept whole in a backup; for bee and antd also once B's
node made its own state, so that the undo moves B's state aside and puts A's back at the same
paths (issue 35; `--only undo-state` runs these alone). It also fills a small tmpfs
(every other run with a backup folder already holding backups), plants a .freedom-keys.replaced
that is a file, a symbolic link, a FIFO or an unwritable directory, makes directories
unwritable and runs exports in concurrent pairs. The invariants (issue 8, "What to build" 4):

  (a) the files of an identity (bee's keys/, Radicle's key pair, kubo's PeerID and PrivKey) are
      all of one identity, the old or the new;
  (b) the old identity's state is never gone while the old key is in place (it may be moved
      aside into .freedom-keys.old while an intent record says so);
  (c) the next run finishes or undoes an interrupted change and leaves no temporary files;
  (d) exit 0 only when the new identity is wholly in place; any other exit leaves the old one
      wholly in place. Temporary files holding secrets are never readable by others.

Prints one line per violation and, last, "faults: N runs, M violations"; exits 1 on any.
Mnemonics: only the published test phrases.
"""

import argparse
import base64
import json
import os
import random
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

import base58
import eth_keyfile
from eth_keys import keys as eth_keys

MNEMONIC_A = "abandon " * 11 + "about"
MNEMONIC_B = "test " * 11 + "junk"
SCRYPT_N = "1024"  # the transaction is the same at any cost; a low one keeps runs short
TRANSACTION_NAMES = (".freedom-keys.intent", ".freedom-keys.new", ".freedom-keys.old")
REPLACED = ".freedom-keys.replaced"


def strict_json(data):
    """RFC 8259 JSON as Radicle and kubo read it: UTF-8, no duplicate members."""

    def pairs(items):
        keys = [k for k, _ in items]
        if len(keys) != len(set(keys)):
            raise ValueError("duplicate member")
        return dict(items)

    text = data.decode("utf-8")  # a BOM or UTF-16 fails here or in json
    if text.startswith("\ufeff"):
        raise ValueError("BOM")
    return json.loads(text, object_pairs_hook=pairs)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def exists(path):
    return os.path.lexists(path)


class Violations:
    def __init__(self):
        self.count = 0

    def report(self, scenario, run, message):
        self.count += 1
        print(f"violation: {scenario} run {run}: {message}", flush=True)


class Harness:
    def __init__(self, binary, rng, scratch):
        self.binary = binary
        self.rng = rng
        self.scratch = scratch
        self.violations = Violations()
        self.runs = 0
        self.mnemonic = {}
        for name, phrase in (("A", MNEMONIC_A), ("B", MNEMONIC_B)):
            path = os.path.join(scratch, f"mnemonic-{name}")
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.write(fd, (phrase + "\n").encode())
            os.close(fd)
            self.mnemonic[name] = path
        self.ssh_keygen = shutil.which("ssh-keygen")
        if not self.ssh_keygen:
            sys.exit("faults: ssh-keygen is missing (apt-get install openssh-client)")

    # -- running the binary --------------------------------------------------------------

    def command(self, arguments, who):
        return [self.binary] + arguments + ["--mnemonic-file", self.mnemonic[who]]

    def run(self, arguments, who):
        p = subprocess.run(self.command(arguments, who), capture_output=True, timeout=120)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")

    def killed(self, arguments, who, delay):
        p = subprocess.Popen(
            self.command(arguments, who), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        time.sleep(delay)
        p.send_signal(signal.SIGKILL)
        return p.wait()

    def duration(self, make, arguments, who, repeats=5):
        """The median time of an uninterrupted run: kills are spread over [0, 1.3 x that]."""
        times = []
        for _ in range(repeats):
            directory = make()
            start = time.monotonic()
            status, _, err = self.run(arguments(directory), who)
            times.append(time.monotonic() - start)
            if status != 0:
                sys.exit(f"faults: the uninterrupted export failed: {err.strip()}")
            shutil.rmtree(directory, ignore_errors=True)
        return sorted(times)[len(times) // 2]

    # -- common checks -------------------------------------------------------------------

    def leftovers(self, directory):
        """Names freedom-keys must not leave once a run finished: its transaction files,
        stale temporary files, its lock file."""
        found = []
        for base, dirs, files in os.walk(directory):
            # What an export replaced is kept in .freedom-keys.replaced on purpose (issue 16).
            # A file, link or FIFO by that name is one a scenario planted there.
            dirs[:] = [d for d in dirs if d != REPLACED]
            files = [f for f in files if f != REPLACED]
            for name in dirs + files:
                if name.startswith(".freedom-keys") or ".tmp-" in name:
                    found.append(os.path.relpath(os.path.join(base, name), directory))
        return found

    @staticmethod
    def backups(directory):
        """The backup directories exports made in `directory` (.freedom-keys.replaced/<name>)."""
        root = os.path.join(directory, REPLACED)
        return [os.path.join(root, n) for n in sorted(os.listdir(root))] if os.path.isdir(root) else []

    def shared_temporaries(self, directory):
        """Temporary files others could read: any file that is not one of the node's own,
        readable by group or others, and not inside a directory closed to them."""
        found = []
        for base, _, files in os.walk(directory):
            inside_private = False
            walk = base
            while os.path.abspath(walk) != os.path.abspath(directory):
                if os.lstat(walk).st_mode & 0o077 == 0:
                    inside_private = True
                walk = os.path.dirname(walk)
            for name in files:
                if ".tmp-" not in name and not base.startswith(
                    tuple(os.path.join(directory, n) for n in TRANSACTION_NAMES)
                ):
                    continue
                mode = os.lstat(os.path.join(base, name)).st_mode
                if mode & 0o077 and not inside_private:
                    found.append(f"{os.path.relpath(os.path.join(base, name), directory)} "
                                 f"(mode {stat.S_IMODE(mode):04o})")
        return found


# -- the nodes ------------------------------------------------------------------------------


class Node:
    """What every node shares: a copy of its template directory (made in __init__ by the export
    of A, plus A's state) is the starting point of each run."""

    name = "node"
    with_state = True  # False for the concurrent runs, which start from an empty directory

    def make(self, parent=None):
        directory = tempfile.mkdtemp(dir=parent or self.h.scratch, prefix=f"{self.name}-")
        os.rmdir(directory)
        shutil.copytree(self.template, directory, symlinks=True)
        return directory


class Bee(Node):
    """bee --force with state present: keys/swarm.key of A plus A's libp2p_v2.key, pss.key,
    statestore and localstore; B replaces it."""

    name = "bee"

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


class Kubo(Node):
    """kubo --repo --force: config holding A's Identity; B replaces it. Every member but
    Identity.PeerID and Identity.PrivKey must stay byte for byte."""

    name = "kubo"

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


class Radicle(Node):
    """radicle --force --alias: A's key pair and config.json with alias alice; B with bob."""

    name = "radicle"
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


class Ant(Node):
    """ant --force: identity.json of A; B replaces it."""

    name = "ant"

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


class Antd(Node):
    """antd --force with state present: ant-data of A (keys/swarm.key opened by config.yaml's
    password, keys/pss.key, statestore) in a userData; B replaces it. The next run is
    verify --freedom-dir of the userData, as desktop Freedom's installation is checked."""

    name = "antd"

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


class Freedom(Node):
    """freedom --force: a desktop userData of A (antd's ant-data with A's state, Radicle's home
    radicle-data) in one transaction; B replaces it. Each part must hold one whole identity at
    every instant; the two parts may differ only while the intent record says a change is under
    way, and never once a run has finished."""

    name = "freedom"

    def __init__(self, h):
        self.h = h
        self.radicle = Radicle.__new__(Radicle)
        self.radicle.h = h
        self.template = os.path.join(h.scratch, "freedom-template")
        status, _, err = h.run(["export", "freedom", "--user-data", self.template, "--create"], "A")
        assert status == 0, err
        ant = os.path.join(self.template, "ant-data")
        with open(os.path.join(ant, "keys", "pss.key"), "wb") as f:
            f.write(b"state of A: pss.key")
        os.chmod(os.path.join(ant, "keys", "pss.key"), 0o600)
        os.mkdir(os.path.join(ant, "statestore"), 0o700)
        with open(os.path.join(ant, "statestore", "000001.log"), "wb") as f:
            f.write(b"state of A: statestore")
        self.address = {"A": self.address_of(self.template)}
        self.radicle.key = {"A": self.radicle.key_of(os.path.join(self.template, "radicle-data"))}
        reference = os.path.join(h.scratch, "freedom-B")
        h.run(["export", "freedom", "--user-data", reference, "--create"], "B")
        self.address["B"] = self.address_of(reference)
        self.radicle.key["B"] = self.radicle.key_of(os.path.join(reference, "radicle-data"))

    def arguments(self, directory, force=True):
        return ["export", "freedom", "--user-data", directory] + (["--force"] if force else [])

    def verify(self, directory, who):
        return ["verify", "--freedom-dir", directory]

    def kept_identity(self, directory, backup):
        ant = Antd.kept_owner(os.path.join(directory, "ant-data"), os.path.join(backup, "ant-data"),
                              self.address)
        radicle = {v: k for k, v in self.radicle.key.items()}.get(
            self.radicle.key_of(os.path.join(backup, "radicle-data")))
        return ant if ant == radicle else f"ant-data {ant}, radicle-data {radicle}"

    @staticmethod
    def address_of(directory):
        return Antd.address_of(os.path.join(directory, "ant-data"))

    def identity(self, directory, mid_change):
        ant = os.path.join(directory, "ant-data")
        ant_who = Antd.owner(ant, self.address)
        radicle_key = self.radicle.key_of(os.path.join(directory, "radicle-data"))
        radicle_who = {v: k for k, v in self.radicle.key.items()}.get(radicle_key)
        if radicle_who is None:
            raise ValueError("radicle-data's key pair is neither A's nor B's")
        journal = exists(os.path.join(directory, ".freedom-keys.intent"))
        if ant_who != radicle_who and not (mid_change and journal):
            raise ValueError(f"ant-data is {ant_who}'s, radicle-data {radicle_who}'s, "
                             "with no change under way")  # (a)
        if ant_who != radicle_who:
            # Halfway: the next run undoes the change (all A) or finishes it (all B).
            return "A|B"
        keys = sorted(os.listdir(os.path.join(ant, "keys")))
        if ant_who == "A" and self.with_state:
            state = exists(os.path.join(ant, "statestore", "000001.log"))
            aside = os.path.join(directory, ".freedom-keys.old")
            if keys != ["pss.key", "swarm.key"] and not (mid_change and journal):
                raise ValueError(f"ant-data/keys of A holds {keys}")
            if not state and not (mid_change and journal and os.path.isdir(aside)):
                raise ValueError("ant-data/statestore of A is gone while A's key is in place")  # (b)
        if ant_who == "B" and not mid_change:
            if keys != ["swarm.key"] or exists(os.path.join(ant, "statestore")):
                raise ValueError(f"A's state is still there beside B's key: keys/ {keys}")
        return ant_who


# -- the scenarios ----------------------------------------------------------------------------


def check(h, node, scenario, run, directory, mid_change):
    """The identity in `directory`, or None after reporting a violation."""
    try:
        who = node.identity(directory, mid_change)
    except Exception as error:
        h.violations.report(scenario, run, str(error))
        return None
    shared = h.shared_temporaries(directory)
    if shared:
        h.violations.report(scenario, run, f"temporary files readable by others: {shared}")
    return who


def finished(h, node, scenario, run, directory, status, err, old="A", new="B"):
    """(d) after a run that ended by itself: exit 0 means new wholly, else old wholly."""
    who = check(h, node, scenario, run, directory, mid_change=False)
    if who is None:
        return None
    if status == 0 and who != new:
        h.violations.report(scenario, run, f"exit 0 but {who}'s identity is in place")
    if status != 0 and who != old:
        h.violations.report(scenario, run, f"exit {status} ({err.strip()}) but {who}'s identity is in place")
    left = h.leftovers(directory)
    if left:
        h.violations.report(scenario, run, f"left behind: {left}")
    return who


def kill_loop(h, node, runs):
    scenario = f"{node.name} kill -9"
    typical = h.duration(node.make, node.arguments, "B")
    for run in range(runs):
        h.runs += 1
        directory = node.make()
        h.killed(node.arguments(directory), "B", h.rng.uniform(0, 1.3 * typical))
        after_kill(h, node, scenario, run, directory)
        shutil.rmtree(directory, ignore_errors=True)


def after_kill(h, node, scenario, run, directory):
    """The checks right after a kill, after the next verify and after the next export."""
    who = check(h, node, scenario, run, directory, mid_change=True)
    # The next run: verify with the mnemonic found finishes or undoes the change. A change
    # caught halfway across several directories ("A|B") may go either way: verify with the
    # old mnemonic then matches (exit 0) if it undid the change and not (exit 3) if it
    # finished it.
    if who is not None:
        candidates = who.split("|")
        v_who = candidates[0]
        v_status, _, v_err = h.run(node.verify(directory, v_who), v_who)
        after = check(h, node, scenario + " then verify", run, directory, mid_change=False)
        if after is not None and after not in candidates:
            h.violations.report(scenario, run, f"verify turned {who} into {after}")
        expected = 0 if after == v_who else 3
        if after is not None and v_status != expected:
            h.violations.report(scenario, run, f"verify of {v_who} exited {v_status}: {v_err.strip()}")
        left = h.leftovers(directory)
        if left:
            h.violations.report(scenario, run, f"verify left {left}")
    # And an export run to its end.
    e_status, _, e_err = h.run(node.arguments(directory), "B")
    if e_status != 0:
        h.violations.report(scenario, run, f"the export after the kill exited {e_status}: {e_err.strip()}")
    final = finished(h, node, scenario + " then export", run, directory, e_status, e_err)
    # Nothing of A is lost: once B is in place, a backup holds A's identity whole.
    if final == "B" and hasattr(node, "kept_identity"):
        kept = []
        for backup in h.backups(directory):
            try:
                kept.append(node.kept_identity(directory, backup))
            except Exception as error:
                kept.append(f"unreadable ({error})")
        if "A" not in kept:
            h.violations.report(scenario, run, f"A's identity is in no backup: {kept}")


def undo_changed(h, node):
    """A directory of A (the node's template) exported with B --force: its backup holds A."""
    directory = node.make()
    status, _, err = h.run(node.arguments(directory), "B")
    if status != 0:
        sys.exit(f"faults: the export of B before the undo failed: {err.strip()}")
    return directory


def after_undo_kill(h, node, scenario, run, directory):
    """After `undo` was killed: one whole identity at once; the next verify finishes or undoes
    the undo and leaves nothing of its own; the identity not in place is whole in a backup."""
    who = check(h, node, scenario, run, directory, mid_change=True)
    if who is None:
        return
    candidates = who.split("|")
    v_who = candidates[0]
    v_status, _, v_err = h.run(node.verify(directory, v_who), v_who)
    after = check(h, node, scenario + " then verify", run, directory, mid_change=False)
    if after is not None and after not in candidates:
        h.violations.report(scenario, run, f"verify turned {who} into {after}")
    expected = 0 if after == v_who else 3
    if after is not None and v_status != expected:
        h.violations.report(scenario, run, f"verify of {v_who} exited {v_status}: {v_err.strip()}")
    left = h.leftovers(directory)
    if left:
        h.violations.report(scenario, run, f"verify left {left}")
    if after in ("A", "B"):
        other = "B" if after == "A" else "A"
        kept = []
        for backup in h.backups(directory):
            try:
                kept.append(node.kept_identity(directory, backup))
            except Exception as error:
                kept.append(f"unreadable ({error})")
        if other not in kept:
            h.violations.report(scenario, run, f"{other}'s identity is in no backup: {kept}")


def undo_kills(h, node, runs):
    """`undo` (issue 26, item 8) killed at a random instant, after an export of B --force over
    A kept A in a backup (see after_undo_kill)."""
    scenario = f"{node.name} undo kill -9"
    times = []
    for _ in range(3):
        directory = undo_changed(h, node)
        start = time.monotonic()
        p = subprocess.run([h.binary, "undo", directory], capture_output=True, timeout=120)
        times.append(time.monotonic() - start)
        if p.returncode != 0:
            sys.exit(f"faults: the uninterrupted undo failed: {p.stderr.decode(errors='replace').strip()}")
        shutil.rmtree(directory, ignore_errors=True)
    typical = sorted(times)[1]
    for run in range(runs):
        h.runs += 1
        directory = undo_changed(h, node)
        p = subprocess.Popen([h.binary, "undo", directory],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(h.rng.uniform(0, 1.3 * typical))
        p.send_signal(signal.SIGKILL)
        p.wait()
        after_undo_kill(h, node, scenario, run, directory)
        shutil.rmtree(directory, ignore_errors=True)


def undo_step_kills(h, node):
    """`undo` killed right before the N-th call of each file system call (strace's fault
    injection), for every N it reaches: every step of its transaction."""
    strace = shutil.which("strace")
    if not strace:
        print(f"faults: skipped {node.name} undo step kills: strace is not installed")
        return
    for syscall in STEP_SYSCALLS:
        for n in range(1, 60):
            scenario = f"{node.name} undo kill -9 before {syscall} #{n}"
            h.runs += 1
            directory = undo_changed(h, node)
            p = subprocess.run(
                [strace, "-f", "-qq", "-o", "/dev/null", "-e", f"trace={syscall}",
                 "-e", f"inject={syscall}:signal=KILL:when={n}", h.binary, "undo", directory],
                capture_output=True, timeout=120)
            if p.returncode == 0:
                # The undo never reached call n: it ran to its end, A is back.
                if check(h, node, scenario, 0, directory, mid_change=False) != "A":
                    h.violations.report(scenario, 0, "undo exited 0 but A is not in place")
                shutil.rmtree(directory, ignore_errors=True)
                break
            after_undo_kill(h, node, scenario, 0, directory)
            shutil.rmtree(directory, ignore_errors=True)


# -- undo over state in place (issue 35) ------------------------------------------------------
#
# After the export of B --force over A (A's key and state kept in a backup), B's node made its
# own state: an undo moves B's state aside and puts A's back at the same paths. Its record names
# each such path twice; killed at any instant, the directory holds one key whose state is its
# own (or, while the record says a change is under way, is being swapped), the next run (verify)
# finishes or undoes the undo, and the other key is whole in a backup with its own state.

STATE_DIRS = {"bee": ("statestore", "localstore"), "antd": ("statestore",)}


def undo_state_changed(h, node):
    """undo_changed, then B's own state in place beside B's key."""
    directory = undo_changed(h, node)
    for name in STATE_DIRS[node.name]:
        os.mkdir(os.path.join(directory, name), 0o700)
        with open(os.path.join(directory, name, "000001.log"), "wb") as f:
            f.write(f"state of B: {name}".encode())
    return directory


def state_owner(path, name):
    """Whose state the directory `path` holds (A or B), None when it is absent; raises when it
    holds anything else."""
    if not exists(path):
        return None
    data = read(os.path.join(path, "000001.log"))
    for who in ("A", "B"):
        if data == f"state of {who}: {name}".encode():
            return who
    raise ValueError(f"{path} holds neither A's nor B's state: {data[:40]!r}")


def undo_state_identity(node, directory, mid_change):
    """Whose key is in place; raises when its keys/ is not whole, or when a state directory
    in place is missing or the other identity's while no change is under way."""
    if not exists(os.path.join(directory, "keys", "swarm.key")):
        raise ValueError("keys/swarm.key is missing")
    try:
        address = node.address_of(directory)
    except Exception as error:
        raise ValueError(f"the password does not open keys/swarm.key ({error})")
    who = {v: k for k, v in node.address.items()}.get(address)
    if who is None:
        raise ValueError(f"keys/swarm.key holds {address}, neither A nor B")
    keys = sorted(os.listdir(os.path.join(directory, "keys")))
    expected = sorted(os.listdir(os.path.join(node.template, "keys"))) if who == "A" else ["swarm.key"]
    if keys != expected:
        raise ValueError(f"keys/ of {who} holds {keys}")  # (a)
    journal = exists(os.path.join(directory, ".freedom-keys.intent"))
    for name in STATE_DIRS[node.name]:
        owner = state_owner(os.path.join(directory, name), name)
        if owner != who and not (mid_change and journal):
            raise ValueError(f"{name} is {owner or 'missing'}'s beside {who}'s key "
                             f"({'a record is there' if journal else 'no change under way'})")  # (b)
    return who


def undo_state_kept(h, node, directory, who):
    """None when the identity not in place is whole in a backup, its key with its own state;
    else what is wrong."""
    other = "B" if who == "A" else "A"
    seen = []
    for backup in h.backups(directory):
        try:
            kept = node.kept_identity(directory, backup)
            states = [state_owner(os.path.join(backup, n), n) for n in STATE_DIRS[node.name]]
        except Exception as error:
            seen.append(f"unreadable ({error})")
            continue
        if kept == other and all(s == other for s in states):
            return None
        seen.append(f"{kept} with state {states}")
    return f"{other}'s key with its own state is in no backup: {seen}"


def after_undo_state_kill(h, node, scenario, run, directory):
    """After an undo over state in place was killed: one key with its own state (or halfway
    under a record), the next verify finishes or undoes it and leaves nothing of its own,
    nothing of either identity is lost, and the directory takes a further undo."""
    try:
        who = undo_state_identity(node, directory, mid_change=True)
    except Exception as error:
        h.violations.report(scenario, run, str(error))
        return
    shared = h.shared_temporaries(directory)
    if shared:
        h.violations.report(scenario, run, f"temporary files readable by others: {shared}")
    v_status, _, v_err = h.run(node.verify(directory, who), who)
    try:
        after = undo_state_identity(node, directory, mid_change=False)
    except Exception as error:
        h.violations.report(scenario, run, f"after verify (exit {v_status}: {v_err.strip()}): {error}")
        return
    if v_status != (0 if after == who else 3):
        h.violations.report(scenario, run, f"verify of {who} exited {v_status}: {v_err.strip()}")
    for stage in ("verify", "a further undo"):
        left = h.leftovers(directory)
        if left:
            h.violations.report(scenario, run, f"{stage} left {left}")
        lost = undo_state_kept(h, node, directory, after)
        if lost:
            h.violations.report(scenario, run, f"after {stage}: {lost}")
        if stage == "verify":
            p = subprocess.run([h.binary, "undo", directory], capture_output=True, timeout=120)
            if p.returncode != 0:
                h.violations.report(scenario, run, f"the undo after it exited {p.returncode}: "
                                    f"{p.stderr.decode(errors='replace').strip()}")
                return
            try:
                swapped = undo_state_identity(node, directory, mid_change=False)
            except Exception as error:
                h.violations.report(scenario, run, f"after a further undo: {error}")
                return
            if swapped == after:
                h.violations.report(scenario, run, f"a further undo left {after}'s key in place")
            after = swapped


def undo_state_kills(h, node, runs):
    """An undo over state in place killed at a random instant (see after_undo_state_kill)."""
    scenario = f"{node.name} undo over state kill -9"
    times = []
    for _ in range(3):
        directory = undo_state_changed(h, node)
        start = time.monotonic()
        p = subprocess.run([h.binary, "undo", directory], capture_output=True, timeout=120)
        times.append(time.monotonic() - start)
        if p.returncode != 0:
            sys.exit(f"faults: the uninterrupted undo failed: {p.stderr.decode(errors='replace').strip()}")
        if undo_state_identity(node, directory, mid_change=False) != "A":
            sys.exit("faults: the uninterrupted undo did not put A back")
        shutil.rmtree(directory, ignore_errors=True)
    typical = sorted(times)[1]
    for run in range(runs):
        h.runs += 1
        directory = undo_state_changed(h, node)
        p = subprocess.Popen([h.binary, "undo", directory],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(h.rng.uniform(0, 1.3 * typical))
        p.send_signal(signal.SIGKILL)
        p.wait()
        after_undo_state_kill(h, node, scenario, run, directory)
        shutil.rmtree(directory, ignore_errors=True)


def undo_state_step_kills(h, node):
    """An undo over state in place killed right before the N-th call of each file system call
    (strace's fault injection), for every N it reaches: every step of its transaction."""
    strace = shutil.which("strace")
    if not strace:
        print(f"faults: skipped {node.name} undo over state step kills: strace is not installed")
        return
    for syscall in STEP_SYSCALLS:
        for n in range(1, 60):
            scenario = f"{node.name} undo over state kill -9 before {syscall} #{n}"
            h.runs += 1
            directory = undo_state_changed(h, node)
            p = subprocess.run(
                [strace, "-f", "-qq", "-o", "/dev/null", "-e", f"trace={syscall}",
                 "-e", f"inject={syscall}:signal=KILL:when={n}", h.binary, "undo", directory],
                capture_output=True, timeout=120)
            if p.returncode == 0:
                # The undo never reached call n: it ran to its end, A is back with its state.
                try:
                    if undo_state_identity(node, directory, mid_change=False) != "A":
                        h.violations.report(scenario, 0, "undo exited 0 but A is not in place")
                except Exception as error:
                    h.violations.report(scenario, 0, f"undo exited 0: {error}")
                shutil.rmtree(directory, ignore_errors=True)
                break
            after_undo_state_kill(h, node, scenario, 0, directory)
            shutil.rmtree(directory, ignore_errors=True)


STEP_SYSCALLS = ("mkdir", "link", "rename", "renameat2", "unlink", "rmdir", "fsync",
                 # The engine works relative to the node directory's descriptor.
                 "mkdirat", "linkat", "renameat", "unlinkat")


def step_kills(h, node):
    """kill -9 right before the N-th call of each file system call of the export (strace's
    fault injection), for every N the export reaches: every step of the transaction, not only
    the instants a random delay happens to hit."""
    strace = shutil.which("strace")
    if not strace:
        print(f"faults: skipped {node.name} step kills: strace is not installed")
        return
    for syscall in STEP_SYSCALLS:
        for n in range(1, 60):
            scenario = f"{node.name} kill -9 before {syscall} #{n}"
            h.runs += 1
            directory = node.make()
            p = subprocess.run(
                [strace, "-f", "-qq", "-o", "/dev/null", "-e", f"trace={syscall}",
                 "-e", f"inject={syscall}:signal=KILL:when={n}"]
                + h.command(node.arguments(directory), "B"), capture_output=True, timeout=120)
            if p.returncode == 0:
                # The export never reached call n: it ran to its end.
                finished(h, node, scenario, 0, directory, 0, "")
                shutil.rmtree(directory, ignore_errors=True)
                break
            after_kill(h, node, scenario, 0, directory)
            shutil.rmtree(directory, ignore_errors=True)


STRACE_CALL = re.compile(r"^\d+\s+(\w+)\((.*)\)\s+=\s+(-?\d+)")
STRACE_FD = re.compile(r"^(?:AT_FDCWD|-?\d+<(.*)>)$")


def strace_arguments(text):
    """The top-level arguments of one strace line: descriptors as their path (-y), strings
    unquoted (escapes kept), the rest as written."""
    arguments, current, quoted, escaped, depth = [], "", False, False, 0
    for ch in text:
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
                continue
            current += ch
            continue
        if ch == '"':
            quoted = True
        elif ch in "[{(":
            depth += 1
            current += ch
        elif ch in "]})":
            depth -= 1
            current += ch
        elif ch == "," and depth == 0:
            arguments.append(current.strip())
            current = ""
        else:
            current += ch
    arguments.append(current.strip())
    return arguments


def durability(h, node):
    """An export traced with strace: every directory a rename touched (the source's and the
    target's) is fsynced after the rename and before the intent record's commit mark is
    written, so a power loss after the mark cannot lose a replacement the mark vouches for."""
    strace = shutil.which("strace")
    if not strace:
        print(f"faults: skipped {node.name} durability: strace is not installed")
        return
    scenario = f"{node.name} fsync before the commit mark"
    h.runs += 1
    directory = node.make()
    log = os.path.join(h.scratch, f"strace-{node.name}.log")
    p = subprocess.run(
        [strace, "-f", "-qq", "-y", "-s", "65536", "-o", log,
         "-e", "trace=rename,renameat,renameat2,fsync,fdatasync,write"]
        + h.command(node.arguments(directory), "B"), capture_output=True, timeout=120)
    if p.returncode != 0:
        h.violations.report(scenario, 0, f"the traced export failed: {p.stderr.decode().strip()}")
        shutil.rmtree(directory, ignore_errors=True)
        return
    calls = []
    with open(log, errors="replace") as f:
        for line in f:
            m = STRACE_CALL.match(line)
            if m:
                calls.append((m.group(1), strace_arguments(m.group(2)), int(m.group(3))))
    os.unlink(log)
    shutil.rmtree(directory, ignore_errors=True)

    def directory_of(fd, name):
        m = STRACE_FD.match(fd)
        base = (m.group(1) if m else None) or os.getcwd()
        return os.path.realpath(os.path.dirname(os.path.join(base, name)))

    marks = [i for i, (call, arguments, result) in enumerate(calls)
             if call == "write" and "\\ncommitted\\n" in arguments[1]]
    if not marks:
        h.violations.report(scenario, 0, "no commit mark was written")
        return
    mark = marks[0]
    synced = {}
    for i, (call, arguments, result) in enumerate(calls[:mark]):
        if call in ("fsync", "fdatasync") and result == 0:
            m = STRACE_FD.match(arguments[0])
            if m and m.group(1):
                synced.setdefault(os.path.realpath(m.group(1)), []).append(i)
    for i, (call, arguments, result) in enumerate(calls[:mark]):
        if result != 0 or call not in ("rename", "renameat", "renameat2"):
            continue
        if call == "rename":
            touched = [directory_of("AT_FDCWD", arguments[0]), directory_of("AT_FDCWD", arguments[1])]
        else:
            touched = [directory_of(arguments[0], arguments[1]),
                       directory_of(arguments[2], arguments[3])]
        for d in touched:
            if not any(i < j for j in synced.get(d, [])):
                h.violations.report(
                    scenario, 0, f"{call} #{i} of {arguments[1]} touched {d}, which was not "
                    "fsynced between it and the commit mark")


def make_unwritable(path):
    """chmod 0500 (plain user) or chattr +i (root); returns the undo or None."""
    if os.geteuid() != 0:
        mode = stat.S_IMODE(os.lstat(path).st_mode)
        os.chmod(path, 0o500 if os.path.isdir(path) else 0o400)
        return lambda: os.chmod(path, mode)
    if subprocess.run(["chattr", "+i", path], capture_output=True).returncode != 0:
        return None
    return lambda: subprocess.run(["chattr", "-i", path], capture_output=True)


def unwritable(h, node, targets):
    scenario = f"{node.name} unwritable"
    for target in targets:
        h.runs += 1
        directory = node.make()
        path = os.path.join(directory, target) if target else directory
        if os.geteuid() != 0 and not os.path.isdir(path):
            # A plain user's chmod of a file does not stop a rename over it; nothing to test.
            shutil.rmtree(directory, ignore_errors=True)
            continue
        undo = make_unwritable(path)
        if undo is None:
            print(f"faults: skipped {scenario} {target or '.'}: chattr +i failed on this file system")
            shutil.rmtree(directory, ignore_errors=True)
            continue
        status, _, err = h.run(node.arguments(directory), "B")
        undo()
        # What a user does on noticing the attribute: the old key moved along with its directory.
        subprocess.run(["chattr", "-R", "-i", directory], capture_output=True)
        # An unchangeable old key file may stay behind after a successful swap: the run must
        # say so, and the next run removes it.
        finished(h, node, f"{scenario} {target or '.'}", 0, directory, status, err) if status != 0 else None
        if status == 0:
            check(h, node, f"{scenario} {target or '.'}", 0, directory, mid_change=False)
            s2, _, e2 = h.run(node.arguments(directory), "B")
            finished(h, node, f"{scenario} {target or '.'} then export", 0, directory, s2, e2)
        shutil.rmtree(directory, ignore_errors=True)


def full_disk(h, node, runs):
    scenario = f"{node.name} full disk"
    mount = tempfile.mkdtemp(dir=h.scratch, prefix="tmpfs-")
    if os.geteuid() != 0 or subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=512k,mode=0700", "tmpfs", mount], capture_output=True
    ).returncode != 0:
        print(f"faults: skipped {scenario}: a tmpfs cannot be mounted here (needs root and "
              "mount rights)")
        return
    try:
        for run in range(runs):
            h.runs += 1
            directory = node.make(parent=mount)
            with_state = node.with_state
            if run % 2:
                # A backup folder that already holds backups (B's, then A's again) when the
                # disk fills up (issue 26).
                for who in ("B", "A"):
                    own = "who" in node.arguments.__code__.co_varnames  # Radicle's alias
                    arguments = (node.arguments(directory, who=who) if own
                                 else node.arguments(directory))
                    status, _, err = h.run(arguments, who)
                    if status != 0:
                        h.violations.report(scenario, run, f"the export of {who} before filling "
                                            f"the disk exited {status}: {err.strip()}")
                # A's node state went aside with the first export: A is back without it.
                node.with_state = False
            filler = os.path.join(mount, "filler")
            st = os.statvfs(mount)
            free = st.f_bavail * st.f_frsize
            # Leave between nothing and a few blocks free, so the export runs out of space at
            # different steps.
            leave = h.rng.choice([0, 0, 4096, 8192, 12288, 16384, 24576, 32768])
            with open(filler, "wb") as f:
                try:
                    f.write(b"\0" * max(0, free - leave))
                except OSError:
                    pass
            status, _, err = h.run(node.arguments(directory), "B")
            finished(h, node, scenario, run, directory, status, err)
            node.with_state = with_state
            os.unlink(filler)
            shutil.rmtree(directory, ignore_errors=True)
    finally:
        subprocess.run(["umount", mount], capture_output=True)


def planted_backup_folder(h, node):
    """A .freedom-keys.replaced that is not a directory freedom-keys can fill (a file, a
    symbolic link, a FIFO, an unwritable directory) is refused before the commit (issue 26,
    item 1): the export changes nothing, writes nothing through the link, and the directory
    stays usable."""
    scenario = f"{node.name} planted {REPLACED}"
    for kind in ("file", "symlink", "fifo", "unwritable"):
        h.runs += 1
        directory = node.make()
        planted = os.path.join(directory, REPLACED)
        outside = tempfile.mkdtemp(dir=h.scratch, prefix="outside-")
        undo = None
        if kind == "file":
            with open(planted, "wb") as f:
                f.write(b"planted")
        elif kind == "symlink":
            os.symlink(outside, planted)
        elif kind == "fifo":
            os.mkfifo(planted, 0o600)
        else:
            os.mkdir(planted, 0o700)
            undo = make_unwritable(planted)
            if undo is None:
                print(f"faults: skipped {scenario} ({kind}): chattr +i failed on this file system")
                shutil.rmtree(directory, ignore_errors=True)
                continue
        kind_before = stat.S_IFMT(os.lstat(planted).st_mode)
        status, _, err = h.run(node.arguments(directory), "B")
        if undo:
            undo()
        label = f"{scenario} ({kind})"
        if status == 0:
            h.violations.report(label, 0, "exit 0: the export went ahead past the planted folder")
        finished(h, node, label, 0, directory, status, err)
        if stat.S_IFMT(os.lstat(planted).st_mode) != kind_before:
            h.violations.report(label, 0, f"the planted {kind} was replaced")
        if kind == "file" and read(planted) != b"planted":
            h.violations.report(label, 0, "the planted file was written")
        if os.listdir(outside):
            h.violations.report(label, 0, f"wrote through the link: {os.listdir(outside)}")
        # Usable: a verify of the identity in place succeeds.
        v_status, _, v_err = h.run(node.verify(directory, "A"), "A")
        if v_status != 0:
            h.violations.report(label, 0, f"verify afterwards exited {v_status}: {v_err.strip()}")
        shutil.rmtree(directory, ignore_errors=True)
        shutil.rmtree(outside, ignore_errors=True)


def concurrent(h, node, runs):
    node.with_state = False
    try:
        concurrent_pairs(h, node, runs)
    finally:
        node.with_state = True


def concurrent_pairs(h, node, runs):
    for run in range(runs):
        for same, force in ((True, False), (False, False), (True, True), (False, True)):
            scenario = f"{node.name} concurrent {'same' if same else 'different'} mnemonic{' --force' if force else ''}"
            h.runs += 1
            directory = node.make()
            # Start from a directory without the identity files, as a fresh node.
            for name in ("keys", "config.json", "identity.json", "password", "statestore",
                         "localstore", "ant-data", "radicle-data"):
                target = os.path.join(directory, name)
                if os.path.isdir(target):
                    shutil.rmtree(target)
                elif exists(target):
                    os.unlink(target)
            if node.name == "kubo":
                Kubo.write_config(directory, node.empty_config)
            whos = ("A", "A") if same else ("A", "B")
            procs = []
            for who in whos:
                arguments = node.arguments(directory, force=force)
                if node.name == "radicle":
                    arguments = node.arguments(directory, force=force, who=who)
                if node.name == "freedom":
                    # Emptied, the directory holds nothing of Freedom's: a new installation.
                    arguments = arguments + ["--create"]
                procs.append(subprocess.Popen(h.command(arguments, who), stdout=subprocess.PIPE,
                                              stderr=subprocess.PIPE))
            results = [(p.wait(), p.stdout.read().decode(), p.stderr.read().decode()) for p in procs]
            statuses = [r[0] for r in results]
            try:
                final = node.identity(directory, mid_change=False)
            except Exception as error:
                h.violations.report(scenario, run, f"{error}; exits {statuses}")
                shutil.rmtree(directory, ignore_errors=True)
                continue
            winners = [who for who, (status, _, _) in zip(whos, results) if status == 0]
            if not same and not force and len(winners) == 2:
                h.violations.report(scenario, run, "both exited 0: one identity replaced the other silently")
            if final not in winners:
                h.violations.report(scenario, run, f"{final} is in place but exits were {statuses}")
            for status, _, err in results:
                if "kubo daemon" in err:
                    h.violations.report(scenario, run, f"the other freedom-keys was reported as a daemon: {err.strip()}")
                if status != 0 and not ("--force replaces it" in err or "another process is changing" in err):
                    h.violations.report(scenario, run, f"unexpected failure: {err.strip()}")
            left = h.leftovers(directory)
            if left:
                h.violations.report(scenario, run, f"left behind: {left}")
            shutil.rmtree(directory, ignore_errors=True)


# -- nested node directories (issue 15): a desktop installation holds ant-data and Radicle's
# home, each a node directory of its own; a change to either takes the installation's lock too.


def radicle_home_kills(h, freedom, runs):
    """export freedom --radicle-home inside userData (not where desktop looks) and outside it,
    killed at random: every record left behind is one the next run recovers (issue 19 item 4),
    each part is whole at every instant, and the next export puts B wholly in place."""
    for variant in ("inside", "outside"):
        scenario = f"freedom --radicle-home {variant} kill -9"

        def home(user_data):
            return (os.path.join(user_data, "myrad") if variant == "inside"
                    else user_data.rstrip("/") + "-rad")

        def make():
            user_data = freedom.make()
            shutil.copytree(os.path.join(user_data, "radicle-data"), home(user_data), symlinks=True)
            shutil.rmtree(os.path.join(user_data, "radicle-data"))
            return user_data

        def arguments(user_data):
            return ["export", "freedom", "--user-data", user_data, "--radicle-home",
                    home(user_data), "--force"]

        def parts(user_data, when, run):
            try:
                ant = Antd.owner(os.path.join(user_data, "ant-data"), freedom.address)
                key = freedom.radicle.key_of(home(user_data))
            except Exception as error:
                h.violations.report(scenario, run, f"{when}: {error}")
                return None
            radicle = {v: k for k, v in freedom.radicle.key.items()}.get(key)
            if radicle is None:
                h.violations.report(scenario, run, f"{when}: the Radicle key is neither A's nor B's")
                return None
            return ant, radicle

        typical = h.duration(make, arguments, "B")
        for run in range(runs):
            h.runs += 1
            user_data = make()
            h.killed(arguments(user_data), "B", h.rng.uniform(0, 1.3 * typical))
            parts(user_data, "after the kill", run)
            status, _, err = h.run(["verify", "--freedom-dir", user_data], "A")
            if status not in (0, 3):
                h.violations.report(scenario, run, f"verify --freedom-dir exited {status}: {err.strip()}")
            after = parts(user_data, "after verify", run)
            if after and variant == "inside" and after[0] != after[1]:
                h.violations.report(scenario, run, f"after verify ant-data is {after[0]}'s, "
                                    f"the Radicle home {after[1]}'s")
            # verify --freedom-dir checks the home desktop reads, not this one: what the killed
            # export left in it (its lock file) is the next export's to clear, checked below.
            left = [name for name in h.leftovers(user_data)
                    if not (variant == "inside" and name.startswith("myrad/"))]
            if left and status in (0, 3):
                h.violations.report(scenario, run, f"verify left {left}")
            e_status, _, e_err = h.run(arguments(user_data), "B")
            final = parts(user_data, "after the export", run)
            if e_status != 0 or final != ("B", "B"):
                h.violations.report(scenario, run, f"the export after the kill exited {e_status} "
                                    f"with {final}: {e_err.strip()}")
            for directory in (user_data, home(user_data)):
                left = h.leftovers(directory)
                if left:
                    h.violations.report(scenario, run, f"the export left {left}")
            shutil.rmtree(home(user_data), ignore_errors=True)
            shutil.rmtree(user_data, ignore_errors=True)


def profile_nesting(h, freedom, runs):
    """A desktop profile's Radicle home <appRoot>/R/<slot> lies outside its userData
    <appRoot>/Profiles/<id> (issue 17 item 1): export freedom of the profile, killed at random or
    run beside export radicle of R/<slot> (which takes the profile's lock first), leaves ant-data
    and R/<slot> each whole, and the next export puts B wholly in place."""
    registry = '{"version": 1, "profiles": [{"id": "default", "slot": 0}, {"id": "work", "slot": 2}]}'

    def make():
        app_root = tempfile.mkdtemp(dir=h.scratch, prefix="approot-")
        with open(os.path.join(app_root, "profile-registry.json"), "w") as f:
            f.write(registry)
        user_data = os.path.join(freedom.make(app_root))
        profile = os.path.join(app_root, "Profiles", "work")
        os.makedirs(os.path.dirname(profile), 0o700)
        os.rename(user_data, profile)
        with open(os.path.join(profile, "profile.json"), "w") as f:
            f.write('{"id": "work", "slot": 2}')
        os.makedirs(os.path.join(app_root, "R"), 0o700)
        os.rename(os.path.join(profile, "radicle-data"), os.path.join(app_root, "R", "2"))
        return app_root

    def arguments(app_root):
        return ["export", "freedom", "--user-data", os.path.join(app_root, "Profiles", "work"),
                "--force"]

    def parts(app_root, scenario, run, when):
        try:
            ant = Antd.owner(os.path.join(app_root, "Profiles", "work", "ant-data"), freedom.address)
            key = freedom.radicle.key_of(os.path.join(app_root, "R", "2"))
        except Exception as error:
            h.violations.report(scenario, run, f"{when}: {error}")
            return None
        radicle = {v: k for k, v in freedom.radicle.key.items()}.get(key)
        if radicle is None:
            h.violations.report(scenario, run, f"{when}: the Radicle key in R/2 is neither A's nor B's")
        return ant, radicle

    def left(app_root, scenario, run):
        for name in h.leftovers(app_root):
            h.violations.report(scenario, run, f"left behind: {name}")

    def halves(app_root, scenario, run, when):
        """One transaction under the app root (issue 26, item 4): the two folders differ only
        while the app root's intent record says the change is under way."""
        found = parts(app_root, scenario, run, when)
        if found and found[0] != found[1] and not exists(
                os.path.join(app_root, ".freedom-keys.intent")):
            h.violations.report(scenario, run, f"{when}: ant-data is {found[0]}'s, R/2 "
                                f"{found[1]}'s, with no change under way in the app root")
        return found

    typical = h.duration(make, arguments, "B")
    radicle = ["export", "radicle", "--alias", "alice", "--force", "--home"]
    profile_step_kills(h, make, arguments, halves, left)
    for run in range(runs):
        scenario = "freedom profile R/<slot> kill -9"
        h.runs += 1
        app_root = make()
        h.killed(arguments(app_root), "B", h.rng.uniform(0, 1.3 * typical))
        halves(app_root, scenario, run, "after the kill")
        status, _, err = h.run(arguments(app_root), "B")
        if status != 0 or parts(app_root, scenario, run, "after the export") != ("B", "B"):
            h.violations.report(scenario, run, f"the export after the kill exited {status}: "
                                f"{err.strip()}")
        left(app_root, scenario, run)
        shutil.rmtree(app_root, ignore_errors=True)

        scenario = "freedom profile x radicle R/<slot> nested"
        h.runs += 1
        app_root = make()
        first = subprocess.Popen(h.command(arguments(app_root), "B"),
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(h.rng.uniform(0, typical))
        second = subprocess.Popen(h.command(radicle + [os.path.join(app_root, "R", "2")], "A"),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for p in (first, second):
            status = p.wait()
            err = p.stderr.read().decode()
            if status != 0 and "another process is changing" not in err:
                h.violations.report(scenario, run, f"unexpected failure (exit {status}): {err.strip()}")
        parts(app_root, scenario, run, "after both")
        left(app_root, scenario, run)
        shutil.rmtree(app_root, ignore_errors=True)


def profile_step_kills(h, make, arguments, halves, left):
    """A profile export killed between its two folders (issue 26, item 4): kill -9 before each
    rename the export makes (strace), the last ones putting Profiles/work's files in place
    before R/2/keys is swapped. Right after the kill the two folders may differ only with the
    app root's record; the next run on the profile (verify of A) finishes or undoes the change
    in both, and the next export puts B wholly in place."""
    strace = shutil.which("strace")
    if not strace:
        print("faults: skipped the profile step kills: strace is not installed")
        return
    for syscall in ("renameat", "renameat2"):
        for n in range(1, 40):
            scenario = f"freedom profile kill -9 before {syscall} #{n}"
            h.runs += 1
            app_root = make()
            p = subprocess.run(
                [strace, "-f", "-qq", "-o", "/dev/null", "-e", f"trace={syscall}",
                 "-e", f"inject={syscall}:signal=KILL:when={n}"]
                + h.command(arguments(app_root), "B"), capture_output=True, timeout=120)
            if p.returncode == 0:
                # The export never reached call n: it ran to its end.
                if halves(app_root, scenario, 0, "after the export") != ("B", "B"):
                    h.violations.report(scenario, 0, "the export exited 0 without B in place")
                shutil.rmtree(app_root, ignore_errors=True)
                break
            halves(app_root, scenario, 0, "after the kill")
            status, _, err = h.run(["verify", "--freedom-dir",
                                    os.path.join(app_root, "Profiles", "work")], "A")
            after = halves(app_root, scenario, 0, "after verify")
            if status not in (0, 3) or not after or after[0] != after[1]:
                h.violations.report(scenario, 0, f"verify exited {status} and left {after}: "
                                    f"{err.strip()}")
            if exists(os.path.join(app_root, ".freedom-keys.intent")):
                h.violations.report(scenario, 0, "verify left the app root's intent record")
            status, _, err = h.run(arguments(app_root), "B")
            if status != 0 or halves(app_root, scenario, 0, "after the export") != ("B", "B"):
                h.violations.report(scenario, 0, f"the export after the kill exited {status}: "
                                    f"{err.strip()}")
            left(app_root, scenario, 0)
            shutil.rmtree(app_root, ignore_errors=True)


# How long a widened pair holds export freedom still, right after its first rename and right
# after its first renameat2 (strace delay_exit): long enough for the other command (an export
# antd with its scrypt takes ~0.6 s) to run wholly inside the change, short enough that a
# binary that orders the two waits for the installation's lock (5 s) and then runs.
WIDEN_SECONDS = 1.2


def start_widened(h, arguments, who, log, bound=60):
    """Starts `arguments` under strace, held WIDEN_SECONDS after the first call of each rename
    syscall (strace counts per syscall), and returns once the first rename has returned (the
    change is under way), it exited, or `bound` seconds passed: (process, whether it renamed)."""
    delay = int(WIDEN_SECONDS * 1e6)
    calls = "rename,renameat,renameat2"
    p = subprocess.Popen(
        [shutil.which("strace"), "-f", "-qq", "-o", log, "-e", f"trace={calls}",
         "-e", f"inject={calls}:delay_exit={delay}:when=1"] + h.command(arguments, who),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p, wait_for_line(p, log, STRACE_CALL, bound) is not None


def wait_for_line(p, log, pattern, bound):
    """The first match of `pattern` in the strace log `log`, waiting until `p` exits or `bound`
    seconds pass (then None)."""
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline and p.poll() is None:
        if os.path.exists(log):
            with open(log, errors="replace") as f:
                for line in f:
                    m = pattern.match(line)
                    if m:
                        return m
        time.sleep(0.01)
    return None


STRACE_STOPPED = re.compile(r"^(\d+)\s+--- stopped by SIGSTOP")


def start_stopped_after_unlock(h, arguments, who, log):
    """Starts `arguments` under strace, stopped (SIGSTOP) right after its first unlink: the
    release of its first lock. Returns (process, the stopped pid or None)."""
    calls = "unlink,unlinkat"
    p = subprocess.Popen(
        [shutil.which("strace"), "-f", "-qq", "-o", log, "-e", f"trace={calls}",
         "-e", f"inject={calls}:signal=STOP:when=1"] + h.command(arguments, who),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    m = wait_for_line(p, log, STRACE_STOPPED, 60)
    return p, int(m.group(1)) if m else None


def continued(p, pid):
    """Waits for `p`, sending SIGCONT to its stopped tracee `pid` until it exits."""
    while True:
        try:
            os.kill(pid, signal.SIGCONT)
        except ProcessLookupError:
            pass
        try:
            return p.wait(timeout=0.1)
        except subprocess.TimeoutExpired:
            continue


def nesting_pairs(h, freedom, runs):
    """export freedom of a userData at the same time as a change to a node directory inside it
    (export antd of its ant-data, export radicle of its Radicle home) or a verify of it: the
    lock of the installation orders them, so every part stays whole, the password in
    config.yaml keeps opening keys/swarm.key, and verify reports all old or all new.

    Every fourth run is widened with strace, so that the narrow races are hit every time:
    export freedom is held still just after its first rename and the other export starts only
    then, inside the change; a binary that orders them runs the other export after export
    freedom (it waits for the lock), so when both exit 0 the other's identity is in place, and
    one that does not lets it run in the middle, where its write is lost. verify is started
    first and stopped right after it lets go of its first lock, export freedom starts its
    change, and verify goes on: a verify that reads under its locks sees all old or all new,
    one that reads after releasing them sees half."""
    typical = h.duration(freedom.make, freedom.arguments, "B")
    others = {
        "antd": lambda u: ["export", "antd", "--data-dir", os.path.join(u, "ant-data"), "--force"],
        "radicle": lambda u: ["export", "radicle", "--home", os.path.join(u, "radicle-data"),
                              "--alias", "alice", "--force"],
        "verify": lambda u: ["verify", "--freedom-dir", u, "--json"],
    }
    widen_each = 4 if shutil.which("strace") else 0
    for run in range(runs):
        widened = widen_each and run % widen_each == 0
        for name, other in others.items():
            scenario = f"freedom x {name} nested{' widened' if widened else ''}"
            h.runs += 1
            user_data = freedom.make()
            if name == "antd":
                # A fresh ant-data: each export makes its own password, so a config.yaml of one
                # beside the keystore of the other is what a missing lock would leave.
                for entry in ("config.yaml", "keys"):
                    target = os.path.join(user_data, "ant-data", entry)
                    shutil.rmtree(target) if os.path.isdir(target) else os.unlink(target)
            if widened and name == "verify":
                # Without A's state nothing is moved aside first: export freedom's first rename
                # puts B's key in ant-data, while radicle-data still holds A's.
                for entry in ("keys/pss.key", "statestore"):
                    target = os.path.join(user_data, "ant-data", entry)
                    shutil.rmtree(target) if os.path.isdir(target) else os.unlink(target)
            inside = False
            logs = [os.path.join(h.scratch, f"strace-widened-{i}.log") for i in (1, 2)]
            if widened and name == "verify":
                # verify first, stopped once it let go of its first lock; export freedom then
                # changes the installation, and verify goes on inside the change (or, when its
                # locks are still held, after export freedom has waited 2 s for them).
                second, stopped = start_stopped_after_unlock(h, other(user_data), "A", logs[1])
                first, inside = start_widened(h, freedom.arguments(user_data), "B", logs[0],
                                              bound=2)
                if stopped is not None:
                    continued(second, stopped)
            elif widened:
                first, inside = start_widened(h, freedom.arguments(user_data), "B", logs[0])
                if not inside:
                    h.violations.report(scenario, run, "export freedom never renamed anything")
                second = subprocess.Popen(h.command(other(user_data), "A"),
                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            else:
                first = subprocess.Popen(h.command(freedom.arguments(user_data), "B"),
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                time.sleep(h.rng.uniform(0, typical))
                second = subprocess.Popen(h.command(other(user_data), "A"),
                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            results = [(p.wait(), p.stdout.read().decode(), p.stderr.read().decode())
                       for p in (first, second)]
            for log in logs:
                if os.path.exists(log):
                    os.unlink(log)
            for status, _, err in results:
                if status not in (0, 3) and "another process is changing" not in err:
                    h.violations.report(scenario, run, f"unexpected failure (exit {status}): {err.strip()}")
            parts = None
            try:
                parts = {
                    "antd": Antd.owner(os.path.join(user_data, "ant-data"), freedom.address),
                    "radicle": {v: k for k, v in freedom.radicle.key.items()}.get(
                        freedom.radicle.key_of(os.path.join(user_data, "radicle-data"))),
                }
            except Exception as error:
                h.violations.report(scenario, run, f"{error}; exits {[r[0] for r in results]}")
            if inside and parts and name != "verify" and [r[0] for r in results] == [0, 0] \
                    and parts[name] != "A":
                # The other export started inside export freedom's change and both succeeded:
                # run one after the other, the later (A's) is in place.
                h.violations.report(scenario, run, f"both exited 0, but {name}'s export of A "
                                    f"was lost: {parts[name]}'s identity is in place")
            if name == "verify" and results[1][0] in (0, 3):
                try:
                    checks = {c["check"]: c["status"] for c in json.loads(results[1][1])["checks"]}
                    seen = {checks.get("ant-data"), checks.get("radicle")}
                    if len(seen) != 1:
                        h.violations.report(scenario, run, f"verify saw half a change: {checks}")
                except (ValueError, KeyError) as error:
                    h.violations.report(scenario, run, f"verify --json did not parse: {error}")
            left = h.leftovers(user_data)
            if left:
                h.violations.report(scenario, run, f"left behind: {left}")
            shutil.rmtree(user_data, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--runs", type=int, default=100, help="kill -9 runs per export")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--only", default=None,
                        help="bee, kubo, radicle, ant, antd, freedom, nesting or undo-state "
                             "(the undo of bee and antd over state in place alone)")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"faults: seed {seed}, {args.runs} kill -9 runs per export", flush=True)
    scratch = tempfile.mkdtemp(prefix="freedom-keys-faults-")
    os.chmod(scratch, 0o700)
    started = time.monotonic()
    try:
        h = Harness(os.path.abspath(args.binary), random.Random(seed), scratch)
        nodes = [Bee(h), Kubo(h), Radicle(h), Ant(h), Antd(h), Freedom(h)]
        for node in nodes:
            if node.name in STATE_DIRS and args.only in (None, node.name, "undo-state"):
                undo_state_kills(h, node, args.runs)
                undo_state_step_kills(h, node)
            if args.only and node.name != args.only:
                continue
            kill_loop(h, node, args.runs)
            step_kills(h, node)
            durability(h, node)
            full_disk(h, node, max(3, args.runs // 10))
            if node.name != "freedom":
                planted_backup_folder(h, node)
            concurrent(h, node, max(2, args.runs // 25))
            undo_kills(h, node, max(5, args.runs // 4))
            undo_step_kills(h, node)
        if not args.only or args.only == "nesting":
            radicle_home_kills(h, nodes[5], max(5, args.runs // 5))
            nesting_pairs(h, nodes[5], max(3, args.runs // 10))
            profile_nesting(h, nodes[5], max(3, args.runs // 10))
        if args.only != "undo-state":
            unwritable(h, nodes[0], ["", "keys", "keys/swarm.key", "statestore"])
            unwritable(h, nodes[1], ["", "config"])
            unwritable(h, nodes[2], ["", "keys", "keys/radicle.pub", "config.json"])
            unwritable(h, nodes[3], ["", "identity.json"])
            unwritable(h, nodes[4], ["", "keys", "keys/swarm.key", "statestore"])
            unwritable(h, nodes[5], ["", "ant-data", "ant-data/keys", "radicle-data/keys"])
    finally:
        subprocess.run(["chattr", "-R", "-i", scratch], capture_output=True)
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"faults: {time.monotonic() - started:.0f} s")
    print(f"faults: {h.runs} runs, {h.violations.count} violations")
    sys.exit(1 if h.violations.count else 0)


if __name__ == "__main__":
    main()
