"""What the fault scenarios share: the two published mnemonics, the strict JSON reader,
the harness that runs the binary (and kills it) and counts violations, and `Node`, what
every node kind provides."""

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time


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


class Node:
    """What every node shares: a copy of its template directory (made in __init__ by the export
    of A, plus A's state) is the starting point of each run.

    A node kind also gives `arguments(directory, force)` (its export of B), `verify(directory,
    who)` (the run that finishes or undoes an interrupted change), `identity(directory,
    mid_change)` (whose identity is in place, raising when it is not whole) and
    `kept_identity(directory, backup)` (whose identity a backup holds)."""

    name = "node"
    with_state = True  # False for the concurrent runs, which start from an empty directory
    state_dirs = ()  # the state an undo over state in place moves (bee's and antd's)
    unwritable_targets = ()  # the paths the unwritable scenario makes read-only, in turn
    plants_backup_folder = True  # the planted .freedom-keys.replaced scenario runs on it

    def emptied(self, directory):
        """Makes a directory emptied of the identity files a fresh one of the node's kind
        (a concurrent run starts from it)."""

    def concurrent_arguments(self, directory, force, who):
        """The export a concurrent run of `who` makes in an emptied directory."""
        return self.arguments(directory, force=force)

    def nested_scenarios(self, runs):
        """Scenarios of node directories nested in this one (a desktop installation's)."""

    def make(self, parent=None):
        directory = tempfile.mkdtemp(dir=parent or self.h.scratch, prefix=f"{self.name}-")
        os.rmdir(directory)
        shutil.copytree(self.template, directory, symlinks=True)
        return directory
