"""The optional semantic tier (issue 15): a static embedding model, vectors per note, nearest notes.

A model2vec model (a tokenizer and one vector per token; a text's vector is the mean of its
tokens' vectors) is installed once into `<home>/models/<name>/` by `lingshu semantic install`,
which needs the `semantic` extra (model2vec) and, for a hub name, the network that one time.
After that nothing here touches the network, and nothing here imports model2vec or NumPy: the
recall hook starts a new process per message, and NumPy alone takes longer to import than a whole
lexical recall. The model file is memory-mapped and only the rows of the message's tokens are
read; `tests/core/test_semantic.py` holds this encoder to model2vec's own `encode`.

Vectors live in a sidecar per layer, `<layer>/vectors.sqlite`, keyed by record id, revision and
model. It is derived data like the search index: written after each publish by the writer (under
the layer lock), rebuilt by `lingshu doctor --reindex` or a model change, never trusted for
anything but ranking (a vector of an older revision is ignored, and every note found through it
still passes the gate).
"""

from __future__ import annotations

import array
import contextlib
import json
import math
import operator
import os
import sqlite3
import struct
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from .durable import PRIVATE_FILE, encode, private_dirs, read_json, write_atomic

DEFAULT_MODEL = "minishlab/potion-multilingual-128M"
ACTIVE = "semantic.json"
MANIFEST = "lingshu.json"
SIDECAR = "vectors.sqlite"
SIDECAR_SCHEMA = 2
# How near a note must be for recall to bring it on its meaning alone, and for search to list it.
# Cosine values depend on the model: these were calibrated on the dev set with a static model
# distilled from all-MiniLM-L6-v2 (docs/BENCH.md); a model's manifest or the settings can say otherwise.
RECALL_SIMILARITY = 0.7
SEARCH_SIMILARITY = 0.5
# The recall hook gives the tier this share of its deadline (model load, the message's vector, the
# nearest notes: 60 ms of the default 150); past it, recall answers from the lexical tier alone and says so.
HOOK_SHARE = 0.4
NEAREST = 24
_DTYPES = {"F32": ("f", 4), "F16": ("e", 2), "F64": ("d", 8), "I64": ("q", 8), "I32": ("i", 4)}


class Unavailable(Exception):
    """The tier cannot answer now; the message says why and what to do."""


def models_dir(home: Path) -> Path:
    return home / "models"


_active: dict[Path, tuple[tuple[int, int], dict[str, Any]]] = {}


def active(home: Path) -> dict[str, Any] | None:
    """The installed model in use (its manifest, with `dir`), or None when the tier is off. Read
    again only when `semantic.json` changes (a long-lived process asks on every search)."""
    path = home / ACTIVE
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as err:
        raise Unavailable(f"{path} is unreadable ({err}); run `lingshu semantic install` again") from err
    held = _active.get(home)
    if held is not None and held[0] == (st.st_mtime_ns, st.st_ino):
        return held[1]
    info = _read_active(home, path)
    _active[home] = ((st.st_mtime_ns, st.st_ino), info)
    return info


def _read_active(home: Path, path: Path) -> dict[str, Any]:
    try:
        chosen = read_json(path)
    except FileNotFoundError as err:
        raise Unavailable(f"{path} went away while it was read; try again") from err
    except (OSError, ValueError) as err:
        raise Unavailable(f"{path} is unreadable ({err}); run `lingshu semantic install` again") from err
    name = chosen.get("model") if isinstance(chosen, dict) else None
    if not isinstance(name, str) or not name or "/" in name or name.startswith("."):
        raise Unavailable(f"{path} names no installed model; run `lingshu semantic install` again")
    folder = models_dir(home) / name
    try:
        manifest = read_json(folder / MANIFEST)
    except (OSError, ValueError) as err:
        raise Unavailable(f"the model {name} is missing or damaged ({folder}); run `lingshu semantic install` again") from err
    return {**manifest, "name": name, "dir": str(folder)}


# ---------------------------------------------------------------- the model


