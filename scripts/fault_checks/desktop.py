"""Desktop Freedom: `export freedom --force`, antd's ant-data and Radicle's home in one
transaction, and the scenarios of node directories nested in an installation (issue 15):
Radicle's home killed, pairs of nested exports, a profile's two folders."""

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

from .antd import Antd
from .common import Node, exists
from .radicle import Radicle
from .scenarios import STRACE_CALL


class Freedom(Node):
    """freedom --force: a desktop userData of A (antd's ant-data with A's state, Radicle's home
    radicle-data) in one transaction; B replaces it. Each part must hold one whole identity at
    every instant; the two parts may differ only while the intent record says a change is under
    way, and never once a run has finished."""

    name = "freedom"
    unwritable_targets = ("", "ant-data", "ant-data/keys", "radicle-data/keys")
    plants_backup_folder = False  # planted in its node directories (antd's, radicle's) instead

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

    def concurrent_arguments(self, directory, force, who):
        # Emptied, the directory holds nothing of Freedom's: a new installation.
        return self.arguments(directory, force=force) + ["--create"]

    def nested_scenarios(self, runs):
        radicle_home_kills(self.h, self, max(5, runs // 5))
        nesting_pairs(self.h, self, max(3, runs // 10))
        profile_nesting(self.h, self, max(3, runs // 10))



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
