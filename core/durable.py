"""Crash-safe files: canonical checksums, atomic publish with fsync, and OS locks (SPEC §3)."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from .errors import Busy, StoreWriteFailed

# Two SHA-256s. OpenSSL's (hashlib) is ~6x faster over a layer file (the CPU's SHA extensions),
# but loading it (hashlib, or secrets through hmac) is ~4 ms, a tenth of the recall hook's own
# time; the hook hashes a few hundred bytes, so short inputs use CPython's built-in one.
try:
    from _sha256 import sha256 as small_sha256  # CPython 3.11
except ImportError:  # pragma: no cover - other Pythons
    try:
        from _sha2 import sha256 as small_sha256  # type: ignore[no-redef]  # CPython 3.12+
    except ImportError:
        from hashlib import sha256 as small_sha256  # type: ignore[no-redef]


def large_sha256(data: bytes = b"") -> Any:
    """SHA-256 for file-sized inputs (see `small_sha256`)."""
    import hashlib

    return hashlib.sha256(data)


def random_hex(size: int) -> str:
    """`size` random bytes as hex, for names and ids (`secrets.token_hex` without its imports)."""
    return os.urandom(size).hex()


LOCK_WAIT_SECONDS = 0.5


def canonical(obj: Any) -> bytes:
    """The bytes a checksum is taken over: sorted keys, no spaces, UTF-8."""
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def checksum_of(obj: dict[str, Any]) -> str:
    """Checksum over every field but `checksum` itself."""
    body = {k: v for k, v in obj.items() if k != "checksum"}
    return "sha256:" + large_sha256(canonical(body)).hexdigest()


def with_checksum(obj: dict[str, Any]) -> dict[str, Any]:
    obj["checksum"] = checksum_of(obj)
    return obj


def checksum_holds(obj: Any) -> bool:
    return isinstance(obj, dict) and obj.get("checksum") == checksum_of(obj)


# Files written by the store are canonical JSON, which puts "checksum" first: the checksum field is
# followed by the very bytes it covers (see `store._seal_layer`).
_HEAD = b'{"checksum":"sha256:'
_HEAD_LEN = len(_HEAD) + 64 + 2  # the digest, the closing quote and the comma


def sealed_bytes_hold(raw: bytes) -> bool | None:
    """For a file written by `sealed`: does its checksum hold? None when the file is not in that
    form (older or hand-written files), so the caller checks the parsed object instead."""
    if not raw.startswith(_HEAD) or len(raw) < _HEAD_LEN or raw[_HEAD_LEN - 2 : _HEAD_LEN] != b'",':
        return None
    digest = raw[len(_HEAD) : len(_HEAD) + 64]
    return large_sha256(b"{" + raw[_HEAD_LEN:]).hexdigest().encode() == digest


def encode(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# The home holds what people told their agents: only its owner reads it.
PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def private_dirs(folder: Path) -> None:
    """Create `folder` and any missing parents as 0700 (Path.mkdir gives parents the default)."""
    if folder.is_dir():
        return
    private_dirs(folder.parent)
    with contextlib.suppress(FileExistsError):
        os.mkdir(folder, PRIVATE_DIR)


def inside(path: Path, root: Path) -> bool:
    real, top = os.path.realpath(path), os.path.realpath(root)
    return real == top or real.startswith(top.rstrip(os.sep) + os.sep)


def refuse_outside_links(paths: Iterable[Path], root: Path) -> None:
    """A file or folder of the home that is a symbolic link leading out of the home is never
    followed: whoever made it could otherwise have Lingshu read or write any file the user can."""
    for path in paths:
        if os.path.islink(path) and not inside(path, root):
            raise StoreWriteFailed(
                f"{path} is a symbolic link to {os.path.realpath(path)}, outside the Lingshu home {root}. "
                "Lingshu does not follow it and changed nothing. Replace it with a plain file or folder (or remove it), then retry."
            )


def write_failed(path: Path, err: OSError) -> StoreWriteFailed:
    reason = err.strerror or str(err)
    return StoreWriteFailed(
        f"Could not write {path}: {reason}. Nothing changed: the previous generation is still in force. "
        "Make sure the folder is writable and the disk has room, then retry."
    )


def write_atomic(path: Path, data: bytes, *, durable: bool = True, keep_prev: Path | None = None) -> None:
    """Publish `data` at `path` so that `path` is always a complete old or new file.

    temp file -> fsync -> (keep the current file as `keep_prev`) -> rename -> fsync the folder.
    The previous file is kept by a hard link, so keeping it costs no copy and no extra fsync of data.
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    link_tmp = keep_prev.with_name(f".{keep_prev.name}.{os.getpid()}.tmp") if keep_prev else None
    try:
        private_dirs(path.parent)
        with os.fdopen(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW, PRIVATE_FILE), "wb") as fh:
            fh.write(data)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        if keep_prev is not None and link_tmp is not None and path.exists():
            try:
                try:
                    os.link(path, link_tmp)
                except FileExistsError:  # a killed writer's leftover under this pid
                    os.unlink(link_tmp)
                    os.link(path, link_tmp)
            except OSError:
                # File systems without hard links: a durable copy does the same job.
                with open(path, "rb") as src, os.fdopen(os.open(link_tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW, PRIVATE_FILE), "wb") as dst:
                    dst.write(src.read())
                    dst.flush()
                    os.fsync(dst.fileno())
            os.replace(link_tmp, keep_prev)
        os.replace(tmp, path)
        if durable:
            fsync_dir(path.parent)
    except OSError as err:
        for leftover in (tmp, link_tmp):
            if leftover is not None:
                with contextlib.suppress(OSError):
                    os.unlink(leftover)
        raise write_failed(path, err) from err


