"""The layered durable store: one JSON file per layer, published atomically under an OS lock.

Every write runs through `transact`: lock -> finish any interrupted intent -> re-read the layer ->
apply the change -> check limits -> write cold files -> publish -> drop cold files. A change that
touches cold files writes an intent first, so a crash at any step is rolled forward or back by the
next open (SPEC §3.2). Readers never lock: an atomic rename means they always see a whole file.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from .durable import (
    canonical,
    checksum_holds,
    encode,
    fsync_dir,
    inside,
    large_sha256,
    locked,
    read_json,
    refuse_outside_links,
    sealed_bytes_hold,
    small_sha256,
    sweep_temps,
    with_checksum,
    write_atomic,
    write_in_place,
    write_failed,
)
from .errors import ColdBodyError, InvalidInput, LayerBroken, StoreWriteFailed

FORMAT = "lingshu-layer/1"
STATE = "state.json"
PREV = "state.prev.json"
INTENT = "intent.json"
RECOVERED = "recovered.json"
QUARANTINE = "quarantine"
# Records of a parsed file that fail the record check, held beside the live records until the
# next writer moves them to the layer's quarantine folder. Never written into a layer file.
ASIDE = "_setAside"
# Set on a parsed file that still holds archived stubs or purge tombstones (files of earlier
# versions): only then does the next writer walk the records to move them out. Never written.
LEGACY = "_legacy"

SOFT_ACTIVE = 200
HARD_ACTIVE = 1000
BODY_BYTES = 4096
LAYER_BODY_BYTES = 1024 * 1024
STATE_BYTES = 2 * 1024 * 1024

T = TypeVar("T")


class LayerRef(NamedTuple):
    """Which layer, and where its files are."""

    kind: str  # "project" or "global"
    dir: Path
    project_id: str | None = None

    @property
    def state_path(self) -> Path:
        return self.dir / STATE

    @property
    def prev_path(self) -> Path:
        return self.dir / PREV

    @property
    def cold_dir(self) -> Path:
        return self.dir / "cold"

    @property
    def home(self) -> Path:
        return self.dir.parent if self.kind == "global" else self.dir.parent.parent

    @property
    def label(self) -> str:
        return "global layer" if self.kind == "global" else f"project layer ({self.project_id})"


def confine(ref: LayerRef) -> None:
    """The layer's folder and files stay inside the home: a link out of it is refused, not followed."""
    if ref.dir.exists() and not inside(ref.dir, ref.home):
        raise StoreWriteFailed(
            f"The {ref.label} folder {ref.dir} leads outside the Lingshu home {ref.home} (through a symbolic link). "
            "Lingshu does not follow it and changed nothing. Replace the link with a plain folder, then retry."
        )
    refuse_outside_links((ref.dir, ref.state_path, ref.prev_path, ref.dir / INTENT, ref.cold_dir, ref.dir / RECOVERED,
                          ref.dir / "index.sqlite", ref.dir / "vectors.sqlite", ref.dir / ".lock", ref.dir / QUARANTINE), ref.home)


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def iso(ts: datetime) -> str:
    return ts.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def empty_layer(ref: LayerRef) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "layer": ref.kind,
        "projectId": ref.project_id,
        "generation": 0,
        "records": {},
        "conflicts": [],
        "suggestions": [],
    }


def _well_formed(obj: Any, raw: bytes) -> bool:
    if not isinstance(obj, dict) or not isinstance(obj.get("generation"), int) or not isinstance(obj.get("records"), dict):
        return False
    # The byte check is conclusive only when it holds: a file in another key order (written by
    # hand or another tool) gets the full check over its parsed content.
    return sealed_bytes_hold(raw) is True or checksum_holds(obj)


def _normalise(obj: dict[str, Any]) -> dict[str, Any]:
    """Older files without the queue fields read as empty (SPEC §8). A record that fails the record
    check is set aside, so one bad record (a hand edit, another tool) never bricks the layer."""
    from .records import record_problem

    if not isinstance(obj.get("conflicts"), list):
        obj["conflicts"] = []
    if not isinstance(obj.get("suggestions"), list):
        obj["suggestions"] = []
    aside = {}
    for rid, rec in obj["records"].items():
        problem = record_problem(rec, rid, scan_text=False)
        if problem:
            aside[rid] = {"record": rec, "problem": problem}
        elif rec.get("status") in ("archived", "purged"):
            obj[LEGACY] = True
    if aside:
        obj["records"] = {rid: rec for rid, rec in obj["records"].items() if rid not in aside}
        obj[ASIDE] = aside
    return obj


