"""What a node's checks of its exported files share for one case (`Exports`): the binary,
the case and its input files, a scratch directory, the reference values, the result the
mismatches go into, the desktop export commands the binary has, and the case's random
choices for desktop's files."""

from __future__ import annotations

import pathlib
import random
import subprocess
from dataclasses import dataclass

from .cases import Case
from .common import Result, first_line, one_line, run, secret_args


@dataclass
class Exports:
    binary: str
    case: Case
    scratch: pathlib.Path
    mnemonic_file: pathlib.Path
    passphrase_file: pathlib.Path | None
    expected: dict[str, object]
    result: Result
    commands: set[str]  # the export commands of DESKTOP_COMMANDS the binary has
    rng: random.Random  # drawn from the case: desktop's config.yaml, passwords, identities

    @property
    def secrets(self) -> list[str]:
        return secret_args(self.mnemonic_file, self.passphrase_file)

    def export(self, what: str, args: list[str]) -> bool:
        """`export WHAT ARGS` with the case's secrets; a failure is a mismatch."""
        done = run(self.binary, ["export", what, *args, *self.secrets])
        if done.returncode != 0:
            self.result.mismatches.append(
                (f"export {what}", "exit 0", f"exit {done.returncode}: {first_line(done.stderr)}")
            )
            return False
        return True

    def run_export(
        self, what: str, args: list[str], with_secrets: list[str]
    ) -> subprocess.CompletedProcess:
        """`export WHAT ARGS` with the secrets given (desktop's checks export a twin phrase)."""
        return run(self.binary, ["export", what, *args, *with_secrets])

    def exported(self, name: str, done: subprocess.CompletedProcess) -> bool:
        if done.returncode != 0:
            got = f"exit {done.returncode}: {first_line(done.stderr)}"
            self.result.mismatches.append((name, "exit 0", got))
        return done.returncode == 0

    def check(self, name: str, want: object, got: object) -> None:
        if want != got:
            self.result.mismatches.append((name, str(want), str(got)))

    def check_file(self, name: str, want: object, got: object) -> None:
        """File contents are compared as bytes and printed on one line (Python's repr)."""
        if want != got:
            self.result.mismatches.append((name, one_line(want), one_line(got)))

    def reader_failed(self, name: str, error: BaseException) -> None:
        self.result.mismatches.append(
            (name, "accepted", f"rejected: {type(error).__name__}: {error}")
        )