class Model:
    """A model2vec model read the cheap way: the tokenizer, and the token vectors memory-mapped."""

    def __init__(self, folder: Path, manifest: dict[str, Any]) -> None:
        import mmap  # only with a model installed: the hook without one never pays for it

        try:
            from tokenizers import Tokenizer  # Rust, ~10 ms to import: the one dependency of this path
        except ImportError as err:
            raise Unavailable("the semantic extra is not installed: pip install 'lingshu[semantic]'") from err
        try:
            self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
            with open(folder / "model.safetensors", "rb") as fh:
                size = int.from_bytes(fh.read(8), "little")
                header = json.loads(fh.read(size))
                self._map = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        except Exception as err:  # noqa: BLE001 - tokenizers raises a bare Exception for a bad file
            raise Unavailable(f"the model in {folder} cannot be read ({type(err).__name__}: {err}); "
                              "run `lingshu semantic install` again") from err
        self._base = 8 + size
        self.rows, self.dim, self._emb = self._tensor(header, "embeddings", 2)
        self._weights = self._tensor(header, "weights", 1) if "weights" in header else None
        self._mapping = self._tensor(header, "mapping", 1) if "mapping" in header else None
        self.unk = manifest.get("unkTokenId")
        self.normalize = bool(manifest.get("normalize", True))
        self.max_length = manifest.get("maxLength")
        self.median = int(manifest.get("medianTokenLength") or 1)
        if self.max_length:
            self.tokenizer.enable_truncation(int(self.max_length))
        if manifest.get("dim") not in (None, self.dim):
            raise Unavailable(f"the model in {folder} does not match its manifest; run `lingshu semantic install` again")

    def _tensor(self, header: dict[str, Any], name: str, ndim: int) -> Any:
        info = header.get(name)
        if not isinstance(info, dict) or info.get("dtype") not in _DTYPES or len(info.get("shape", ())) != ndim:
            raise Unavailable(f"the model's {name} tensor is missing or of a kind Lingshu does not read")
        code, width = _DTYPES[info["dtype"]]
        start, end = info["data_offsets"]
        shape = info["shape"]
        if end - start != width * math.prod(shape) or self._base + end > len(self._map):
            raise Unavailable(f"the model file is cut short ({name}); run `lingshu semantic install` again")
        return (shape[0], shape[1], (self._base + start, code, width)) if ndim == 2 else (self._base + start, code, width)

    def _values(self, where: tuple[int, str, int], at: int, count: int) -> tuple[float, ...]:
        """`count` values from element `at` of a tensor (row r of a matrix starts at r * dim)."""
        start, code, width = where
        try:
            return struct.unpack_from(f"<{count}{code}", self._map, start + at * width)
        except struct.error as err:  # a token id past the file's end: files from different models
            raise Unavailable("the model's tokenizer and vectors do not match; run `lingshu semantic install` again") from err

    def encode(self, text: str) -> list[float] | None:
        """The text's vector, as model2vec computes it (mean of its known tokens' vectors, then
        scaled to length 1 when the model says so); None when no token is known."""
        if self.max_length:
            text = text[: int(self.max_length) * self.median]  # model2vec's cut before tokenizing
        ids = [i for i in self.tokenizer.encode(text, add_special_tokens=False).ids if i != self.unk]
        if not ids:
            return None
        total = [0.0] * self.dim
        for token in ids:
            row = int(self._values(self._mapping, token, 1)[0]) if self._mapping else token
            if not 0 <= row < self.rows:
                raise Unavailable("the model's tokenizer and vectors do not match; run `lingshu semantic install` again")
            vec = self._values(self._emb, row * self.dim, self.dim)
            if self._weights:
                weight = self._values(self._weights, token, 1)[0]
                vec = tuple(weight * b for b in vec)
            total = list(map(operator.add, total, vec))
        mean = [v / len(ids) for v in total]
        if not self.normalize:
            return mean
        norm = math.sqrt(sum(v * v for v in mean)) + 1e-32
        return [v / norm for v in mean]


_models: dict[tuple[str, float], Model] = {}


