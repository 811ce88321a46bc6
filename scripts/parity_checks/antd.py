"""antd (desktop's ant-data): `export antd` into a new directory, into desktop's own data
directory and with --password-file, read with the password antd reads from config.yaml; and
config.yaml itself, a generated corpus read by AntdConfig and by PyYAML (`--yaml N`)."""

from __future__ import annotations

import json
import os
import pathlib
import random
import re
import subprocess
import time
from dataclasses import dataclass

import yaml
from eth_keyfile import decode_keyfile_json

from .ant import ios_identity_json
from .common import COMMAND_TIMEOUT, Mismatch, ROOT, first_line, one_line, write_private
from .exports import Exports


# Desktop's ant-manager reads the keystore password from config.yaml this way.
CONFIG_PASSWORD = re.compile(r"^password:\s*(.+)$", re.MULTILINE)


def desktop_config_yaml(data_dir: str, password: str, light: bool) -> bytes:
    """A config.yaml in the layout desktop Freedom's ant-manager writes on every start."""
    rpc = '"https://rpc.gnosischain.com"' if light else '""'
    return (
        "# Ant node configuration (bee-compatible keys)\n"
        "api-addr: 127.0.0.1:1633\n"
        "p2p-addr: :1634\n"
        f"swap-enable: {'true' if light else 'false'}\n"
        "mainnet: true\n"
        "full-node: false\n"
        f"blockchain-rpc-endpoint: {rpc}\n"
        "skip-postage-snapshot: true\n"
        'resolver-options: "https://ethereum.publicnode.com"\n'
        "storage-incentives-enable: false\n"
        f"data-dir: {data_dir}\n"
        f"password: {password}\n"
    ).encode()


def desktop_password(config: bytes) -> str | None:
    """The password line's value as desktop's ant-manager reads config.yaml (None: no line);
    it writes the line back as `password: <that value>` on every start."""
    found = CONFIG_PASSWORD.search(config.decode("utf-8", "replace"))
    return found.group(1).strip() if found else None


def antd_password(config: bytes) -> str:
    """The password antd decrypts keys/swarm.key with: config.yaml read as YAML (PyYAML here;
    antd uses serde_yaml), whose `password` must be a string."""
    value = yaml.safe_load(config.decode("utf-8")).get("password")
    if not isinstance(value, str):
        raise ValueError(f"config.yaml's password reads as YAML {type(value).__name__}, not text")
    return value


def check_config_password(config: bytes) -> list[Mismatch]:
    """Desktop keeps config.yaml's password line as it finds it: the line it would write back
    from its own reading must be the line there, so antd keeps reading the same password."""
    value = desktop_password(config)
    lines = [
        line
        for line in config.decode("utf-8", "replace").split("\n")
        if line.startswith("password:")
    ]
    if value is None or lines != [f"password: {value}"]:
        return [
            (
                "config.yaml password line (desktop's rewrite keeps it)",
                f"password: {value}",
                str(lines),
            )
        ]
    return []


def swarm_key(
    x: Exports, name: str, data_dir: pathlib.Path, want: dict[str, object]
) -> str | None:
    """eth-keyfile decrypts keys/swarm.key with the password antd reads from config.yaml
    (returned), and desktop's rewrite of config.yaml keeps that password."""
    try:
        config = (data_dir / "config.yaml").read_bytes()
        x.result.mismatches.extend(
            (f"{name} {n}", w, g) for n, w, g in check_config_password(config)
        )
        password = antd_password(config)
        keyfile = json.loads((data_dir / "keys/swarm.key").read_bytes())
        secret = decode_keyfile_json(keyfile, password.encode("utf-8"))
        x.check_file(f"{name} keys/swarm.key key", want["swarm.privateKey"], secret.hex())
        x.check_file(
            f"{name} keys/swarm.key address",
            str(want["swarm.address"])[2:].lower(),
            str(keyfile.get("address")).lower().removeprefix("0x"),
        )
        return password
    except Exception as error:  # noqa: BLE001 - any rejection is the finding
        x.result.mismatches.append(
            (
                f"{name} keys/swarm.key (eth-keyfile, config.yaml's password)",
                "decrypts",
                f"{type(error).__name__}: {error}",
            )
        )
        return None


