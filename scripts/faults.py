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

The scenarios live in scripts/fault_checks/: one module per node kind (bee, kubo, radicle,
ant, antd, desktop), each a `Node` that makes its template directory, its export and verify
commands and reads whose identity a directory holds, listed in fault_checks/nodes.py; the
scenarios every node goes through in scenarios.py; what they share in common.py. A new node
kind is one new module there and one entry in NODES.

Prints one line per violation and, last, "faults: N runs, M violations"; exits 1 on any.
Mnemonics: only the published test phrases.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

from fault_checks.common import Harness
from fault_checks.nodes import NODES
from fault_checks.scenarios import (
    concurrent,
    durability,
    full_disk,
    kill_loop,
    planted_backup_folder,
    step_kills,
    undo_kills,
    undo_state_kills,
    undo_state_step_kills,
    undo_step_kills,
    unwritable,
)


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
        nodes = [kind(h) for kind in NODES]
        for node in nodes:
            if node.state_dirs and args.only in (None, node.name, "undo-state"):
                undo_state_kills(h, node, args.runs)
                undo_state_step_kills(h, node)
            if args.only and node.name != args.only:
                continue
            kill_loop(h, node, args.runs)
            step_kills(h, node)
            durability(h, node)
            full_disk(h, node, max(3, args.runs // 10))
            if node.plants_backup_folder:
                planted_backup_folder(h, node)
            concurrent(h, node, max(2, args.runs // 25))
            undo_kills(h, node, max(5, args.runs // 4))
            undo_step_kills(h, node)
        if not args.only or args.only == "nesting":
            for node in nodes:
                node.nested_scenarios(args.runs)
        if args.only != "undo-state":
            for node in nodes:
                unwritable(h, node, list(node.unwritable_targets))
    finally:
        subprocess.run(["chattr", "-R", "-i", scratch], capture_output=True)
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"faults: {time.monotonic() - started:.0f} s")
    print(f"faults: {h.runs} runs, {h.violations.count} violations")
    sys.exit(1 if h.violations.count else 0)


if __name__ == "__main__":
    main()
