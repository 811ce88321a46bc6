"""The cases: case K of seed S is always the same mnemonic file, passphrase and password
(its language and word count depend on K alone)."""

from __future__ import annotations

import hashlib
import pathlib
import random
import unicodedata
from dataclasses import dataclass

from mnemonic import Mnemonic

from .common import CHINESE, LANGUAGES, LATIN, WORD_COUNTS, write_private


WORDLISTS = {language: Mnemonic(language) for language in LANGUAGES}
WORDSETS = {language: set(m.wordlist) for language, m in WORDLISTS.items()}
# Characters at the same index in both Chinese lists (1,275 of them).
SHARED_CHINESE = [
    index
    for index, (simplified, traditional) in enumerate(
        zip(WORDLISTS["chinese_simplified"].wordlist, WORDLISTS["chinese_traditional"].wordlist)
    )
    if simplified == traditional
]

# Pieces of passphrases that NFKD changes: composed accents, half-width and full-width forms,
# ligatures, squared and Roman-numeral compatibility characters, emoji (unchanged by NFKD but
# four UTF-8 bytes), Hangul syllables.
UNICODE_PIECES = [
    "Crème brûlée",
    "ñandú",
    "Ångström",
    "Příliš žluťoučký kůň",
    "パスワード",
    "ﾊﾟｽﾜｰﾄﾞ",
    "㍻",
    "ＡＢＣ１２３",
    "ﬁancé",
    "Ⅻ",
    "🔑🦊",
    "👩‍💻",
    "비밀번호",
    "密码",
    "x²",
]
ASCII_CHARS = "".join(chr(c) for c in range(0x20, 0x7F))


@dataclass
class Case:
    number: int
    language: str
    words: list[str]  # the wordlist forms, as python-mnemonic ships them
    mnemonic_text: str  # what the mnemonic file holds (before UTF-8 encoding)
    shapes: list[str]
    passphrase: str | None  # None: no --passphrase-file
    passphrase_file: str | None
    passphrase_kind: str
    password: str  # for `export bee --password-file`
    bee_password_file: bool  # False: `export bee` writes DATA-DIR/password itself

    @property
    def label(self) -> str:
        shapes = "+".join(self.shapes) or "plain"
        return f"{self.language} {len(self.words)}w {shapes}, passphrase {self.passphrase_kind}"