def check_exports(x: Exports) -> None:
    # antd: three ways a data directory meets the export.
    if "antd" in x.commands:
        kind = ["new", "desktop", "password-file"][x.case.number % 3]
        data_dir = x.scratch / f"antd-{kind}"
        args = ["--data-dir", str(data_dir)]
        before: bytes | None = None
        removed: dict[str, bytes] = {}
        if kind == "desktop":
            # Desktop's own config.yaml (its password: 64 hex digits) and the identity antd
            # made itself before the restore, which the export removes: the mnemonic's own key
            # (no --force needed) or a random one (--force).
            data_dir.mkdir(mode=0o700)
            before = desktop_config_yaml(
                str(data_dir), x.rng.randbytes(32).hex(), x.rng.random() < 0.5
            )
            write_private(data_dir / "config.yaml", before)
            own = x.rng.random() < 0.5
            key = bytes.fromhex(str(x.expected["swarm.privateKey"])) if own else x.rng.randbytes(32)
            removed = {
                "identity.json": ios_identity_json(key),
                "signing.key": key.hex().encode() + b"\n",
            }
            for name, data in removed.items():
                write_private(data_dir / name, data)
            if not own:
                args.append("--force")
        elif kind == "password-file":
            password_file_text = x.case.password + x.rng.choice(["", "\n", "\r\n"])
            password_file = x.scratch / "antd-password"
            write_private(password_file, password_file_text.encode())
            args += ["--password-file", str(password_file)]
        if x.exported(f"export antd ({kind})", x.run_export("antd", args, x.secrets)):
            password = swarm_key(x, f"antd ({kind})", data_dir, x.expected)
            config = (data_dir / "config.yaml").read_bytes()
            if kind == "new":
                x.check_file(
                    "antd (new) config.yaml",
                    True,
                    re.fullmatch(rb"password: [0-9a-f]{64}\n", config) is not None,
                )
            elif kind == "desktop":
                x.check_file("antd (desktop) config.yaml kept byte for byte", before, config)
                for name in removed:
                    x.check_file(
                        f"antd (desktop) antd's own {name} removed",
                        False,
                        (data_dir / name).exists(),
                    )
            else:
                # antd trims trailing CR/LF from a password file.
                x.check_file(
                    "antd (password-file) config.yaml password (YAML)", x.case.password, password
                )


# ---------------------------------------------------------------------------------------------
# antd's config.yaml read as YAML (issue 16 item 6): a generated corpus of config.yaml shapes
# (a BOM, CRLF, a mapping indented as a whole, quoting styles and escapes, comments, spacing
# around the colon, quoted keys, other keys with nested mappings, sequences, block scalars and
# flow collections, duplicates and shapes that cannot be edited safely) is read by
# freedom-keys' AntdConfig (scripts/parity-helpers/antdconfig.swift, linked from the release
# build) and by PyYAML, pure Python and libyaml-based (libyaml is the parser serde_yaml, antd's
# reader, is a port of), each with a loader that refuses duplicate keys. What AntdConfig reads
# must be what PyYAML reads; it may refuse only where PyYAML refuses, where a value is not a
# non-empty string, or where the generator built a shape it is meant to refuse; and after
# `settingPassword` PyYAML must read the new password and every other key unchanged, with only
# the value's bytes changed or one line appended.

YAML_HELPER = ROOT / "scripts/parity-helpers/antdconfig.swift"
YAML_OURS = ("password", "password-file", "data-dir")