def write_in_place(path: Path, data: bytes) -> None:
    """Write `data` at `path` and make it durable, without a temp file and rename: only for a file
    whose reader treats a half-written copy as never written (the intent: `store._finish_intent`)."""
    try:
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW, PRIVATE_FILE), "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        fsync_dir(path.parent)
    except OSError as err:
        raise write_failed(path, err) from err


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def sweep_temps(folder: Path) -> tuple[int, int]:
    """Remove the temp files `write_atomic` left in `folder` when its process was killed (their
    process is gone), so nothing a writer half-wrote (a purged body, say) stays on disk.
    Returns (files removed, bytes)."""
    removed = size = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0, 0
    for entry in entries:
        name = entry.name
        if not (name.startswith(".") and name.endswith(".tmp")):
            continue
        pid = name[:-4].rsplit(".", 1)[-1]
        if not pid.isdigit() or (int(pid) != os.getpid() and _alive(int(pid))):
            continue
        with contextlib.suppress(OSError):
            n = entry.stat().st_size
            os.unlink(entry.path)
            removed, size = removed + 1, size + n
    return removed, size


def read_json(path: Path) -> Any:
    with open(path, "rb") as fh:
        return json.loads(fh.read())


@contextlib.contextmanager
def locked(lock_path: Path, *, what: str = "the memory store") -> Iterator[None]:
    """Hold an OS file lock (the kernel drops it if the holder dies); wait at most 500 ms.

    `filelock` is imported here, on write paths only: it costs about 50 ms, and `lingshu recall`
    never takes a lock (its bookkeeping goes through `core/spool.py`)."""
    from filelock import FileLock, Timeout

    if os.path.islink(lock_path):
        raise StoreWriteFailed(
            f"{lock_path} is a symbolic link; a lock file never is one, and Lingshu does not follow it. "
            "Remove it (it is recreated), then retry."
        )
    try:
        private_dirs(lock_path.parent)
        lock = FileLock(lock_path, timeout=LOCK_WAIT_SECONDS, mode=PRIVATE_FILE, poll_interval=0.005)
        lock.acquire()
    except Timeout:
        raise Busy(f"Another process is writing {what} right now. Wait a moment and retry.") from None
    except OSError as err:
        raise write_failed(lock_path, err) from err
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            lock.release()