def load(info: dict[str, Any]) -> Model:
    """The model this process has open (opened once; a reinstalled model is opened again)."""
    folder = Path(info["dir"])
    try:
        key = (str(folder), os.stat(folder / MANIFEST).st_mtime)
    except OSError as err:
        raise Unavailable(f"the model {info['name']} is missing ({folder}); run `lingshu semantic install` again") from err
    model = _models.get(key)
    if model is None:
        _models.clear()
        model = _models[key] = Model(folder, info)
    return model


def _loaded(info: dict[str, Any]) -> bool:
    return any(key[0] == info["dir"] for key in _models)


def note_text(rec: dict[str, Any]) -> str:
    """What a note's vector is made of: the whole note, as recall ranks it (the card shows what fits)."""
    return "\n".join(str(rec.get(k) or "") for k in ("title", "when", "summary", "body") if rec.get(k))


def _pack(vec: list[float]) -> bytes:
    out = array.array("f", vec)
    if sys.byteorder != "little":
        out.byteswap()
    return out.tobytes()


# ---------------------------------------------------------------- the sidecar

_local = threading.local()


def _db(layer_dir: Path) -> sqlite3.Connection:
    conns: dict[Path, sqlite3.Connection] = getattr(_local, "conns", None) or {}
    _local.conns = conns
    path = layer_dir / SIDECAR
    db = conns.get(path)
    if db is None:
        private_dirs(layer_dir)
        db = sqlite3.connect(str(path), timeout=2.0, isolation_level=None)
        with contextlib.suppress(OSError):
            os.chmod(path, PRIVATE_FILE)
        db.execute("PRAGMA synchronous=OFF")  # derived: rebuilt when lost
        db.execute("PRAGMA journal_mode=WAL")
        if db.execute("PRAGMA user_version").fetchone()[0] != SIDECAR_SCHEMA:
            # Another layout (an older Lingshu): derived data, so start it again; status counts the gap.
            db.executescript(f"DROP TABLE IF EXISTS vectors; PRAGMA user_version={SIDECAR_SCHEMA};")
        db.execute("CREATE TABLE IF NOT EXISTS vectors(id TEXT PRIMARY KEY, revision INTEGER, model TEXT, dim INTEGER, vec BLOB, bits BLOB)")
        conns[path] = db
    return db


def forget_connections() -> None:
    for db in (getattr(_local, "conns", None) or {}).values():
        with contextlib.suppress(sqlite3.Error):
            db.close()
    _local.conns = {}
    _layers.clear()