def duplicate_refusing(base: type) -> type:
    """A PyYAML loader class that refuses a mapping key given twice, as antd does."""

    class Loader(base):  # type: ignore[misc, valid-type]
        def construct_mapping(self, node, deep=False):  # type: ignore[no-untyped-def]
            seen = []
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=True)
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"duplicate key {key!r}", key_node.start_mark
                    )
                seen.append(key)
            return super().construct_mapping(node, deep=deep)

    return Loader


YAML_LOADERS = {"PyYAML": duplicate_refusing(yaml.SafeLoader)}
if getattr(yaml, "__with_libyaml__", False):
    YAML_LOADERS["PyYAML+libyaml"] = duplicate_refusing(yaml.CSafeLoader)


def yaml_read(data: bytes) -> tuple[str, object]:
    """('ok', document) when every loader reads `data` to the same document, else ('error',
    reason)."""
    documents = []
    for name, loader in YAML_LOADERS.items():
        try:
            documents.append(yaml.load(data.decode("utf-8"), Loader=loader))  # noqa: S506
        except (yaml.YAMLError, UnicodeDecodeError, TypeError, ValueError) as error:
            return "error", f"{name}: {one_line(error).splitlines()[0]}"
    if any(doc != documents[0] for doc in documents[1:]):
        return "error", "the PyYAML loaders disagree"
    return "ok", documents[0]


def build_yaml_helper(binary: str) -> tuple[pathlib.Path | None, str]:
    """Compiles the helper against the release build's FreedomNodes and the targets beneath it."""
    release = pathlib.Path(binary).resolve().parent
    output = ROOT / ".build/parity-antdconfig"
    # The objects the build's own file map lists: a glob would also take stale objects of
    # sources that moved to another module since (duplicate symbols at the link).
    objects = []
    # FreedomNodes (antd's config lives there) and every package target beneath it: a module
    # left out fails the link.
    modules = ("SystemCalls", "Wording", "CryptoPrimitives", "VaultKeys", "Recovery", "NodeFiles")
    for module in (*modules, "FreedomNodes"):
        try:
            entries = json.loads((release / f"{module}.build/output-file-map.json").read_text())
        except (OSError, ValueError):
            continue
        objects += sorted(
            e["object"] for e in entries.values() if "object" in e and os.path.exists(e["object"])
        )
    if not objects:
        return None, f"no FreedomNodes objects in {release}"
    # AntdConfig has `package` access: the helper joins the package under the name the build
    # gave it (SwiftPM names it after the checkout's directory).
    package = package_name(release)
    if package is None:
        return None, f"no package name in {release}/description.json"
    command = ["swiftc", "-O", "-module-name", "ParityAntdConfig", "-package-name", package]
    command += ["-I", str(release / "Modules")]
    command += ["-I", str(release)]
    # Every system-library module of the package (Sources/C*/module.modulemap).
    modules = sorted(p.parent.name for p in (ROOT / "Sources").glob("C*/module.modulemap"))
    for module in modules:
        command += ["-Xcc", f"-fmodule-map-file={ROOT}/Sources/{module}/module.modulemap"]
        command += ["-I", str(ROOT / "Sources" / module)]
    command += [str(YAML_HELPER), *objects, "-lsodium", "-lsecp256k1", "-lcrypto", "-o"]
    done = subprocess.run([*command, str(output)], capture_output=True, timeout=600)
    if done.returncode != 0:
        return None, first_line(done.stderr)
    return output, ""


def package_name(build: pathlib.Path) -> str | None:
    """The `-package-name` SwiftPM compiled the package's modules with, from its build plan."""
    try:
        plan = (build / "description.json").read_text()
    except OSError:
        return None
    found = re.search(r'"-package-name",\s*"([^"]+)"', plan)
    return found.group(1) if found else None


YAML_SAFE_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-/+=~"
YAML_TEXT_PIECES = [" ", "#", ":", "'", '"', "\\", "é", "🔑", "\t", "-", "@", "%", ", ", "[x]"]


