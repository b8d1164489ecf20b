"""The derived index of one layer: SQLite (FTS5) in `index.sqlite` next to the layer file (SPEC §3.6).

It holds a copy of the layer's live records, their analysed text for BM25, the archive index
(stubs of archived records, from the cold store) and read bookkeeping. It is never a source of
truth: it carries the checksum of the `state.json` generation it reflects, and any difference
(a crash between publish and index update, a hand edit, an older version of Lingshu) rebuilds it
from the layer before it is used. Writers update it in the same transaction that publishes a
generation, under the layer lock; readers rebuild it when they find it stale, so a reader never
waits for the layer lock.

Read counts and last-read times live only here (table `reads`), so a read publishes nothing.
Losing the last few in a crash, or all of them with the file, is acceptable: they only order
which record is archived first at the hard limit.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .durable import PRIVATE_FILE, checksum_holds, private_dirs, sealed_bytes_hold
from .store import confine, file_key, load
from .search import (FIELD_WEIGHTS, VARIANT_MIN, VARIANT_SPAN, Scorer, analysed, named_terms, fts_query, han_runs, joined_terms, one_edit, pasted_terms, query_terms, variant_prefixes,
                     term as term_of, with_words, word_candidates)

INDEX = "index.sqlite"
# Bump when the schema or the analyser changes: an index of another version is rebuilt.
SCHEMA = "155"
# A question of this many terms or fewer names a Chinese note by a translation in its title (a
# longer English prompt's stray words would find Chinese titles). 2 from session 11 to 23; measured
# again over 51 sets: 4 found 8 more notes ("what time is the group meeting" and 组会每周二上午十点) for
# 11 more cards and one paraphrase lost, 6 the same notes for 16 more cards, 3 four fewer.
SHORT_QUESTION = 4
COLUMNS = ("title", "summary", "whenc", "body", "conds")
CACHE_KIB = 512
# Dictionary words remembered per layer as held or not (`_Conn.holds_words`); the MCP server keeps two.
DICTIONARY_CACHE = 20_000
_HEAD = b'{"checksum":"'
_SCHEMA_SQL = f"""
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS records(n INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, status TEXT, topic TEXT,
    title_key TEXT, conds TEXT, length REAL, updated TEXT, json TEXT NOT NULL, current INTEGER NOT NULL DEFAULT 1);