def _parse(raw: bytes) -> dict[str, Any] | None:
    try:
        obj = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    return _normalise(obj) if _well_formed(obj, raw) else None


# Readers keep the last parse of each layer, keyed by the file's identity. A publish always
# renames a new file into place, so any change by any process changes the key: never stale.
_cache: dict[Path, tuple[tuple[int, int, int], dict[str, Any]]] = {}


def forget_parsed() -> None:
    """Drop every layer's kept parse: the next read parses the file again, as a new process would."""
    _cache.clear()


def file_key(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def load(ref: LayerRef) -> dict[str, Any]:
    """The layer's current generation, recovering it first if needed. Treat the result as read-only.

    Readers take no lock while `state.json` is a valid generation, even with a cold-file change in
    flight (`intent.json`): the published file is whole either way, and finishing the change is the
    next writer's job. Only a missing or damaged file is recovered under the lock."""
    key = file_key(ref.state_path)
    if key is None:
        if not ref.prev_path.exists() and not (ref.dir / INTENT).exists() and not _has_history(ref):
            return empty_layer(ref)
        # A writer may have published the first generation between the stat and the history check
        # (which then finds its index): that file is whole, and waiting for the lock would answer busy.
        key = file_key(ref.state_path)
    if key is not None:
        hit = _cache.get(ref.state_path)
        if hit and hit[0] == key:
            return hit[1]
        confine(ref)
        try:
            raw = ref.state_path.read_bytes()
        except OSError:
            raw = b""
        obj = _parse(raw)
        if obj is not None:
            _cache[ref.state_path] = (key, obj)
            return obj
    return recover(ref)


def recover(ref: LayerRef) -> dict[str, Any]:
    """Under the layer's lock: make `state.json` valid and finish an interrupted cold-file change
    (what every writer does first; doctor calls it so a pending change never waits for a write)."""
    confine(ref)
    with locked(ref.dir / ".lock", what=f"the {ref.label}"):
        return _recover(ref)


def quarantine(ref: LayerRef, raw: bytes) -> Path:
    """Keep unreadable bytes as `state.corrupt-<UTC>.json`; identical content is kept once."""
    digest = large_sha256(raw).digest()
    for existing in sorted(ref.dir.glob("state.corrupt-*.json")):
        with contextlib.suppress(OSError):
            if large_sha256(existing.read_bytes()).digest() == digest:
                return existing
    stamp = utc_now().strftime("%Y%m%dT%H%M%S.%fZ")
    target = ref.dir / f"state.corrupt-{stamp}.json"
    write_atomic(target, raw)
    return target


def broken_message(ref: LayerRef) -> str:
    return (
        f"The {ref.label} is unreadable: both {STATE} and {PREV} in {ref.dir} fail their checks "
        "(copies are kept as state.corrupt-*.json). It takes no writes until repaired. "
        "Run `lingshu doctor` for the steps; `lingshu doctor --reset "
        f"{ref.kind}` sets the bad files aside and starts the layer empty."
    )


def _recover(ref: LayerRef) -> dict[str, Any]:
    """Under the lock: make `state.json` a valid generation and finish any interrupted intent."""
    key = file_key(ref.state_path)
    hit = _cache.get(ref.state_path)
    if hit and key is not None and hit[0] == key and not (ref.dir / INTENT).exists():
        return hit[1]  # the file this process last parsed and checked is still the one on disk
    try:
        raw = ref.state_path.read_bytes()
    except FileNotFoundError:
        raw = None
    except OSError as err:
        raise LayerBroken(
            f"The {ref.label} cannot read {ref.state_path} ({err.strerror or err}). Nothing was changed. "
            f"Move that path aside (it must be a plain file), then run `lingshu doctor`."
        ) from None
    obj = _parse(raw) if raw is not None else None
    if obj is None:
        kept = quarantine(ref, raw) if raw is not None else None
        prev_raw = None
        with contextlib.suppress(FileNotFoundError):
            prev_raw = ref.prev_path.read_bytes()
        prev = _parse(prev_raw) if prev_raw is not None else None
        if prev is None:
            if raw is None and prev_raw is None:
                if _has_history(ref):
                    raise LayerBroken(missing_message(ref))
                obj = empty_layer(ref)
            else:
                if prev_raw is not None:
                    quarantine(ref, prev_raw)
                raise LayerBroken(broken_message(ref))
        else:
            assert prev_raw is not None
            write_atomic(ref.state_path, prev_raw)
            obj = prev
            _note_recovery(ref, prev, kept)
    _finish_intent(ref, obj)
    key = file_key(ref.state_path)
    if key is not None:
        _cache[ref.state_path] = (key, obj)
    return obj


def _has_history(ref: LayerRef) -> bool:
    """Whether this layer has published before: its index and cold store outlive a lost file."""
    if (ref.dir / RECOVERED).exists():
        return True
    with contextlib.suppress(OSError):
        if any(ref.cold_dir.iterdir()):
            return True
    if not (ref.dir / "index.sqlite").exists():
        return False
    import sqlite3

    try:
        db = sqlite3.connect(f"file:{ref.dir / 'index.sqlite'}?mode=ro", uri=True)
        try:
            return db.execute("SELECT EXISTS(SELECT 1 FROM records) OR EXISTS(SELECT 1 FROM archive)").fetchone() == (1,)
        finally:
            db.close()
    except sqlite3.Error:
        return False


def missing_message(ref: LayerRef) -> str:
    return (
        f"The {ref.label} has lost its files: {STATE} and {PREV} are both missing from {ref.dir}, "
        "but the layer has history (its index or archived bodies are still there), so it was not started empty. "
        "Restore the two files from a backup, or run `lingshu doctor` for the steps "
        f"(`lingshu doctor --reset {ref.kind}` starts the layer empty)."
    )


def _note_recovery(ref: LayerRef, prev: dict[str, Any], kept: Path | None) -> None:
    """Recovery is never silent: the notice stays until the person acknowledges it (`doctor --ack`)."""
    notice = {
        "at": iso(utc_now()),
        "layer": ref.kind,
        "projectId": ref.project_id,
        "cause": "damaged" if kept else "missing",
        "restoredGeneration": prev["generation"],
        "lostGeneration": prev["generation"] + 1,
        "quarantined": str(kept) if kept else None,
        "told": False,
    }
    write_atomic(ref.dir / RECOVERED, encode(notice))


def recovery_notice(ref: LayerRef) -> dict[str, Any] | None:
    try:
        obj = read_json(ref.dir / RECOVERED)
    except (OSError, ValueError):
        return None
    return obj if isinstance(obj, dict) else None


def recovery_message(ref: LayerRef, notice: dict[str, Any]) -> str:
    why = (f"{STATE} was damaged (the damaged copy is kept at {notice.get('quarantined')})"
           if notice.get("cause") == "damaged" else f"{STATE} was missing")
    return (
        f"The {ref.label} was restored from {PREV} at {notice.get('at')}: {why}. Its newest change "
        f"(generation {notice.get('lostGeneration')}) is lost; generation {notice.get('restoredGeneration')} is in force. "
        "Check that your latest notes are there and save again what is missing, then run `lingshu doctor --ack`."
    )


def acknowledge_recovery(ref: LayerRef) -> bool:
    try:
        os.unlink(ref.dir / RECOVERED)
    except FileNotFoundError:
        return False
    return True


def take_recovery_news(ref: LayerRef) -> str | None:
    """The recovery message once, for the first answer after it (doctor keeps reporting it)."""
    notice = recovery_notice(ref)
    if not notice or notice.get("told"):
        return None
    with contextlib.suppress(OSError):
        write_atomic(ref.dir / RECOVERED, encode({**notice, "told": True}), durable=False)
    return recovery_message(ref, notice)


def _finish_intent(ref: LayerRef, state: dict[str, Any]) -> None:
    """Roll an interrupted cold-file change forward (state published) or back (not published)."""
    path = ref.dir / INTENT
    try:
        intent = read_json(path)
    except FileNotFoundError:
        return
    except (OSError, ValueError):
        intent = None
    sweep_temps(ref.cold_dir)  # a writer killed mid-change may have left half-written cold files
    if isinstance(intent, dict) and isinstance(intent.get("generationBefore"), int):
        published = state["generation"] > intent["generationBefore"]
        drop = intent.get("deleteCold", []) if published else intent.get("createCold", [])
        for rid in drop:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(ref.cold_dir / f"{rid}.json")
    else:
        # An intent that never finished being written: nothing after it ran, so no cold file changed.
        pass
    try:
        os.unlink(path)
        fsync_dir(ref.dir)
    except OSError as err:
        raise write_failed(path, err) from err


class Tx:
    """What one transaction does besides changing the layer's live records: cold files to write or
    drop. Records are copied before they change (`edit`), so the published generation, which
    readers in this process share, is never modified in place."""

    def __init__(self, ref: LayerRef) -> None:
        self.ref = ref
        self.put_cold: dict[str, dict[str, Any]] = {}
        self.drop_cold: list[str] = []

    def edit(self, state: dict[str, Any], rid: str) -> dict[str, Any]:
        """The record `rid` of `state`, as a copy that may be changed."""
        rec = dict(state["records"][rid])
        state["records"][rid] = rec
        return rec

    def archive(self, state: dict[str, Any], rid: str, reason: str, when: str) -> dict[str, Any]:
        """Move an active record out of the layer file into the cold store (SPEC §3.5): its body
        and earlier versions with it. Returns the archived record without its body."""
        rec = dict(state["records"].pop(rid))
        body, versions = rec.pop("body", ""), rec.pop("versions", [])
        rec.update(status="archived", archivedAt=when, archiveReason=reason, revision=int(rec.get("revision", 1)) + 1, updated=when)
        self.put_archived(rec, body, versions)
        return rec

    def put_archived(self, stub: dict[str, Any], body: str, versions: list[dict[str, Any]]) -> None:
        self.put_cold[stub["id"]] = {"body": body, "versions": versions, "record": stub}

    def restore(self, state: dict[str, Any], rid: str) -> dict[str, Any]:
        """Bring an archived record back into the layer file (its cold file goes once published)."""
        stored = read_cold(self.ref, rid)
        rec = dict(stored.get("record") or state["records"][rid])
        rec.update(body=stored["body"], versions=stored["versions"], status="active")
        for key in ("archivedAt", "archiveReason"):
            rec.pop(key, None)
        state["records"][rid] = rec
        self.drop_cold.append(rid)
        return rec

    def purge(self, state: dict[str, Any], rid: str) -> None:
        """Remove a record for good: from the layer file and, if archived, from the cold store."""
        state["records"].pop(rid, None)
        if (self.ref.cold_dir / f"{rid}.json").exists():
            self.drop_cold.append(rid)


def check_limits(ref: LayerRef, state: dict[str, Any], data: bytes, body_bytes: int) -> None:
    if body_bytes > LAYER_BODY_BYTES:
        raise InvalidInput(
            f"The {ref.label} would hold {body_bytes} bytes of bodies, over its 1 MiB limit. Nothing was written. "
            "Archive or shorten records you no longer need, then save again."
        )
    if len(data) > STATE_BYTES:
        raise InvalidInput(
            f"The {ref.label} file would be {len(data)} bytes, over its 2 MiB limit. Nothing was written. "
            "Archive records you no longer need (archived records leave the file), then save again."
        )


# Each record's canonical bytes, kept per layer file while the record object is unchanged: a
# publish encodes only the records a transaction replaced, not the whole layer.
_encoded: dict[Path, dict[str, tuple[dict[str, Any], bytes, int]]] = {}


def _seal_layer(ref: LayerRef, state: dict[str, Any]) -> tuple[bytes, int]:
    """(the file's bytes: its checksum, then the canonical fields it covers; total active body bytes)."""
    old = _encoded.get(ref.state_path, {})
    cache: dict[str, tuple[dict[str, Any], bytes, int]] = {}
    parts = []
    body_bytes = 0
    for rid in sorted(state["records"]):
        rec = state["records"][rid]
        hit = old.get(rid)
        if hit is None or hit[0] is not rec:
            hit = (rec, canonical(rid) + b":" + canonical(rec), len(str(rec.get("body", "")).encode("utf-8")) if rec.get("status") == "active" else 0)
        cache[rid] = hit
        body_bytes += hit[2]
        parts.append(hit[1])
    _encoded[ref.state_path] = cache
    # Put together as pieces and joined once: each copy of a file this size is a fresh ~600 KB
    # of memory to fault in, and the naive concatenations cost 3 ms at 1,000 notes.
    pieces: list[bytes] = []
    for key in sorted(k for k in state if k != "checksum"):
        pieces += [b",", canonical(key), b":"]
        pieces += [b"{", b",".join(parts), b"}"] if key == "records" else [canonical(state[key])]
    pieces[0] = b"{"
    pieces.append(b"}")
    hasher = large_sha256()
    for piece in pieces:
        hasher.update(piece)
    digest = hasher.hexdigest()
    state["checksum"] = "sha256:" + digest
    pieces[0] = b'{"checksum":"sha256:' + digest.encode() + b'",'
    return b"".join(pieces), body_bytes


def _move_to_quarantine(ref: LayerRef, aside: dict[str, dict[str, Any]]) -> None:
    """Keep each set-aside record as `quarantine/<id>.json` before the layer file drops it."""
    for rid, item in aside.items():
        safe = rid if isinstance(rid, str) and rid.isascii() and rid.replace("_", "").isalnum() else small_sha256(repr(rid).encode()).hexdigest()[:16]
        write_atomic(ref.dir / QUARANTINE / f"{safe}.json", encode({**item, "id": rid, "at": iso(utc_now())}))


def quarantined_records(ref: LayerRef) -> list[dict[str, Any]]:
    """Records taken out of the layer because they fail the record check: kept, for a person."""
    out = []
    with contextlib.suppress(OSError):
        for path in sorted((ref.dir / QUARANTINE).glob("*.json")):
            with contextlib.suppress(OSError, ValueError):
                item = read_json(path)
                if isinstance(item, dict):
                    out.append({**item, "path": str(path)})
    return out


def _working_copy(base: dict[str, Any]) -> dict[str, Any]:
    state = dict(base)
    state["records"] = dict(base["records"])
    state["conflicts"] = list(base["conflicts"])
    state["suggestions"] = list(base["suggestions"])
    return state


def _migrate(ref: LayerRef, state: dict[str, Any]) -> None:
    """Files of earlier versions kept archived stubs and purge tombstones in the layer file. Move
    each archived stub into its cold file (which becomes a superset of what it was, so this is
    safe whether or not the publish happens) and drop the tombstones."""
    for rid, rec in list(state["records"].items()):
        if rec.get("status") == "purged":
            del state["records"][rid]
        elif rec.get("status") == "archived":
            try:
                stored = read_cold(ref, rid)
            except ColdBodyError:
                continue  # left in place: doctor reports it, and restore says what is wrong
            if "record" not in stored:
                write_atomic(ref.cold_dir / f"{rid}.json", encode(cold_file(rid, {"body": stored["body"], "versions": stored["versions"], "record": rec})))
            del state["records"][rid]


def transact(ref: LayerRef, change: Callable[[dict[str, Any], Tx], T], *, durable: bool = True, force: bool = False) -> tuple[T, dict[str, Any]]:
    """Apply `change` to a working copy of the layer under its lock and publish the new generation.

    `change` changes the state (records only through `Tx.edit`, `archive`, `restore`, `purge` or
    by putting new dicts in place) and returns a value; raising a `LingshuError` aborts with
    nothing written. Returns that value and the published state. The layer's index follows in the
    same transaction. `durable=False` skips the fsyncs (still atomic). `force` publishes even an
    unchanged layer (after a purge, so `state.prev.json` no longer holds what was purged).
    """
    from . import index, semantic

    confine(ref)
    semantic.ready(ref.home)
    with locked(ref.dir / ".lock", what=f"the {ref.label}"):
        base = _recover(ref)
        sweep_temps(ref.dir)  # under the lock, any temp file here is a killed writer's
        state = _working_copy(base)
        tx = Tx(ref)
        value = change(state, tx)
        if state == base and not tx.put_cold and not tx.drop_cold and ASIDE not in base and not force:
            return value, base  # a gate answered without changing anything: no new generation
        if state.pop(LEGACY, False):
            _migrate(ref, state)
        _move_to_quarantine(ref, state.pop(ASIDE, {}))
        generation_before = base["generation"]
        state["generation"] = generation_before + 1
        state["format"] = FORMAT
        if tx.put_cold or tx.drop_cold:
            state["archiveGeneration"] = int(base.get("archiveGeneration", 0)) + 1
        data, body_bytes = _seal_layer(ref, state)
        check_limits(ref, state, data, body_bytes)
        intent_path = ref.dir / INTENT
        if tx.put_cold or tx.drop_cold:
            if tx.drop_cold:
                # A purge or restore removes cold files: a killed writer's half-written copy goes
                # too. Not on every archive: listing a cold store of 20,000 files costs ~6 ms.
                sweep_temps(ref.cold_dir)
            # Written in place: an intent cut short is read as never written, which is what it is
            # (no cold file is touched before it is durable), so it needs no rename of its own.
            write_in_place(
                intent_path,
                encode({"generationBefore": generation_before, "createCold": sorted(tx.put_cold), "deleteCold": tx.drop_cold}),
            )
            try:
                for rid, payload in tx.put_cold.items():
                    write_atomic(ref.cold_dir / f"{rid}.json", encode(cold_file(rid, payload)), durable=durable)
                write_atomic(ref.state_path, data, keep_prev=ref.prev_path)
            except BaseException:
                _rollback_failed_publish(ref, base)
                raise
            for rid in tx.drop_cold:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(ref.cold_dir / f"{rid}.json")
            with contextlib.suppress(FileNotFoundError):
                os.unlink(intent_path)
        else:
            write_atomic(ref.state_path, data, keep_prev=ref.prev_path, durable=durable)
        key = file_key(ref.state_path)
        if key is not None:
            _cache[ref.state_path] = (key, state)
        index.apply(ref, base, state, {rid: p["record"] for rid, p in tx.put_cold.items()}, tx.drop_cold)
        semantic.apply(ref, base, state)
        return value, state


def _rollback_failed_publish(ref: LayerRef, base: dict[str, Any]) -> None:
    with contextlib.suppress(OSError):
        _finish_intent(ref, base)


def cold_file(rid: str, payload: dict[str, Any]) -> dict[str, Any]:
    return with_checksum({"id": rid, **payload})


def read_cold(ref: LayerRef, rid: str) -> dict[str, Any]:
    """An archived body (and, since the layer file stopped holding archived records, the record
    itself), checked; never an empty body in place of a lost one."""
    confine(ref)
    path = ref.cold_dir / f"{rid}.json"
    try:
        obj = read_json(path)
    except FileNotFoundError:
        raise ColdBodyError(
            "cold_missing",
            f"The archived body of this record is missing ({path}). It cannot be restored from here; "
            "recover the file from a backup, or purge the record.",
        ) from None
    except (OSError, ValueError):
        obj = None
    if not checksum_holds(obj) or obj.get("id") != rid or not isinstance(obj.get("body"), str):
        raise ColdBodyError(
            "cold_corrupt",
            f"The archived body of this record is damaged ({path} fails its checksum). It was not restored; "
            "recover the file from a backup, or purge the record.",
        )
    out = {"body": obj["body"], "versions": obj.get("versions", [])}
    if isinstance(obj.get("record"), dict):
        out["record"] = obj["record"]
    return out


def archived_record(ref: LayerRef, rid: str) -> dict[str, Any] | None:
    """An archived record as the cold store holds it, without its body; None when there is none."""
    path = ref.cold_dir / f"{rid}.json"
    try:
        obj = read_json(path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        obj = None
    if not checksum_holds(obj) or not isinstance(obj.get("record"), dict):
        return None
    return dict(obj["record"])