def yaml_text(rng: random.Random, plain: bool) -> str:
    """A value: for a plain scalar, safe characters (and '#' / ':' where YAML keeps them);
    otherwise anything a quoted scalar can hold."""
    size = rng.randint(1, 24)
    if plain:
        text = "".join(rng.choice(YAML_SAFE_CHARS) for _ in range(size))
        if rng.random() < 0.2:
            text = text[:1] + rng.choice(["#", ":", "'"]) + text[1:] + "x"
        if rng.random() < 0.1:
            text = "-" + text
        return text
    pieces = [rng.choice(YAML_SAFE_CHARS) for _ in range(size)]
    for _ in range(rng.randint(0, 4)):
        pieces.insert(rng.randrange(len(pieces) + 1), rng.choice(YAML_TEXT_PIECES))
    return "".join(pieces)


def yaml_scalar(rng: random.Random, text: str, style: str) -> str:
    if style == "plain":
        return text
    if style == "single":
        return "'" + text.replace("'", "''") + "'"
    out = []
    for char in text:
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif char == "\t":
            out.append(rng.choice(["\\t", "\t"]))
        elif rng.random() < 0.1:
            out.append(rng.choice([f"\\x{ord(char):02x}", f"\\u{ord(char):04x}"]) if ord(char) < 0x100
                       else f"\\U{ord(char):08x}")
        elif char == "/" and rng.random() < 0.5:
            out.append("\\/")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


@dataclass
class YamlShape:
    text: bytes
    features: list[str]
    # The generator built a shape AntdConfig is meant to refuse (a duplicate, an empty or
    # non-string password, a block scalar, an anchor, a tab, a flow mapping …).
    refusable: bool
    new_password: bytes