CREATE INDEX IF NOT EXISTS records_topic ON records(topic) WHERE topic IS NOT NULL;
CREATE INDEX IF NOT EXISTS records_title ON records(title_key);
-- Counting the live notes and their mean length (every ranking's first question) reads this
-- index alone: over the table, with each note's JSON, it was ~1.2 ms per layer at 1,000 notes.
CREATE INDEX IF NOT EXISTS records_length ON records(status, length);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5({", ".join(COLUMNS)},
    tokenize="unicode61 remove_diacritics 0 tokenchars '._-+#'");
CREATE TABLE IF NOT EXISTS terms(term TEXT PRIMARY KEY, doc INTEGER NOT NULL, current INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS archive(id TEXT PRIMARY KEY, updated TEXT, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS reads(id TEXT PRIMARY KEY, last_read TEXT, count INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS verdicts(key TEXT PRIMARY KEY, id TEXT, unsafe TEXT);
CREATE INDEX IF NOT EXISTS verdicts_id ON verdicts(id);
"""


def _tag(state: dict[str, Any]) -> str:
    return str(state.get("checksum") or f"empty:{state.get('generation', 0)}")


def _cond_lines(record: dict[str, Any]) -> str:
    """Conditions as "\\nkey=value\\n" lines, lowercased, for exact lookups by task kind or series."""
    conds = [c for c in record.get("conditions") or [] if isinstance(c, dict)]
    return "\n" + "".join(f"{c.get('key')}={str(c.get('value', '')).strip().lower()}\n" for c in conds)


class _Conn:
    """One open index and the file identity it was opened on (another process may replace it)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        target = str(path) if path else ":memory:"
        self.db = sqlite3.connect(target, timeout=2.0, isolation_level=None)
        # While pinned (one recall), the meta rows are read once: the caller checks the
        # generation again after the block.
        self.pinned_meta: dict[str, str | None] | None = None
        if path:
            with contextlib.suppress(OSError):
                os.chmod(path, PRIVATE_FILE)  # SQLite gives its -wal and -shm files the same mode
        if path:
            # The index is derived: after a power cut it is checked against the layer and rebuilt.
            self.db.execute("PRAGMA synchronous=OFF")
            # Freed pages are zeroed, so a purged record's text does not linger in the file.
            self.db.execute("PRAGMA secure_delete=ON")
            # A small page cache per layer (the OS caches the file anyway): the MCP server holds two.
            self.db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        found = self._schema()
        if found != SCHEMA:
            if path:
                self.db.execute("PRAGMA journal_mode=WAL")
            if found is not None:  # another version's index: rebuilt from the layer; read counts kept
                self.db.executescript("DROP TABLE IF EXISTS vocab; DROP TABLE IF EXISTS terms; DROP TABLE IF EXISTS fts; DROP TABLE IF EXISTS records; "
                                      "DROP TABLE IF EXISTS archive; DROP TABLE IF EXISTS meta;")
            self.db.executescript(_SCHEMA_SQL)
        self.ident = _ident(path) if path else None
        self.checked: tuple[tuple[int, int, int] | None, str] | None = None
        self._stats: tuple[str | None, int, float] | None = None
        self._chinese: tuple[str | None, bool] | None = None
        self._dictionary: tuple[str | None, dict[str, bool]] | None = None

    def _schema(self) -> str | None:
        try:
            return self.meta("schema")
        except sqlite3.OperationalError:
            return None  # a new file: no tables yet

    def holds_chinese(self) -> bool:
        """Whether any live note holds Chinese text (kept per indexed generation): only then do
        English query terms bring their Chinese names along (`core/glossary.py`)."""
        tag = self.meta("tag")
        if self._chinese is None or self._chinese[0] != tag:
            row = self.db.execute("SELECT 1 FROM terms WHERE term >= ? LIMIT 1", ("\u3400",)).fetchone()
            self._chinese = (tag, row is not None)
        return self._chinese[1]

    def holds_words(self, words: set[str]) -> set[str]:
        """Which of the dictionary's `words` the layer holds, remembered per indexed generation: a
        warm recall asks for the same few hundred again (~0.2 ms a search at 1,000 notes)."""
        tag = self.meta("tag")
        if self._dictionary is None or self._dictionary[0] != tag or len(self._dictionary[1]) > DICTIONARY_CACHE:
            self._dictionary = (tag, {})
        known = self._dictionary[1]
        missing = tuple(w for w in words if w not in known)
        if missing:
            found = set(_held(self, missing))
            known.update((w, w in found) for w in missing)
        return {w for w in words if known[w]}

    def stats(self) -> tuple[int, float]:
        """(active records, their mean weighted length), kept per indexed generation."""
        tag = self.meta("tag")
        if self._stats is None or self._stats[0] != tag:
            n, avg = self.db.execute("SELECT count(*), avg(length) FROM records WHERE status='active'").fetchone()
            self._stats = (tag, int(n), float(avg or 1.0))
        return self._stats[1], self._stats[2]

    def meta(self, key: str) -> str | None:
        if self.pinned_meta is not None and key in self.pinned_meta:
            return self.pinned_meta[key]
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        value = row[0] if row else None
        if self.pinned_meta is not None:
            self.pinned_meta[key] = value
        return value

    @contextlib.contextmanager
    def writing(self) -> Iterator[sqlite3.Connection]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")


def _ident(path: Path | None) -> tuple[int, int] | None:
    try:
        st = os.stat(path) if path else None
    except OSError:
        return None
    return (st.st_dev, st.st_ino) if st else None


# One connection per layer and thread: the panel's workers and the MCP server's threads each keep
# their own, so one thread's write transaction never meets another's.
_local = threading.local()


def _open_conns() -> dict[Path, _Conn]:
    """This thread's open indexes by layer folder."""
    conns: dict[Path, _Conn] | None = getattr(_local, "conns", None)
    if conns is None:
        conns = _local.conns = {}
    return conns


@contextlib.contextmanager
def pinned() -> Iterator[None]:
    """Within the block, this thread checks each layer's index against its files once (a recall
    makes a dozen lookups; each check is two `stat`s and a query). For readers that check the
    generation again after the block and drop what they chose when it changed."""
    pins: dict[Path, _Conn] = {}
    _local.pins = pins
    try:
        yield
    finally:
        _local.pins = None
        for conn in pins.values():
            conn.pinned_meta = None


def _pins() -> dict[Path, _Conn] | None:
    pins: dict[Path, _Conn] | None = getattr(_local, "pins", None)
    return pins


def _connect(layer_dir: Path) -> _Conn:
    """The index of a layer, reopened when its file was replaced; in memory when the home cannot
    hold it (read-only), so search still works there, only slower."""
    _conns = _open_conns()
    pins = _pins()
    if pins is not None and layer_dir in pins:
        return pins[layer_dir]
    conn = _conns.get(layer_dir)
    path = layer_dir / INDEX
    if conn is not None and (conn.path is None or conn.ident == _ident(path)):
        return conn
    if conn is not None:
        with contextlib.suppress(sqlite3.Error):
            conn.db.close()
    try:
        private_dirs(layer_dir)
        conn = _Conn(path)
    except (sqlite3.Error, OSError):
        with contextlib.suppress(OSError):
            path.unlink()  # an unreadable index is only derived data: start it again
        try:
            conn = _Conn(path)
        except (sqlite3.Error, OSError):
            conn = _Conn(None)
    _conns[layer_dir] = conn
    return conn


def forget_connections() -> None:
    """Close this thread's open indexes (tests and benchmarks that start from cold)."""
    _conns = _open_conns()
    for conn in _conns.values():
        with contextlib.suppress(sqlite3.Error):
            conn.db.close()
    _conns.clear()


def sealed_checksum(state_path: Path) -> str | None:
    """The checksum of a sealed `state.json` whose bytes hold it: which generation is on disk,
    known by hashing the file, without parsing it. None for a damaged file or another form (a
    hand-written one), which the caller then loads the slow way (and recovers, if need be)."""
    try:
        with open(state_path, "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    if sealed_bytes_hold(raw) is not True:
        return None
    end = raw.find(b'"', len(_HEAD))
    return raw[len(_HEAD) : end].decode("ascii")


def current(ref: Any) -> _Conn:
    """The layer's index, brought up to the generation on disk first when it is behind."""
    pins = _pins()
    if pins is None:
        return _current(ref)
    conn = pins.get(ref.dir)
    if conn is None:
        conn = pins[ref.dir] = _current(ref)
        conn.pinned_meta = {}
    return conn


def _current(ref: Any) -> _Conn:
    conn = _connect(ref.dir)
    key = file_key(ref.state_path)
    tag = conn.meta("tag")
    if conn.checked is not None and conn.checked[0] == key and conn.checked[1] == tag and (key is not None or not ref.prev_path.exists()):
        # The file and the index are both as this process last saw them agree; for a layer that has
        # never published (no file, no previous generation), that spares every search a history check.
        return conn
    # Any change of the layer file (a swap for a link included) changes its key and comes here.
    confine(ref)
    # The writer that published the file and brought the index to it left the file's key: a new
    # process (the recall hook) then need not read and hash the whole layer to know they agree.
    if key is not None and tag is not None and conn.meta("schema") == SCHEMA and conn.meta("file") == _key_text(key):
        conn.checked = (key, tag)
        return conn
    if key is not None and tag is not None and conn.meta("schema") == SCHEMA and sealed_checksum(ref.state_path) == tag:
        conn.checked = (key, tag)
        return conn
    state = load(ref)
    if tag != _tag(state) or conn.meta("schema") != SCHEMA:
        rebuild(conn, ref, state)
    conn.checked = (file_key(ref.state_path), _tag(state))
    return conn


def _row(rec: dict[str, Any]) -> tuple[Any, ...]:
    title_key = str(rec.get("title") or "").strip().casefold()
    return (rec["id"], rec.get("status", "active"), rec.get("topicKey") or None, title_key, _cond_lines(rec))


# How many live notes hold each term, kept beside the full-text index: FTS5's own vocabulary table
# walks a term's whole list of notes to count them (about 1 ms for four common terms at 1,000 notes),
# and every search and save asks for a dozen counts. `current` counts only the notes that can be
# recalled (not replaced, not waiting for review): whether a word is common enough to stop naming a
# note is a question about the notes that answer now, and a note replaced twice must not make the
# word of its subject common (票价 in three fare rules, two of them old).
def _count_terms(db: sqlite3.Connection, columns: tuple[str, ...], step: int, current: bool) -> None:
    terms = [(t,) for t in set(" ".join(columns).split())]
    now = 1 if current else 0
    if step > 0:
        db.executemany(f"INSERT INTO terms(term, doc, current) VALUES (?, 1, {now}) "
                       f"ON CONFLICT(term) DO UPDATE SET doc = doc + 1, current = current + {now}", terms)
    else:
        db.executemany(f"UPDATE terms SET doc = doc - 1, current = current - {now} WHERE term = ?", terms)
        # A term no live note holds leaves the table (a purged note's words must not stay behind).
        db.executemany("DELETE FROM terms WHERE term = ? AND doc <= 0", terms)


def _is_current(rec: dict[str, Any]) -> bool:
    return not rec.get("supersededBy") and rec.get("reviewState") != "legacy_unreviewed"


def _insert(db: sqlite3.Connection, rec: dict[str, Any]) -> None:
    columns = analysed(rec)
    length = sum(w * len(c.split()) for w, c in zip(FIELD_WEIGHTS, columns))
    current = _is_current(rec)
    cur = db.execute("INSERT INTO records(id, status, topic, title_key, conds, length, updated, json, current) VALUES (?,?,?,?,?,?,?,?,?)",
                     (*_row(rec), length, str(rec.get("updated", "")), json.dumps(rec, ensure_ascii=False, separators=(",", ":")), int(current)))
    if rec.get("status", "active") == "active":
        db.execute(f"INSERT INTO fts(rowid, {', '.join(COLUMNS)}) VALUES (?,?,?,?,?,?)", (cur.lastrowid, *columns))
        _count_terms(db, columns, +1, current)


def _delete(db: sqlite3.Connection, rid: str) -> None:
    row = db.execute("SELECT n, current FROM records WHERE id=?", (rid,)).fetchone()
    if row:
        indexed = db.execute(f"SELECT {', '.join(COLUMNS)} FROM fts WHERE rowid=?", (row[0],)).fetchone()
        if indexed:
            _count_terms(db, tuple(indexed), -1, bool(row[1]))
        db.execute("DELETE FROM fts WHERE rowid=?", (row[0],))
        db.execute("DELETE FROM records WHERE n=?", (row[0],))


def _key_text(key: tuple[int, int, int] | None) -> str:
    return "" if key is None else "{}:{}:{}".format(*key)


def _set_tag(db: sqlite3.Connection, state: dict[str, Any]) -> None:
    # Whoever sets a tag without knowing the file it came from clears the file key (see `apply`).
    db.execute("DELETE FROM meta WHERE key='file'")
    db.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", [
        ("tag", _tag(state)), ("schema", SCHEMA), ("generation", str(state.get("generation", 0))),
        ("archiveGeneration", str(state.get("archiveGeneration", 0))),
        ("conflicts", json.dumps(state.get("conflicts", []), ensure_ascii=False)),
    ])


def _stub(cold: dict[str, Any]) -> dict[str, Any] | None:
    rec = cold.get("record")
    return rec if isinstance(rec, dict) and isinstance(rec.get("id"), str) else None


def _scan_cold(ref: Any) -> Iterator[dict[str, Any]]:
    """Stubs of the archived records in the cold store, from each file that passes its checksum."""
    try:
        names = sorted(os.listdir(ref.cold_dir))
    except OSError:
        return
    for name in names:
        if not name.endswith(".json") or name.startswith("."):
            continue
        try:
            with open(ref.cold_dir / name, "rb") as fh:
                obj = json.loads(fh.read())
        except (OSError, ValueError):
            continue
        stub = _stub(obj) if checksum_holds(obj) else None
        if stub is not None:
            yield stub


def rebuild(conn: _Conn, ref: Any, state: dict[str, Any]) -> None:
    """Make the index reflect `state` exactly (and the cold store, when its generation moved)."""
    try:
        with conn.writing() as db:
            if db.execute("SELECT value FROM meta WHERE key='tag'").fetchone() == (_tag(state),) and conn.meta("schema") == SCHEMA:
                return  # another process rebuilt it meanwhile
            db.execute("DELETE FROM records")
            db.execute("DELETE FROM fts")
            db.execute("DELETE FROM terms")
            for rec in state["records"].values():
                _insert(db, rec)
            db.execute("DELETE FROM verdicts WHERE id NOT IN (SELECT id FROM records)")
            if conn.meta("archiveGeneration") != str(state.get("archiveGeneration", 0)) or conn.meta("schema") != SCHEMA:
                db.execute("DELETE FROM archive")
                # A cold file whose record is still live belongs to a change in flight: not archived yet.
                db.executemany("INSERT OR REPLACE INTO archive(id, updated, json) VALUES (?,?,?)",
                               ((s["id"], str(s.get("archivedAt") or s.get("updated") or ""), json.dumps(s, ensure_ascii=False))
                                for s in _scan_cold(ref) if s["id"] not in state["records"]))
            _set_tag(db, state)
    except sqlite3.Error:
        if conn.path is None:
            raise
        # The file is locked for too long or damaged: serve this call from memory instead.
        _open_conns()[ref.dir] = mem = _Conn(None)
        rebuild(mem, ref, state)


# Each update leaves the old row's terms in the full-text segments until a merge reaches them, and
# segments pile up: after 4,000 saves at the cap, the look-alike queries cost 50 % more. So each
# write also does a little of FTS5's incremental merge (MERGE_PAGES pages), which keeps a layer's
# index at a few segments at an even cost per save, instead of a large merge now and then.
MERGE_PAGES = 64
# Those few segments still cost every query term a lookup in each (a fifth of a warm recall at 200
# notes a layer, where 8 segments were left), so every OPTIMIZE_EVERY-th generation merges them
# all into one: ~2.5 ms at 1,000 notes, on one save in 32, leaves 1-5 segments instead of 7-10.
OPTIMIZE_EVERY = 32


def rebuild_now(ref: Any) -> None:
    """`lingshu doctor --reindex`: the index again from the layer file and the cold store."""
    conn = _connect(ref.dir)
    with conn.writing() as db:
        db.execute("DELETE FROM meta WHERE key IN ('tag', 'archiveGeneration')")
    conn.checked = None
    current(ref)


def apply(ref: Any, base: dict[str, Any], new: dict[str, Any], archived: dict[str, dict[str, Any]], unarchived: list[str]) -> None:
    """After a publish, under the layer lock: bring the index from `base` to `new` by the records
    that changed. An index that was not at `base` is rebuilt; an error leaves it stale, and the
    next user rebuilds it — the index is never trusted over the layer."""
    try:
        conn = _connect(ref.dir)
        with conn.writing() as db:
            tag = db.execute("SELECT value FROM meta WHERE key='tag'").fetchone()
            if tag != (_tag(base),) or conn.meta("schema") != SCHEMA:
                raise _Stale
            old, cur = base["records"], new["records"]
            for rid in old.keys() | cur.keys():
                if old.get(rid) is not cur.get(rid):
                    _delete(db, rid)
                    # A verdict was on the card as it was: the saver sets the new one after this,
                    # and one that left the layer keeps none (the table would grow with history).
                    db.execute("DELETE FROM verdicts WHERE id=?", (rid,))
                    if rid in cur:
                        _insert(db, cur[rid])
            for rid, stub in archived.items():
                db.execute("INSERT OR REPLACE INTO archive(id, updated, json) VALUES (?,?,?)",
                           (rid, str(stub.get("archivedAt") or ""), json.dumps(stub, ensure_ascii=False)))
            db.executemany("DELETE FROM archive WHERE id=?", ((rid,) for rid in unarchived))
            if int(new.get("generation", 0)) % OPTIMIZE_EVERY:
                db.execute("INSERT INTO fts(fts, rank) VALUES('merge', ?)", (MERGE_PAGES,))
            else:
                db.execute("INSERT INTO fts(fts) VALUES('optimize')")
            _set_tag(db, new)
            published = file_key(ref.state_path)
            db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('file', ?)", (_key_text(published),))
        # The writer knows the file it just published: no need to hash it again on the next read.
        conn.checked = (published, _tag(new))
    except _Stale:
        with contextlib.suppress(sqlite3.Error, OSError):
            rebuild(_connect(ref.dir), ref, new)
    except (sqlite3.Error, OSError):
        pass


def scrub(ref: Any) -> None:
    """After a purge: merge the full-text segments (FTS5 keeps a deleted row's terms in older
    segments until a merge) and fold the write-ahead log back in, so no copy of the text stays."""
    try:
        conn = _connect(ref.dir)
        with conn.writing() as db:
            db.execute("INSERT INTO fts(fts) VALUES('optimize')")
        conn.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error:
        pass  # a busy reader keeps the log a little longer; the next checkpoint folds it


class _Stale(Exception):
    """The index was not at the generation the writer started from."""


# ---------------------------------------------------------------- queries


def get(ref: Any, rid: str) -> dict[str, Any] | None:
    """A record the layer file holds (any status), by id."""
    row = current(ref).db.execute("SELECT json FROM records WHERE id=?", (rid,)).fetchone()
    return json.loads(row[0]) if row else None


_ASKING = ("几", "哪", "啥", "谁", "吗", "呢", "什么", "多少", "怎么", "怎样")


def _spoken_in_english(conn: _Conn, words: list[str], known: list[str], named: list[str]) -> list[str]:
    """The question's dictionary words of three or four characters that no note holds and that the hand glossary does not
    name, whose every English name the layer holds (宽限期 "grace period"), longest first and none inside another."""
    out: list[str] = []
    # (not a question's own word: 星期几 asks which day, and "day" and "week" name no note's subject)
    for word in sorted((w for w in words if 3 <= len(w) <= 4 and w not in known and not any(w in n for n in named) and not any(a in w for a in _ASKING)),
                       key=len, reverse=True):
        if any(word in longer or longer in word for longer in out):
            continue
        names = _glossary().dictionary_english_of(word)
        if names and len(set(_held(conn, tuple(names)))) == len(set(names)):
            out.append(word)
    return out


def search(ref: Any, query: str, *, limit: int = 60, offset: int = 0, explain: bool = False, general: bool = False,
           peers: tuple[Any, ...] = ()) -> list[Hit]:
    """Active records matching any query term, best first. FTS5 finds and pre-orders the matches; each page is then scored by our own BM25 (FTS5's
    gives no weight at all to a term in over half the records, common in a small memory) with
    field weights, plus the all-terms and phrase bonuses. With `explain`, each hit also says which
    query terms it holds and by which name (`Scorer.held`). `general`: the message asks what anyone could
    answer, and its strict coverage counts every Chinese pair no note holds (`Scorer`). `peers`: the memory's other
    layers, whose notes count in how common a word is (a global layer of a few notes, judged alone, found every word
    rare and any one of them enough)."""
    terms = query_terms(query)
    if not terms:
        return []
    conn = current(ref)
    words = word_candidates(query)
    known = _held(conn, tuple(words))
    named = _glossary().chinese_words(han_runs(query)) if not query.isascii() else []
    # A named word of three characters or more stands for its characters' pairs only where the
    # layer holds it, or holds no Chinese at all (then it is found by its English names alone);
    # elsewhere its pairs stay, and the first of them borrows its English names.
    chinese = conn.holds_chinese() if named or not query.isascii() else False
    whole = [w for w in named if w in known or len(w) == 2 or not chinese]
    # ... and so does a word of the dictionary no note holds, whose every English name the layer holds: 宽限期 is found by
    # "grace period", where its pair 限期 ("time limit") had stayed a term of its own that no note on the grace period holds.
    spoken = _spoken_in_english(conn, words, known, named) if chinese else []
    if known or whole or spoken:
        terms = with_words(terms, known + [w for w in whole if w not in known] + spoken)
    if named or spoken:
        # A pair across the edge of a known word that no note holds is no term of the question
        # ("志发" in "日志发到哪里"): counted, it made a one-word question one of three terms. One a
        # note holds may be a longer word's ("务名" of 服务名 in "服务名有什么要求").
        runs = [run for run in han_runs(query) if len(run) > 2]
        seam = _glossary().seams(runs, spoken)
        seam.difference_update(_held(conn, tuple(t for t in terms if t in seam)))
        terms = [t for t in terms if t not in seam]
        if not terms:
            return []
    borrowed = {w[:2]: _glossary().english_of(w) for w in named if w not in whole}
    variants = _variants(conn, terms)
    for term, spellings in _spellings(conn, terms, variants).items():
        variants[term] = sorted({*variants.get(term, ()), *spellings})
    foreign, naming, loose = _translations(conn, terms, borrowed, _nouns_cut_apart(conn, terms, known, _dictionary_words(terms, words, known)))
    own = list(dict.fromkeys(terms + [v for vs in variants.values() for v in vs]))
    # A term no note holds in the question's language can be found only by its other names: those
    # are asked for with the question's own words ("new uniforms" in a memory whose English notes
    # all say "crew" finds 制服 only so).
    if foreign or loose:
        held = set(_held(conn, tuple(own)))
        own += [n for t in terms if t not in held and not held.intersection(variants.get(t, ()))
                for n in (*foreign.get(t, ()), *loose.get(t, ())) if n not in own]
    # Translations widen only a page the question's own language leaves short: in a memory that
    # speaks both languages they would double the matches to rank, and a translation counts for
    # less than the word itself anyway. Whether it is short is counted first (a tenth of a page).
    if (foreign or loose) and _matches(conn, own, offset + limit) < offset + limit:
        rows = _page(conn, list(dict.fromkeys(own + [v for vs in (*foreign.values(), *loose.values()) for v in vs])), limit, offset)
    else:
        rows = _page(conn, own, limit, offset)
    if not rows:
        return []
    total, avg = conn.stats()
    asked = list(dict.fromkeys(terms + [v for vs in (*variants.values(), *foreign.values(), *loose.values()) for v in vs]))
    marks = ",".join("?" * len(asked))
    df: dict[str, int] = {}
    now: dict[str, int] = {}
    for layer in (conn, *(current(peer) for peer in peers)):
        if layer is not conn:
            total += layer.stats()[0]
        for term, doc, held_now in layer.db.execute(f"SELECT term, doc, current FROM terms WHERE term IN ({marks})", asked):
            df[term] = df.get(term, 0) + doc
            now[term] = now.get(term, 0) + held_now
    scorer = Scorer(terms, df, int(total), float(avg or 1.0), variants, foreign, naming, loose, pasted_terms(query), every_pair=general,
                    current=now, named=named_terms(query))
    scored = []
    for row in rows:
        score, matched, title_hit, coverage, strict = scorer.score(tuple(row[:5]), row[5])
        scored.append((round(score, 6), row[6], row[7], row[8], matched, title_hit, coverage, scorer.held(tuple(row[:5])) if explain else None, strict))
    # Best first; ties by newest update, then title, then id: the order is the same every time, and
    # the same for two stores written alike (ids are random).
    titles = {row[7]: row[9] for row in rows}
    scored.sort(key=lambda t: (titles[t[2]], t[2]))
    scored.sort(key=lambda t: t[1], reverse=True)
    scored.sort(key=lambda t: t[0], reverse=True)
    return [Hit(s, rid, raw, matched, title_hit, coverage, held, strict, len(terms))
            for s, _, rid, raw, matched, title_hit, coverage, held, strict in scored]


def _glossary() -> Any:
    """`core/glossary.py`, imported on the first search that has a term to look up in it (a
    process that only saves never loads it)."""
    from . import glossary

    return glossary


def _page(conn: _Conn, terms: list[str], limit: int, offset: int) -> list[tuple[Any, ...]]:
    """One page of the records matching any of `terms`, in FTS5's bm25 order. The page is chosen on
    rowids alone, then only its rows are read: ordering the matches with their columns and records
    attached read every matching row's text (a fifth of the query)."""
    weights = ", ".join(str(w) for w in FIELD_WEIGHTS)
    return conn.db.execute(
        f"SELECT {', '.join('f.' + c for c in COLUMNS)}, records.length, records.updated, records.id, records.json, records.title_key "
        f"FROM (SELECT rowid AS n, bm25(fts, {weights}) AS s FROM fts WHERE fts MATCH ? ORDER BY s LIMIT ? OFFSET ?) AS page "
        f"JOIN fts AS f ON f.rowid = page.n JOIN records ON records.n = page.n ORDER BY page.s",
        (fts_query(terms), limit, offset),
    ).fetchall()


def _matches(conn: _Conn, terms: list[str], most: int) -> int:
    """How many records match any of `terms`, counted up to `most`."""
    return int(conn.db.execute("SELECT count(*) FROM (SELECT 1 FROM fts WHERE fts MATCH ? LIMIT ?)", (fts_query(terms), most)).fetchone()[0])


def _dictionary_words(terms: list[str], words: list[str], known: list[str]) -> dict[str, tuple[str, ...]]:
    """The dictionary's English names of the longer Chinese words of the question that no note holds
    (借书证 "library card", 储物柜 "locker"), each lent to the first of its pairs that is still a term:
    the pairs alone translate as other words (借书 "borrow"), and a word no note holds is no term."""
    lent: dict[str, tuple[str, ...]] = {}
    taken: set[str] = set()
    # (three or four characters: the dictionary's longer entries are phrases and idioms, and each lookup costs the
    # recall hook, a new process, ~0.08 ms the first time)
    for word in sorted((w for w in words if len(w) <= 4 and w not in known), key=len, reverse=True):
        if any(word in longer for longer in taken):
            continue
        pair = next((word[i : i + 2] for i in range(len(word) - 1) if word[i : i + 2] in terms), None)
        english = _glossary().dictionary_english_of(word) if pair is not None else ()
        if english and pair is not None:
            lent[pair] = (*lent.get(pair, ()), *english)
            taken.add(word)
    return lent


def _nouns_cut_apart(conn: _Conn, terms: list[str], known: list[str], lent: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """`lent`, with the name of each noun of one character that the question's pairs cut apart (泵 of 泵什么时候大修, 氯 of
    余氯) lent to the first pair that holds it and is no word (neither the dictionary's nor one a note holds): the pair alone
    names nothing, and the character is what it is about."""
    pairs = [t for t in terms if len(t) == 2 and not t.isascii()]
    cut = [t for t in pairs if t not in lent and not _glossary().english_of(t) and not _glossary().dictionary_english_of(t)]
    held = set(_held(conn, tuple(cut))) if cut else set()
    unheld = [p for p in cut if p not in held]
    # (a character of a word the question holds is that word's: 客 of 顾客 in 顾客拿来, which its seam 客拿 cuts apart)
    given = {c for t in (*known, *(p for p in pairs if p not in unheld)) if not t.isascii() for c in t}
    # (... and so is one that follows or precedes such a word in a pair no note holds: 门 of 冰箱门 is the fridge's door)
    in_words = frozenset(given)
    given.update(c for p in unheld for c in p if any(o in in_words for o in p.replace(c, "", 1)))
    named = {c: english for p in unheld for c in p if (english := _glossary().dictionary_english_of(c))}
    # (two nouns make a compound the dictionary lacks, 季票 a season ticket: neither alone is what it names)
    given.update(c for p in unheld if all(ch in named for ch in p) for c in p)
    for pair in unheld:
        for char in pair:
            if char in named and char not in given:
                lent[pair] = (*lent.get(pair, ()), *named[char])
                given.add(char)
    return lent


def _translations(conn: _Conn, terms: list[str], borrowed: dict[str, tuple[str, ...]], lent: dict[str, tuple[str, ...]]
                  ) -> tuple[dict[str, list[str]], dict[str, list[str]], dict[str, list[str]]]:
    """Each term's other names (`search.Scorer` counts them as the term, at a lower weight): a
    Chinese word's English ones (and those it `borrowed`) with their related English words (密码 is a
    password, and a note says "credentials": over 126 sets, 8 questions found their note, 4 lost it), an English word's Chinese ones where the
    layer holds Chinese text at all, and its related English words (`glossary.RELATED`); apart,
    the related words, which also name a note by its title (a translation does not: English
    prompts are long, and their stray words would find Chinese titles); and apart again, an
    English word's further Chinese names from the dictionary (`core/cedict.py`) that the layer
    holds, which count like a translation but for half the information of a term only they find
    (`search.DICTIONARY`); and so a Chinese word's English names from the dictionary, when the hand
    glossary lacks it (练习 "practice"), and those of a longer dictionary word of the question that a pair was `lent`
    (`_dictionary_words`). That way round, a question's frame words (有什么要求, 出来)
    once found English notes by chance (2 found, 3 lost); without the particles of phrasal verbs in
    the table, and with a name counted once where the glossary gives it to another word of the
    question, over 174 sets: 6 found, 1 lost and 1 no-answer prompt given a card."""
    out: dict[str, list[str]] = {}
    naming: dict[str, list[str]] = {}
    loose: dict[str, list[str]] = {}
    chinese = conn.holds_chinese() if any(t.isascii() for t in terms) else False
    # The dictionary's Chinese words for every English term, looked up in the layer at once.
    wanted = {t: _glossary().dictionary_chinese_of(t) for t in terms if t.isascii()} if chinese else {}
    wanted.update((t, (*_glossary().dictionary_english_of(t), *lent.get(t, ()))) for t in terms if not t.isascii())
    known = conn.holds_words({w for ws in wanted.values() for w in ws})
    held = set(_held(conn, tuple(t for t in terms if not t.isascii())))
    for t in terms:
        if not t.isascii():
            english = (*_glossary().english_of(t), *borrowed.get(t, ()))
            # Chinese words with an English name in common name the same thing too (发版, 发布).
            related = [r for e in english for r in _glossary().related_of(e)]
            direct = (*english, *(zh for e in english for zh in _glossary().chinese_of(e)))
            # ... and a Chinese word that no note holds, under any of its own names, is found by the Chinese
            # names of its related words too (小猫 by 宠物, through "cat" and "pet"): a word the notes hold
            # needs no second step (分析 of an English "analysis" note went on to 报告 through "report").
            second = t not in held and not conn.holds_words(set(direct))
            names: tuple[str, ...] = (*direct, *related, *(zh for r in related for zh in _glossary().chinese_of(r) if second))
        else:
            related = [n for n in _glossary().related_of(t) if n not in terms]
            zh = _glossary().chinese_of(t) if chinese else ()
            # A short question names a Chinese title by its translation too ("how often do we
            # release" and 每两周的周三发版): it has no stray words for a title to catch.
            if related or (zh and len(terms) <= SHORT_QUESTION):
                naming[t] = [*related, *(zh if len(terms) <= SHORT_QUESTION else ())]
            names = (*zh, *related)
        # A name that is itself a term of the query counts there, not twice.
        names = tuple(n for n in dict.fromkeys(names) if n not in terms)
        if names:
            out[t] = list(names)
        extra = [w for w in wanted.get(t, ()) if w in known and w not in terms and w not in names]
        if extra:
            loose[t] = extra
    # ... nor a dictionary's name that another term of the query has by the glossary (结案's "case", of
    # "to conclude a case", is 案件's own name in 结案的案件多久删除).
    named = {n for ns in out.values() for n in ns}
    loose = {t: kept for t, ws in loose.items() if (kept := [w for w in ws if w not in named])}
    return out, naming, loose


def _held(conn: _Conn, words: tuple[str, ...]) -> list[str]:
    """The words of `words` the layer holds (a two-character word is one of its bigrams), asked in
    chunks that stay under SQLite's oldest limit on parameters."""
    out: list[str] = []
    for i in range(0, len(words), 900):
        chunk = words[i : i + 900]
        marks = ",".join("?" * len(chunk))
        out.extend(row[0] for row in conn.db.execute(f"SELECT term FROM terms WHERE term IN ({marks})", chunk))
    return out


# A word typed with one letter dropped, doubled, swapped or wrong ("deplyo", "migartion") is found by its
# spelling in the notes: a term of at least TYPO_MIN letters that no note holds, and that is no English
# word the dictionary knows (`cedict`), takes the terms one edit away that the layer holds.
TYPO_MIN = 5


def _spellings(conn: _Conn, terms: list[str], variants: dict[str, list[str]]) -> dict[str, list[str]]:
    """The layer's spellings of the query's misspelt terms (TYPO_MIN)."""
    odd = [t for t in terms if len(t) >= TYPO_MIN and t.isalpha() and t.isascii() and not variants.get(t) and t not in joined_terms()]
    if odd:
        held = set(_held(conn, tuple(odd)))  # (asked once, not once a term)
        odd = [t for t in odd if t not in held and not _glossary().dictionary_chinese_of(t)]
    out: dict[str, list[str]] = {}
    for term in odd:
        found = _held(conn, tuple(sorted(one_edit(term))))
        if found:
            out[term] = found
    return out


def _variants(conn: _Conn, terms: list[str]) -> dict[str, list[str]]:
    """Each term's other forms the index holds: longer ones that extend it, shorter ones it extends
    (`search.variant_prefixes`), each by at most VARIANT_SPAN letters."""
    out: dict[str, list[str]] = {}
    # A short name's plural that Snowball leaves whole ("sdks", "gpus", "vms": no vowel before the s it
    # could drop) is the name: "which SDKs do we ship" and "is there an official SDK" are one term.
    plurals = {t: p for t in terms if t.isalpha() and t.isascii() and 1 < len(t) < VARIANT_MIN
               for p in (f"{t}s", t[:-1] if t.endswith("s") and len(t) > 2 else "") if p and term_of(p) == p}
    if plurals:
        marks = ",".join("?" * len(plurals))
        held = {r[0] for r in conn.db.execute(f"SELECT term FROM terms WHERE term IN ({marks})", list(plurals.values())).fetchall()}
        out.update({t: [p] for t, p in plurals.items() if p in held})
    for term in terms:
        if not term.isalpha() or not term.isascii() or len(term) < VARIANT_MIN:
            continue
        shorter = variant_prefixes(term)
        rows = conn.db.execute(
            "SELECT term FROM terms WHERE term > ? AND term < ? AND length(term) <= ?"
            + (f" UNION SELECT term FROM terms WHERE term IN ({','.join('?' * len(shorter))})" if shorter else ""),
            (term, term + "{", len(term) + VARIANT_SPAN, *shorter)).fetchall()
        found = [r[0] for r in rows if r[0].isalpha()]
        if found:
            out[term] = sorted(found)
    return out


class Hit:
    """One match: its score, how many query terms it holds, whether its title holds one, and the
    record, decoded only when asked for (most candidates of a recall never are)."""

    __slots__ = ("score", "id", "raw", "matched", "title_hit", "coverage", "held", "strict", "of", "_record")

    def __init__(self, score: float, rid: str, raw: str, matched: int, title_hit: bool, coverage: float = 1.0,
                 held: list[str] | None = None, strict: float | None = None, of: int = 1) -> None:
        self.score, self.id, self.raw, self.matched, self.title_hit, self.coverage = score, rid, raw, matched, title_hit, coverage
        # how many terms the question counts as, its known words whole and without seams
        self.of = of
        self.held = held
        # the coverage a message that asks for work is held to (`search.Scorer.unheld`)
        self.strict = coverage if strict is None else strict
        self._record: dict[str, Any] | None = None

    @property
    def record(self) -> dict[str, Any]:
        if self._record is None:
            self._record = json.loads(self.raw)
        return self._record


# Asking for many terms matches (and ranks) most of a layer of similar notes; no more are asked for.
LOOKALIKE_TERMS = 8


def _telling(conn: _Conn, terms: list[str], total: int, at_least: float) -> list[str]:
    """The fewest, rarest of `terms` that every look-alike holds at least one of. A text whose
    overlap (Jaccard) with ours reaches `at_least` lacks at most (1 - at_least) x `total` of our
    terms, and the terms no note holds are among those it lacks: one of the next rarest
    `spare + 1` must be in it. None when no note can reach `at_least` at all."""
    spare = math.floor((1 - at_least) * total + 1e-9)
    marks = ",".join("?" * len(terms))
    df = dict(conn.db.execute(f"SELECT term, doc FROM terms WHERE term IN ({marks})", terms).fetchall())
    present = sorted((t for t in terms if df.get(t)), key=lambda t: (df[t], t))
    need = spare - (len(terms) - len(present)) + 1
    return present[:min(need, LOOKALIKE_TERMS)] if need > 0 else []


def lookalike_ids(ref: Any, title: str, body: str, topic: str | None, *, title_at: float, body_at: float) -> set[str]:
    """Records that could be the same as a proposed one: same topic slot, same title, or a title
    or body that can reach the look-alike overlap (`title_at`, `body_at`); the best BM25 matches
    of the terms one of which such a record must hold (similarity is then measured on these alone)."""
    conn = current(ref)
    ids = {r[0] for r in conn.db.execute("SELECT id FROM records WHERE title_key=?", (title.strip().casefold(),))}
    if topic:
        ids |= {r[0] for r in conn.db.execute("SELECT id FROM records WHERE topic=?", (topic,))}
    for column, text, at_least, limit in (("title", title, title_at, 24), ("body", body, body_at, 12)):
        every = query_terms(text)
        terms = _telling(conn, every[:100], len(every), at_least) if every else []
        if terms:
            ids |= {r[0] for r in conn.db.execute(
                "SELECT records.id FROM (SELECT rowid AS n FROM fts WHERE fts MATCH ? ORDER BY rank LIMIT ?) AS page JOIN records ON records.n = page.n",
                (fts_query(terms, column), limit))}
    return ids


def topic_members(ref: Any) -> list[dict[str, Any]]:
    """Active records that hold a topic slot."""
    # `+status`: the slot holders come from the topic index; the status one would read every live note.
    rows = current(ref).db.execute("SELECT json FROM records WHERE topic IS NOT NULL AND +status='active'").fetchall()
    return [json.loads(r[0]) for r in rows]


def conflicts(ref: Any) -> list[dict[str, Any]]:
    """The layer's conflicts queue as of the indexed generation."""
    raw = current(ref).meta("conflicts")
    return json.loads(raw) if raw else []


def registered(ref: Any, key: str, value: str) -> bool:
    """Whether an active record has the condition `key = value` (case-insensitive)."""
    needle = f"\n{key}={value.strip().lower()}\n"
    row = current(ref).db.execute("SELECT 1 FROM records WHERE +status='active' AND instr(conds, ?) > 0 LIMIT 1", (needle,)).fetchone()
    return row is not None


def archived_stub(ref: Any, rid: str) -> dict[str, Any] | None:
    """What the archive index remembers of an archived record (its cold file may be damaged or lost)."""
    row = current(ref).db.execute("SELECT json FROM archive WHERE id=?", (rid,)).fetchone()
    return json.loads(row[0]) if row else None


def archived(ref: Any) -> list[dict[str, Any]]:
    """Stubs of the layer's archived records (no bodies), most recently archived first."""
    rows = current(ref).db.execute("SELECT json FROM archive ORDER BY updated DESC, id").fetchall()
    return [json.loads(r[0]) for r in rows]


UNKNOWN = object()


def verdict(ref: Any, key: str) -> Any:
    """The safety scan's verdict on a card text (None: safe, a string: why not), or `UNKNOWN`."""
    with contextlib.suppress(sqlite3.Error, OSError):
        row = _connect(ref.dir).db.execute("SELECT unsafe FROM verdicts WHERE key=?", (key,)).fetchone()
        if row:
            return row[0]
    return UNKNOWN


def set_verdict(ref: Any, key: str, rid: str, unsafe: str | None) -> None:
    """Bookkeeping like the read counts: derived, kept across index rebuilds, never fails a call."""
    with contextlib.suppress(sqlite3.Error, OSError):
        _connect(ref.dir).db.execute("INSERT OR REPLACE INTO verdicts(key, id, unsafe) VALUES (?, ?, ?)", (key, rid, unsafe))


def unsafe_cards(ref: Any) -> list[tuple[str, str, str]]:
    """(card key, record id, why) of cards recall kept out because they failed the safety scan."""
    with contextlib.suppress(sqlite3.Error, OSError):
        rows = _connect(ref.dir).db.execute("SELECT key, id, unsafe FROM verdicts WHERE unsafe IS NOT NULL ORDER BY id")
        return [(r[0], r[1], r[2]) for r in rows]
    return []


def touch(ref: Any, rid: str, when: str) -> None:
    """Count a read. Bookkeeping only: never fails the read, never publishes a generation."""
    with contextlib.suppress(sqlite3.Error, OSError):
        _connect(ref.dir).db.execute(
            "INSERT INTO reads(id, last_read, count) VALUES (?, ?, 1) "
            "ON CONFLICT(id) DO UPDATE SET last_read=excluded.last_read, count=count+1", (rid, when))


def last_reads(ref: Any) -> dict[str, str]:
    """Last-read times by record id, as far as the bookkeeping knows."""
    with contextlib.suppress(sqlite3.Error, OSError):
        return {r[0]: r[1] for r in _connect(ref.dir).db.execute("SELECT id, last_read FROM reads")}
    return {}


def read_counts(ref: Any, rid: str) -> tuple[str | None, int]:
    """(last read, read count) of one record."""
    with contextlib.suppress(sqlite3.Error, OSError):
        row = _connect(ref.dir).db.execute("SELECT last_read, count FROM reads WHERE id=?", (rid,)).fetchone()
        if row:
            return row[0], int(row[1])
    return None, 0
