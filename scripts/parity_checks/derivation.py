"""Each case run: `derive --json --include-secrets` compared with the references, the
experimental keys, then every node's exported files."""

from __future__ import annotations

import json
import pathlib
import random
import re
import shutil
import tempfile

from mnemonic import Mnemonic

from .cases import Case, WORDSETS, make_case, write_inputs
from .common import CHINESE, Result, first_line, flatten, run
from .experimental import check_experimental
from .exports import Exports
from .nodes import NODES
from .references import reference


def compare_derive(case: Case, output: dict, result: Result) -> dict[str, object]:
    canonical = " ".join(case.words)
    seed = Mnemonic.to_seed(canonical, case.passphrase or "")
    expected = reference(seed)
    got = flatten(output)
    for key, value in expected.items():
        actual = got.get(key, "<missing>")
        if actual != value:
            result.mismatches.append((key, str(value), str(actual)))
    language = got.get("mnemonic.language", "<missing>")
    language_ok = language == case.language or (
        case.language in CHINESE
        and language in CHINESE
        and all(word in WORDSETS[str(language)] for word in case.words)
    )
    if not language_ok:
        result.mismatches.append(("mnemonic.language", case.language, str(language)))
    if got.get("mnemonic.words") != len(case.words):
        result.mismatches.append(
            ("mnemonic.words", str(len(case.words)), str(got.get("mnemonic.words", "<missing>")))
        )
    result.unchecked_fields = set(got) - set(expected) - {"mnemonic.language", "mnemonic.words"}
    return expected


def check_case(job: tuple[str, int, int, bool, str, tuple[str, ...]]) -> Result:
    binary, seed, number, with_exports, failures, commands = job
    case = make_case(seed, number)
    result = Result(number, case.label)
    with tempfile.TemporaryDirectory(prefix=f"parity-{number}-") as scratch:
        scratch_dir = pathlib.Path(scratch)
        mnemonic_file, passphrase_file = write_inputs(case, scratch_dir / "input")
        args = ["derive", "--mnemonic-file", str(mnemonic_file), "--json", "--include-secrets"]
        if passphrase_file is not None:
            args += ["--passphrase-file", str(passphrase_file)]
        done = run(binary, args)
        expected: dict[str, object] | None = None
        if done.returncode != 0:
            result.mismatches.append(
                ("exit status", "0", f"{done.returncode}: {first_line(done.stderr)}")
            )
        else:
            try:
                output = json.loads(done.stdout)
            except ValueError:
                result.mismatches.append(("stdout", "JSON", first_line(done.stdout)))
            else:
                expected = compare_derive(case, output, result)
        check_experimental(binary, seed, case, mnemonic_file, passphrase_file, result)
        if with_exports:
            if expected is None:
                expected = reference(Mnemonic.to_seed(" ".join(case.words), case.passphrase or ""))
            result.exported = True
            rng = random.Random(f"freedom-keys parity desktop {case.number} {case.mnemonic_text}")
            exports = Exports(
                binary,
                case,
                scratch_dir,
                mnemonic_file,
                passphrase_file,
                expected,
                result,
                set(commands),
                rng,
            )
            try:
                for node in NODES:
                    node.check_exports(exports)
            except Exception as error:  # noqa: BLE001 - a missing or unreadable file is a finding
                result.mismatches.append(
                    ("exported files", "readable", f"{type(error).__name__}: {error}")
                )
    if result.mismatches:
        keep = pathlib.Path(failures) / f"case-{number}"
        shutil.rmtree(keep, ignore_errors=True)
        write_inputs(case, keep)
    return result


def exports_available(binary: str) -> bool:
    """`export --help` succeeds with export's own help (an unknown subcommand followed by --help
    may print the top-level help with status 0)."""
    done = run(binary, ["export", "--help"])
    return done.returncode == 0 and b"freedom-keys export" in done.stdout


# The commands these checks need, and what a binary without them skips.
DESKTOP_COMMANDS = ("antd", "freedom")


def export_commands(binary: str) -> set[str]:
    """The `export` subcommands among DESKTOP_COMMANDS that the binary has (its own help)."""
    found = set()
    for name in DESKTOP_COMMANDS:
        done = run(binary, ["export", name, "--help"])
        usage = re.search(rb"USAGE: freedom-keys export " + name.encode() + rb"\b", done.stdout)
        if done.returncode == 0 and usage:
            found.add(name)
    return found