def yaml_shape(seed: int, number: int) -> YamlShape:
    rng = random.Random(f"freedom-keys parity config.yaml {seed} {number}")
    features: list[str] = []
    refusable = False
    indent = " " * rng.choice([0, 0, 0, 2, 4])
    if indent:
        features.append("indented")
    newline = "\r\n" if rng.random() < 0.3 else "\n"
    if newline == "\r\n":
        features.append("crlf")
    entries: list[list[str]] = []  # each entry: its lines, relative to the mapping

    def key(name: str) -> str:
        roll = rng.random()
        written = f'"{name}"' if roll < 0.08 else f"'{name}'" if roll < 0.15 else name
        if written != name:
            features.append("quoted-key")
        before = " " * (rng.choice([0, 0, 0, 1, 2]))
        if before:
            features.append("space-before-colon")
        return written + before + ":"

    def gap() -> str:
        return " " * rng.choice([1, 1, 1, 2, 3])

    def comment() -> str:
        return (gap() + "# " + yaml_text(rng, True)) if rng.random() < 0.2 else ""

    others = [
        ["api-addr: 127.0.0.1:1633"],
        ["p2p-addr: :1634"],
        ["mainnet: true"],
        ["full-node: false"],
        ["network-id: 10"],
        ['blockchain-rpc-endpoint: ""'],
        ['resolver-options: "https://ethereum.publicnode.com"'],
        ["verbosity: info"],
        ['cache-capacity: "1000000"'],
        ["nested:", "  inner: 1", "  password: nested-value", "  deeper:", "    data-dir: /x"],
        ["cors-allowed-origins:", '  - "null"', "  - '*'"],
        ["cors-allowed-origins:", "- https://a.example", "- password: in-a-list"],
        ["note: |", "  password: in-a-block-scalar", "  second line"],
        ["folded: >-", "  password: folded", "  text"],
        ["flow: [1, 2, {password: in-flow}]"],
        ["flowmap: {a: 1, password: 'x'}"],
        ["long: first part", "  continued plain"],
        ["anchored: &a shared"],
        ["tagged: !!str 12"],
    ]
    used: set[str] = set()
    for lines in rng.sample(others, rng.randint(0, 6)):
        name = lines[0].split(":")[0]
        if name in used:
            continue
        used.add(name)
        first = lines[0].split(":", 1)
        entries.append([key(name) + (first[1] if first[1] else "")] + lines[1:])
        if len(lines) > 1:
            features.append("nested")

    for name, chance in (("password", 0.8), ("password-file", 0.3), ("data-dir", 0.5)):
        if rng.random() >= chance:
            continue
        roll = rng.random()
        if roll < 0.08:
            value = rng.choice(["", "~", "null"])
            features.append("null")
        elif roll < 0.13 and name == "password":
            value = rng.choice(['""', "''", "12345", "true", "2024-01-01"])
            features.append("not-a-text-password")
            refusable = True
        elif roll < 0.18:
            value = rng.choice(["|\n  block", "&anchor x", "[a]", "{a: b}", "\tx", "x\n  more"])
            features.append("unsupported-value")
            refusable = True
        else:
            style = rng.choice(["plain", "plain", "single", "double"])
            value = yaml_scalar(rng, yaml_text(rng, style == "plain"), style)
            features.append(style)
        lines = (key(name) + (gap() + value if value else "") + comment()).split("\n")
        entries.insert(rng.randint(0, len(entries)), lines)

    if entries and rng.random() < 0.08:
        twin = rng.choice(entries)
        entries.insert(rng.randint(0, len(entries)), list(twin))
        features.append("duplicate")
        refusable = True

    out: list[str] = []
    if rng.random() < 0.1:
        out.append("---")
        features.append("document-start")
    for lines in entries:
        if rng.random() < 0.15:
            out.append(rng.choice(["", "# " + yaml_text(rng, True), indent + "  # indented comment"]))
            features.append("comment")
        out += [indent + line for line in lines]
    if rng.random() < 0.03:
        out = ["{password: flow, a: 1}"]
        features.append("flow-mapping")
        refusable = True
    if rng.random() < 0.03 and len(out) > 1 and indent:
        out[-1] = out[-1][1:]  # one line indented less: not YAML
        features.append("bad-indentation")
    text = newline.join(out) + (newline if out and rng.random() < 0.9 else "")
    if rng.random() < 0.15:
        text = "\ufeff" + text
        features.append("bom")
    password_roll = rng.random()
    if password_roll < 0.4:
        new_password = rng.randbytes(32).hex()
    elif password_roll < 0.7:
        new_password = yaml_text(rng, True)
    else:
        new_password = yaml_text(rng, False).replace("\t", " ")
    return YamlShape(text.encode("utf-8"), features, refusable, new_password.encode("utf-8"))