def _put(db: sqlite3.Connection, model: Model, name: str, recs: list[dict[str, Any]]) -> int:
    rows = []
    for rec in recs:
        vec = model.encode(note_text(rec))
        if vec is not None:
            rows.append((rec["id"], int(rec.get("revision", 1)), name, model.dim, _pack(vec), _bits(vec).to_bytes((model.dim + 7) // 8, "little")))
    db.executemany("INSERT OR REPLACE INTO vectors(id, revision, model, dim, vec, bits) VALUES (?,?,?,?,?,?)", rows)
    return len(rows)


def ready(home: Path) -> None:
    """Open the model in use before a writer takes its layer lock (a large tokenizer takes a second
    or more to load; no other writer should wait for that). Nothing when the tier is off."""
    with contextlib.suppress(Unavailable):
        info = active(home)
        if info is not None:
            load(info)


def apply(ref: Any, base: dict[str, Any], new: dict[str, Any]) -> None:
    """After a publish, under the layer lock: vectors for the active records that changed, none
    for those that left. Never fails the write: a note without its vector is still found by its
    words, and `lingshu semantic status` counts it."""
    try:
        info = active(ref.home)
    except Unavailable:
        return
    if info is None:
        return
    old, cur = base["records"], new["records"]
    changed = [rid for rid in old.keys() | cur.keys() if old.get(rid) is not cur.get(rid)]
    if not changed:
        return
    with contextlib.suppress(Unavailable, sqlite3.Error, OSError):
        model = load(info)
        db = _db(ref.dir)
        db.execute("BEGIN IMMEDIATE")
        try:
            db.executemany("DELETE FROM vectors WHERE id=?", ((rid,) for rid in changed))
            _put(db, model, info["name"], [cur[rid] for rid in changed if rid in cur and cur[rid].get("status", "active") == "active"])
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")


def rebuild(ref: Any, records: list[dict[str, Any]], info: dict[str, Any]) -> int:
    """All vectors of a layer again, for its active records (a new model, or `doctor --reindex`)."""
    model = load(info)
    db = _db(ref.dir)
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("DELETE FROM vectors")
        n = _put(db, model, info["name"], [r for r in records if r.get("status", "active") == "active"])
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    _layers.clear()
    return n


def counts(ref: Any, records: dict[str, dict[str, Any]], name: str) -> tuple[int, int]:
    """(current vectors, active records without one) of a layer, for `lingshu semantic status`."""
    try:
        held = {r[0]: r[1] for r in _db(ref.dir).execute("SELECT id, revision FROM vectors WHERE model=?", (name,))}
    except sqlite3.Error:
        held = {}
    live = [r for r in records.values() if r.get("status", "active") == "active"]
    fresh = sum(1 for r in live if held.get(r["id"]) == int(r.get("revision", 1)))
    return fresh, len(live) - fresh


# ---------------------------------------------------------------- nearest notes

# Finding the nearest of 2,000 notes by exact cosine in pure Python takes ~40 ms (NumPy would take
# longer to import than that). So each vector is also kept as its signs, one bit per dimension
# (binary quantization): the bits of every note are compared with the message's by XOR and a bit
# count, which costs well under a microsecond per note, and only the closest by bits (RESCORE per
# note asked for, at least RESCORE_MIN) are then scored exactly by cosine from their float vectors.
RESCORE = 4
RESCORE_MIN = 32


def _bits(vec: list[float]) -> int:
    out = 0
    for i, value in enumerate(vec):
        if value > 0:
            out |= 1 << i
    return out


class _Layer:
    """One layer's vectors as this process last read them: every note's bits, and the float
    vectors of the notes it had to score (read from the sidecar when first needed)."""

    def __init__(self, key: tuple[str, int], ids: list[str], revisions: list[int], bits: list[int]) -> None:
        self.key, self.ids, self.revisions, self.bits = key, ids, revisions, bits
        self.floats: dict[str, list[float]] = {}


_layers: dict[Path, _Layer] = {}


def _load_layer(ref: Any, name: str) -> _Layer:
    db = _db(ref.dir)
    version = db.execute("PRAGMA data_version").fetchone()[0]
    held = _layers.get(ref.dir)
    if held is not None and held.key == (name, version):
        return held
    ids, revisions, bits = [], [], []
    for rid, revision, packed in db.execute("SELECT id, revision, bits FROM vectors WHERE model=?", (name,)):
        ids.append(rid)
        revisions.append(revision)
        bits.append(int.from_bytes(packed, "little"))
    layer = _layers[ref.dir] = _Layer((name, version), ids, revisions, bits)
    return layer


def _floats(ref: Any, layer: _Layer, wanted: set[str]) -> None:
    missing = [rid for rid in wanted if rid not in layer.floats]
    if not missing:
        return
    db = _db(ref.dir)
    marks = ",".join("?" * len(missing))
    for rid, blob in db.execute(f"SELECT id, vec FROM vectors WHERE id IN ({marks})", missing):
        vec = array.array("f")
        vec.frombytes(blob)
        if sys.byteorder != "little":
            vec.byteswap()
        layer.floats[rid] = vec.tolist()


# Reciprocal rank fusion (Cormack et al., 2009): each tier's rank counts, not its raw score, so
# BM25 and cosine values need no common scale.
RRF_K = 60


def fuse(*rankings: list[str]) -> dict[str, float]:
    """Fused scores of ids from rankings given best first."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking, 1):
            scores[key] = scores.get(key, 0.0) + 1 / (RRF_K + rank)
    return scores


class Query:
    """One message's vector and the nearest notes of each layer, or why there are none."""

    def __init__(self, home: Path, message: str, *, budget_ms: float | None = None) -> None:
        started = time.monotonic()
        self.vector: list[float] | None = None
        self.why: str | None = None  # why the tier was not used (None: used, or not installed)
        self.info: dict[str, Any] | None = None
        self.budget_ms = budget_ms
        self._started = started
        try:
            self.info = active(home)
            if self.info is None:
                return
            cost = self.info.get("loadMs")
            if budget_ms is not None and isinstance(cost, (int, float)) and cost > budget_ms and not _loaded(self.info):
                self.why = (f"the model takes {cost:.0f} ms to load, over the {budget_ms:.0f} ms the hook gives the semantic tier "
                            "(search through the MCP server, which loads it once, still uses it)")
                return
            model = load(self.info)
            self.vector = model.encode(message)
        except Unavailable as err:
            self.why = str(err)
            return
        self._check_time("loading the model")

    @property
    def used(self) -> bool:
        return self.vector is not None and self.why is None

    def _check_time(self, doing: str) -> None:
        if self.budget_ms is not None and self.why is None:
            spent = (time.monotonic() - self._started) * 1000
            if spent > self.budget_ms:
                self.why = f"{doing} took {spent:.0f} ms, over the {self.budget_ms:.0f} ms the hook gives the semantic tier"

    def threshold(self, key: str, default: float) -> float:
        value = (self.info or {}).get(key)
        return float(value) if isinstance(value, (int, float)) else default

    def nearest(self, ref: Any, *, limit: int = NEAREST, floor: float = 0.0) -> list[tuple[float, str, int]]:
        """(similarity, record id, revision) of the nearest notes of a layer, best first."""
        if not self.used or self.info is None or self.vector is None:
            return []
        try:
            layer = _load_layer(ref, self.info["name"])
            query_bits = _bits(self.vector)
            rows: Any = range(len(layer.ids))
            shortlist_size = max(RESCORE_MIN, RESCORE * limit)
            if len(layer.ids) > shortlist_size:
                apart = [(query_bits ^ bits).bit_count() for bits in layer.bits]
                # The distances are small whole numbers: the cut-off is found by counting, not sorting.
                counts = Counter(apart)
                taken, cutoff = 0, 0
                for cutoff in sorted(counts):
                    taken += counts[cutoff]
                    if taken >= shortlist_size:
                        break
                rows = [i for i, d in enumerate(apart) if d <= cutoff]
            shortlist = {layer.ids[i]: layer.revisions[i] for i in rows}
            _floats(ref, layer, set(shortlist))
        except (sqlite3.Error, OSError) as err:  # a read-only or damaged home: words alone, said so
            self.why = f"the vectors of the {ref.label} cannot be read ({err}); run `lingshu doctor --reindex`"
            return []
        ranked = []
        for rid, revision in shortlist.items():
            vec = layer.floats.get(rid)
            sim = sum(map(operator.mul, self.vector, vec)) if vec else -1.0
            if sim >= floor:
                ranked.append((sim, rid, revision))
        self._check_time("finding the nearest notes")
        if self.why is not None:
            return []
        ranked.sort(key=lambda t: (-t[0], t[1]))
        return ranked[:limit]


# ---------------------------------------------------------------- install, reindex, status


def _slug(source: str) -> str:
    name = source.rstrip("/\\").replace("\\", "/").rsplit("/", 1)[-1]
    clean = "".join(c if c.isalnum() or c in "-_." else "-" for c in name).strip(".-")
    return clean or "model"


def install(home: Path, source: str, progress: Any = None, similarity: float | None = None) -> dict[str, Any]:
    """Bring a model into the home (a hub name, once over the network, or a local folder), check
    that Lingshu's reader gives model2vec's own vectors, make it the model in use and compute the
    vectors of every layer. Returns the manifest."""
    say = progress or (lambda _text: None)
    try:
        from model2vec import StaticModel
    except ImportError as err:
        raise Unavailable("installing a model needs the semantic extra: pip install 'lingshu[semantic]'") from err
    local = Path(source).expanduser()
    say(f"loading {source}" + ("" if local.exists() else " (downloading it once)") + " …")
    try:
        model = StaticModel.from_pretrained(str(local) if local.exists() else source)
    except Exception as err:  # noqa: BLE001 - the hub and model2vec raise many kinds; all mean "not installed"
        hint = ("it is not a model2vec model (config.json, model.safetensors, tokenizer.json)" if local.exists() else
                "check the name and the network, or download it elsewhere and pass its folder")
        raise Unavailable(f"could not load {source}: {type(err).__name__}: {str(err).rstrip('. ')}. Nothing was changed; {hint}.") from err
    name = _slug(source)
    folder = models_dir(home) / name
    staging = models_dir(home) / f".{name}.{os.getpid()}.tmp"
    private_dirs(models_dir(home))
    import shutil

    shutil.rmtree(staging, ignore_errors=True)
    model.save_pretrained(str(staging))
    manifest = {
        "source": source, "dim": int(model.dim), "vocabulary": len(model.tokens),
        "unkTokenId": model.unk_token_id, "normalize": bool(model.normalize), "maxLength": model.max_length,
        "medianTokenLength": int(model.median_token_length), "installed": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    if similarity is not None:
        manifest["recallSimilarity"] = similarity
    write_atomic(staging / MANIFEST, encode(manifest))
    probe = "Deploy the staging server after the database migration. 部署之前先跑迁移。"
    theirs = [float(v) for v in model.encode([probe])[0]]
    started = time.monotonic()
    reader = Model(staging, manifest)
    # What loading costs decides whether the prompt hook can use the model at all (Query).
    manifest["loadMs"] = round((time.monotonic() - started) * 1000, 1)
    write_atomic(staging / MANIFEST, encode(manifest))
    ours = reader.encode(probe) or []
    if len(ours) != len(theirs) or sum(a * b for a, b in zip(ours, theirs)) < 0.999 * math.sqrt(
            sum(a * a for a in ours) * sum(b * b for b in theirs)):
        shutil.rmtree(staging, ignore_errors=True)
        raise Unavailable(f"{source} is a kind of model2vec model Lingshu cannot read the fast way; nothing was changed")
    old = models_dir(home) / f".{name}.{os.getpid()}.old"
    if folder.exists():
        os.replace(folder, old)
    os.replace(staging, folder)
    shutil.rmtree(old, ignore_errors=True)
    choose(home, name)
    _models.clear()
    reindex(home, say)
    return {**manifest, "name": name}


def reindex(home: Path, progress: Any = None) -> int:
    """Compute the vectors of every layer under the home again, each under its layer's lock."""
    from .doctor import all_layers
    from .durable import locked
    from .store import load as load_layer

    info = active(home)
    if info is None:
        return 0
    say = progress or (lambda _text: None)
    total = 0
    for ref in all_layers(home):
        if not ref.state_path.exists():
            continue
        with locked(ref.dir / ".lock", what=f"the {ref.label}"):
            records = list(load_layer(ref)["records"].values())
            n = rebuild(ref, records, info)
        total += n
        say(f"{ref.label}: {n} vectors")
    return total


def status(home: Path) -> dict[str, Any]:
    """Which model, how many vectors per layer, and how many active notes have none (stale)."""
    from .doctor import all_layers
    from .store import load as load_layer

    installed = sorted(p.name for p in models_dir(home).iterdir() if p.is_dir() and not p.name.startswith(".")) \
        if models_dir(home).is_dir() else []
    out: dict[str, Any] = {"model": None, "installed": installed, "layers": []}
    try:
        info = active(home)
    except Unavailable as err:
        return {**out, "problem": str(err)}
    if info is None:
        return out
    out["model"] = {k: info.get(k) for k in ("name", "source", "dim", "vocabulary", "installed")}
    started = time.monotonic()
    try:
        load(info)
        out["loadMs"] = round((time.monotonic() - started) * 1000, 1)
    except Unavailable as err:
        out["problem"] = str(err)
    for ref in all_layers(home):
        if ref.state_path.exists():
            fresh, stale = counts(ref, load_layer(ref)["records"], info["name"])
            out["layers"].append({"layer": ref.label, "vectors": fresh, "stale": stale})
    return out


def choose(home: Path, name: str | None) -> None:
    """Make an installed model the one in use (None: switch the tier off; models stay on disk)."""
    path = home / ACTIVE
    if name is None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        return
    write_atomic(path, encode({"model": name}))
