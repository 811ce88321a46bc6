"""The scenarios, the same for every node kind: kill -9 at random instants and before each
file system call, undo killed (also over state in place), durability, a full disk, a
planted backup folder, unwritable directories, concurrent pairs."""

import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

from .common import REPLACED, exists, read


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

def undo_state_changed(h, node):
    """undo_changed, then B's own state in place beside B's key."""
    directory = undo_changed(h, node)
    for name in node.state_dirs:
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
    for name in node.state_dirs:
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
            states = [state_owner(os.path.join(backup, n), n) for n in node.state_dirs]
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
            node.emptied(directory)
            whos = ("A", "A") if same else ("A", "B")
            procs = []
            for who in whos:
                arguments = node.concurrent_arguments(directory, force, who)
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