def entropy_with_shared_chinese_words(rng: random.Random, word_count: int) -> bytes:
    """Entropy whose phrase uses only characters common to both Chinese lists."""
    checksum_bits = word_count // 3
    entropy_bits = word_count * 11 - checksum_bits
    free_bits = 11 - checksum_bits
    shared = set(SHARED_CHINESE)
    while True:
        prefix = 0
        for _ in range(word_count - 1):
            prefix = (prefix << 11) | rng.choice(SHARED_CHINESE)
        candidates = list(range(1 << free_bits))
        rng.shuffle(candidates)
        for tail in candidates:
            value = (prefix << free_bits) | tail
            entropy = value.to_bytes(entropy_bits // 8, "big")
            checksum = hashlib.sha256(entropy).digest()[0] >> (8 - checksum_bits)
            if (tail << checksum_bits) | checksum in shared:
                return entropy


def make_case(seed: int, number: int) -> Case:
    """Case `number` of run `seed`: every language and word count in each block of 50 cases."""
    rng = random.Random(f"freedom-keys parity {seed} {number}")
    language = LANGUAGES[number % len(LANGUAGES)]
    word_count = WORD_COUNTS[(number // len(LANGUAGES)) % len(WORD_COUNTS)]
    shapes: list[str] = []
    if language in CHINESE and rng.random() < 0.35:
        entropy = entropy_with_shared_chinese_words(rng, word_count)
        shapes.append("shared-chinese")
    else:
        entropy = rng.randbytes(word_count * 4 // 3)
    phrase = WORDLISTS[language].to_mnemonic(entropy)
    words = phrase.split(WORDLISTS[language].delimiter)
    assert len(words) == word_count and WORDLISTS[language].check(phrase)

    typed = list(words)
    if language == "english" and rng.random() < 0.3:
        # freedom-keys reads a unique four-letter prefix as the English word it starts.
        typed = [w[:4] if len(w) > 4 and rng.random() < 0.5 else w for w in typed]
        shapes.append("abbreviated")
    if language in LATIN:
        style = rng.choice(["lower", "lower", "upper", "title", "mixed-case"])
        if style == "upper":
            typed = [w.upper() for w in typed]
        elif style == "title":
            typed = [w.title() for w in typed]
        elif style == "mixed-case":
            typed = ["".join(c.upper() if rng.random() < 0.5 else c for c in w) for w in typed]
        if style != "lower":
            shapes.append(style)
    form = rng.choice(["as-shipped", "as-shipped", "nfc", "nfd"])
    if form != "as-shipped":
        typed = [unicodedata.normalize(form.upper(), w) for w in typed]
        shapes.append(form)

    separators = ["\u3000"] if language == "japanese" and rng.random() < 0.5 else [" "]
    gap = rng.choice(["space", "space", "tabs", "repeated", "mixed-gaps", "lines"])
    if gap == "tabs":
        separators = ["\t"]
    elif gap == "repeated":
        separators = ["  ", "   ", " \t "]
    elif gap == "mixed-gaps":
        separators = [" ", "\t", "  ", "\u3000", " \u3000 ", "\u00a0"]
    if separators == ["\u3000"]:
        shapes.append("u3000")
    if gap not in ("space", "lines"):
        shapes.append(gap)
    newline = "\r\n" if rng.random() < 0.5 else "\n"
    text = ""
    for index, word in enumerate(typed):
        if index:
            if gap == "lines" and index % rng.choice([3, 4, 6]) == 0:
                text += newline
            else:
                text += rng.choice(separators)
        text += word
    if gap == "lines":
        shapes.append("crlf-lines" if newline == "\r\n" else "lines")
    if rng.random() < 0.2:
        text = rng.choice([" ", "\n", "\t ", "\r\n"]) + text
        shapes.append("leading-space")
    ending = rng.choice(["", "\n", "\n", "\r\n", "\n\n", " \r\n"])
    text += ending
    if ending == "\r\n":
        shapes.append("crlf")
    if rng.random() < 0.15:
        text = "\ufeff" + text
        shapes.append("bom")

    kind = rng.choice(
        ["none", "none", "empty-file", "ascii", "ascii", "unicode", "unicode", "unicode"]
    )
    passphrase: str | None
    if kind == "none":
        passphrase = None
    elif kind == "empty-file":
        passphrase = ""
    elif kind == "ascii":
        passphrase = "".join(rng.choice(ASCII_CHARS) for _ in range(rng.randint(1, 40)))
    else:
        pieces = rng.sample(UNICODE_PIECES, rng.randint(1, 3))
        if rng.random() < 0.5:
            pieces.append("".join(rng.choice(ASCII_CHARS) for _ in range(rng.randint(1, 8))))
        passphrase = " ".join(pieces)
        if rng.random() < 0.3:
            passphrase = unicodedata.normalize("NFD", passphrase)
            kind = "unicode-nfd"
    passphrase_file = None
    if passphrase is not None:
        passphrase_file = passphrase + rng.choice(["", "\n", "\r\n"])
    password = "".join(rng.choice(ASCII_CHARS) for _ in range(rng.randint(8, 24)))
    return Case(
        number,
        language,
        words,
        text,
        shapes,
        passphrase,
        passphrase_file,
        kind,
        password,
        bee_password_file=rng.random() < 0.5,
    )


def write_inputs(case: Case, directory: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path | None]:
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    mnemonic_file = directory / "mnemonic.txt"
    write_private(mnemonic_file, case.mnemonic_text.encode("utf-8"))
    passphrase_file = None
    if case.passphrase_file is not None:
        passphrase_file = directory / "passphrase.txt"
        write_private(passphrase_file, case.passphrase_file.encode("utf-8"))
    return mnemonic_file, passphrase_file


def english_twin(case: Case) -> Case:
    """The case's entropy as a plain English phrase without passphrase: desktop Freedom reads
    only English phrases and uses no passphrase, so `export freedom` is checked with this."""
    entropy = WORDLISTS[case.language].to_entropy(case.words)
    words = WORDLISTS["english"].to_mnemonic(bytes(entropy)).split(" ")
    return Case(
        case.number,
        "english",
        words,
        " ".join(words) + "\n",
        [],
        None,
        None,
        "none",
        case.password,
        case.bee_password_file,
    )