def yaml_part(binary: str, seed: int, count: int, failures: pathlib.Path) -> tuple[list[str], str]:
    """Checks `count` generated config.yaml shapes; returns the FAIL lines and a summary."""
    started = time.monotonic()
    helper, problem = build_yaml_helper(binary)
    if helper is None:
        return [f"FAIL config.yaml corpus: the AntdConfig helper does not build: {problem}"], ""
    shapes = [yaml_shape(seed, n) for n in range(count)]
    request = "".join(f"{s.text.hex()} {s.new_password.hex()}\n" for s in shapes)
    done = subprocess.run(
        [str(helper)], input=request.encode(), capture_output=True, timeout=COMMAND_TIMEOUT
    )
    answers = done.stdout.decode().splitlines()
    if done.returncode != 0 or len(answers) != count:
        return [f"FAIL config.yaml corpus: the helper answered {len(answers)} of {count} cases "
                f"(exit {done.returncode}: {first_line(done.stderr)})"], ""
    lines: list[str] = []
    tally = {"read and edited": 0, "refused as PyYAML does": 0, "refused, meant to": 0,
             "refused, not a non-empty text value": 0,
             "refused, a plain value YAML may type": 0, "edit refused": 0}

    def fail(number: int, shape: YamlShape, problem: str) -> None:
        keep = failures / f"config-yaml-{number}.yaml"
        keep.parent.mkdir(parents=True, exist_ok=True)
        keep.write_bytes(shape.text)
        lines.append(f"FAIL config.yaml shape {number} [{','.join(shape.features)}] "
                     f"{keep.relative_to(ROOT)}: {problem}")

    def unhex(field_: str) -> bytes | None:
        return None if field_ == "-" else bytes.fromhex(field_)

    for number, (shape, answer) in enumerate(zip(shapes, answers)):
        fields = answer.split(" ")
        status, document = yaml_read(shape.text)
        if status == "ok" and document is None:
            document = {}
        if status != "ok" or not isinstance(document, dict):
            if fields[0] != "refused":
                fail(number, shape, f"PyYAML refuses it ({document if status != 'ok' else 'not a mapping'}), AntdConfig read it")
            else:
                tally["refused as PyYAML does"] += 1
            continue
        expected = {name: document.get(name) for name in YAML_OURS}
        texts = all(v is None or (isinstance(v, str) and v != "") for v in expected.values())
        if fields[0] == "refused":
            reason = bytes.fromhex(fields[1]).decode()
            if shape.refusable:
                tally["refused, meant to"] += 1
            elif "could be read by YAML as" in reason:
                # A plain value some YAML reader types (YAML 1.1's y/n, 0o17 …): refused, not
                # guessed.
                tally["refused, a plain value YAML may type"] += 1
            elif not texts:
                tally["refused, not a non-empty text value"] += 1
            else:
                fail(number, shape, f"PyYAML reads {expected}, AntdConfig refused: {reason}")
            continue
        if not texts:
            fail(number, shape, f"PyYAML reads {expected}, which is not text; AntdConfig read it")
            continue
        got = [unhex(f) for f in fields[1:4]]
        want = [None if v is None else v.encode("utf-8") for v in expected.values()]
        if got != want:
            fail(number, shape, f"PyYAML reads {want}, AntdConfig {got}")
            continue
        if fields[4] == "refused-edit":
            reason = bytes.fromhex(fields[5]).decode()
            if "block scalar at the end of the file" in reason:
                tally["edit refused"] += 1
            else:
                fail(number, shape, f"settingPassword refused: {reason}")
            continue
        edited = bytes.fromhex(fields[5])
        if unhex(fields[6]) != shape.new_password:
            fail(number, shape, "AntdConfig does not read back the password it set")
            continue
        status, after = yaml_read(edited)
        if status != "ok" or not isinstance(after, dict):
            fail(number, shape, f"PyYAML refuses the edited file: {after}")
            continue
        new = shape.new_password.decode("utf-8")
        rest_before = {k: v for k, v in document.items() if k != "password"}
        rest_after = {k: v for k, v in after.items() if k != "password"}
        if after.get("password") != new or rest_before != rest_after:
            fail(number, shape, f"after settingPassword PyYAML reads {after!r}")
            continue
        # Every other byte kept: one changed run without a line break, or one line appended.
        if "password" in document:
            prefix = len(os.path.commonprefix([shape.text, edited]))
            suffix = len(os.path.commonprefix([shape.text[prefix:][::-1], edited[prefix:][::-1]]))
            changed = shape.text[prefix:len(shape.text) - suffix]
            inserted = edited[prefix:len(edited) - suffix]
            if b"\n" in changed or b"\n" in inserted or b"\r" in changed + inserted:
                fail(number, shape, "settingPassword changed more than the value's bytes")
                continue
        elif not edited.startswith(shape.text):
            fail(number, shape, "settingPassword changed bytes before the appended line")
            continue
        tally["read and edited"] += 1
    summary = (f"config.yaml corpus: {count} shapes against {' and '.join(YAML_LOADERS)}: "
               + ", ".join(f"{n} {name}" for name, n in tally.items())
               + f", {len(lines)} mismatches, {time.monotonic() - started:.1f} s")
    return lines, summary
