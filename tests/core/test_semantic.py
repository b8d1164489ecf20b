"""The semantic tier (issue 15): a tiny model built here, real files, real `lingshu` processes."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from core import semantic
from core.paths import project_dir, project_id_for
from tests.conftest import Memory, run_cli
from tests.core.tiny_model import build

SHIP = ("Production rollout", "Deploys go out through the release pipeline once the smoke checks pass.")
BACKUP = ("Postgres snapshots", "The database is snapshotted nightly; a snapshot can be restored in ten minutes.")
PARAPHRASE = "how does it get to customers"  # no word in common with either note, nor a related one


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("model") / "tiny")


@pytest.fixture(scope="module")
def tiny_other(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("model") / "other", variant=1)


def _vectors(home: Path, project: Path) -> dict[str, tuple[int, str, int]]:
    db = sqlite3.connect(project_dir(home, project_id_for(project)) / semantic.SIDECAR)
    try:
        return {r[0]: (r[1], r[2], r[3]) for r in db.execute("SELECT id, revision, model, dim FROM vectors")}
    finally:
        db.close()


def _recall(home: Path, project: Path, message: str, deadline_ms: str | None = "60000") -> dict[str, Any]:
    """The hook's answer; with a deadline a busy machine keeps (the tier's share of the default
    150 ms is a cold model load, which CI once missed) unless a test is about the default."""
    out = run_cli(home, "--project", str(project), "recall", "--format", "json", "--message", message,
                  *(("--deadline-ms", deadline_ms) if deadline_ms else ()))
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _install(home: Path, model: Path) -> None:
    out = run_cli(home, "semantic", "install", str(model))
    assert out.returncode == 0, out.stderr
    assert "Installed" in out.stdout


@pytest.mark.parametrize("text", [
    "how do we ship to customers", "部署到生产环境之前先恢复数据库备份", "Redis cache TTL is stale",
    "nothing known here at all", "deploy " * 400 + "postgres",  # longer than model2vec's cut
])
def test_reader_gives_model2vecs_own_vectors(tiny: Path, text: str) -> None:
    # SPEC §3.6: the hook's reader (memory-mapped, no NumPy) and model2vec agree on every vector.
    from model2vec import StaticModel

    theirs = StaticModel.from_pretrained(str(tiny))
    manifest = {"unkTokenId": theirs.unk_token_id, "normalize": theirs.normalize, "maxLength": theirs.max_length,
                "medianTokenLength": theirs.median_token_length, "dim": theirs.dim}
    ours = semantic.Model(tiny, manifest).encode(text)
    expected = [float(v) for v in theirs.encode([text])[0]]
    if not any(expected):
        assert ours is None  # no known token: no vector, as model2vec's all-zero one says
    else:
        assert ours is not None and ours == pytest.approx(expected, abs=1e-5)


def test_vectors_are_computed_at_save_time_and_follow_revisions(home: Path, project: Path, tiny: Path) -> None:
    # SPEC §3.6: vectors are derived data, updated with each published generation, keyed by id + revision.
    mem = Memory(home, project)
    first = mem.save(*SHIP)
    _install(home, tiny)  # the note saved before the model came gets its vector at install
    assert _vectors(home, project) == {first["id"]: (1, "tiny", 9)}
    second = mem.save(*BACKUP)
    assert _vectors(home, project)[second["id"]] == (1, "tiny", 9)
    mem("memory_save", {"id": first["id"], "revision": 1, "title": SHIP[0], "body": SHIP[1] + " Ask #release first."})
    assert _vectors(home, project)[first["id"]][0] == 2
    mem("memory_forget", {"id": second["id"], "action": "archive", "revision": 1})
    assert second["id"] not in _vectors(home, project)  # an archived note is not found by meaning
    status = run_cli(home, "semantic", "status", "--json")
    report = json.loads(status.stdout)
    assert report["model"]["name"] == "tiny"
    assert [(layer["vectors"], layer["stale"]) for layer in report["layers"] if "project" in layer["layer"]] == [(1, 0)]


def test_recall_finds_a_paraphrase_only_with_the_tier(home: Path, project: Path, tiny: Path) -> None:
    # SPEC §11.2: relevant to the message — by meaning too once a model is installed; the gate still decides.
    mem = Memory(home, project)
    ship = mem.save(*SHIP)["id"]
    mem.save(*BACKUP)
    mem.save("Rollout on Windows", "Deploys to the Windows fleet go through the MSI pipeline.",
             conditions=[{"key": "targetOs", "value": "windows"}])
    before = _recall(home, project, PARAPHRASE)
    assert before["cards"] == [] and before["tiers"] == ["lexical"]
    _install(home, tiny)
    after = _recall(home, project, PARAPHRASE)
    assert after["tiers"] == ["lexical", "semantic"]
    assert [c["id"] for c in after["cards"]] == [ship]  # the Windows note is as near, but its condition does not hold
    chinese = _recall(home, project, "怎么上线")
    assert [c["id"] for c in chinese["cards"]] == [ship]  # a Chinese prompt finds the English note
    assert _recall(home, project, "bake a chocolate cake")["cards"] == []  # nothing near: silence


def test_search_fuses_both_tiers(home: Path, project: Path, tiny: Path) -> None:
    # SPEC §6.1.2: lexical matches and near notes alike pass the gate; the same verdict from every face.
    mem = Memory(home, project)
    ship = mem.save(*SHIP)["id"]
    backup = mem.save(*BACKUP)["id"]
    _install(home, tiny)
    found = mem("memory_search", {"query": "restore the database from yesterday"})
    assert [r["id"] for r in found["results"]][0] == backup
    by_meaning = mem("memory_search", {"query": PARAPHRASE})
    assert [r["id"] for r in by_meaning["results"]] == [ship]
    cli = run_cli(home, "--project", str(project), "call", "memory_search", json.dumps({"query": PARAPHRASE}))
    assert [r["id"] for r in json.loads(cli.stdout)["results"]] == [ship]


def test_a_broken_model_falls_back_to_words_and_says_so(home: Path, project: Path, tiny: Path) -> None:
    # SPEC §11.6: recall never fails the turn; issue 15: the fallback is named in --format json's why.
    mem = Memory(home, project)
    ship = mem.save(*SHIP)["id"]
    _install(home, tiny)
    model_file = home / "models" / "tiny" / "model.safetensors"
    model_file.write_bytes(model_file.read_bytes()[:40])
    words = _recall(home, project, "production rollout")
    assert [c["id"] for c in words["cards"]] == [ship]
    assert words["tiers"] == ["lexical"] and "lexical only" in words["why"] and "semantic install" in words["why"]
    assert _recall(home, project, PARAPHRASE)["cards"] == []
    status = run_cli(home, "semantic", "status")
    assert status.returncode == 1 and "PROBLEM" in status.stdout
    saved = mem.save("Redis cache", "Cart data is cached in redis for an hour.")
    assert saved["committed"]  # a broken model never fails a write
    assert saved["id"] not in _vectors(home, project)


def test_a_model_change_rebuilds_every_vector(home: Path, project: Path, tiny: Path, tiny_other: Path) -> None:
    # SPEC §3.6: vectors are derived; another model means all of them again, none of the old kept.
    mem = Memory(home, project)
    ids = {mem.save(*SHIP)["id"], mem.save(*BACKUP)["id"]}
    mem("memory_save", {"title": "Friday cake", "body": "Someone bakes a chocolate cake on Fridays.", "scope": "global"})
    _install(home, tiny)
    assert {v[1] for v in _vectors(home, project).values()} == {"tiny"}
    _install(home, tiny_other)
    assert _vectors(home, project) == {rid: (1, "other", 12) for rid in ids}
    report = json.loads(run_cli(home, "semantic", "status", "--json").stdout)
    assert report["model"]["name"] == "other" and report["installed"] == ["other", "tiny"]
    assert sorted((layer["vectors"], layer["stale"]) for layer in report["layers"]) == [(1, 0), (2, 0)]
    assert [c["title"] for c in _recall(home, project, PARAPHRASE)["cards"]] == [SHIP[0]]


def test_doctor_reindex_computes_missing_vectors(home: Path, project: Path, tiny: Path) -> None:
    # SPEC §3.6: a lost sidecar is rebuilt from state.json, never trusted over it.
    mem = Memory(home, project)
    mem.save(*SHIP)
    _install(home, tiny)
    sidecar = project_dir(home, project_id_for(project)) / semantic.SIDECAR
    db = sqlite3.connect(sidecar)
    db.execute("DELETE FROM vectors")
    db.commit()
    db.close()
    stale = json.loads(run_cli(home, "semantic", "status", "--json").stdout)
    assert [layer["stale"] for layer in stale["layers"]] == [1]
    assert _recall(home, project, PARAPHRASE)["cards"] == []  # no vector: found by words only
    out = run_cli(home, "doctor", "--reindex")
    assert out.returncode == 0, out.stderr
    assert "search index rebuilt" in out.stdout and "1 vectors" in out.stdout
    assert len(_recall(home, project, PARAPHRASE)["cards"]) == 1


def test_explain_shows_the_meaning_part(home: Path, project: Path, tiny: Path) -> None:
    # Issue 15 item 5: the score parts, vector similarity included.
    mem = Memory(home, project)
    mem.save(*SHIP)
    _install(home, tiny)
    out = run_cli(home, "--project", str(project), "recall", "--explain", "--message", PARAPHRASE)
    assert "ranked by lexical + semantic" in out.stdout
    line = next(line for line in out.stdout.splitlines() if SHIP[0] in line)
    assert line.strip().startswith("CARD") and "meaning 0.9" in line


def test_install_problems_are_clear_and_change_nothing(home: Path, tmp_path: Path) -> None:
    # SPEC §10: what happened and the next step; no traceback.
    empty = tmp_path / "not-a-model"
    empty.mkdir()
    out = run_cli(home, "semantic", "install", str(empty))
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert "not a model2vec model" in out.stderr and "Nothing was changed" in out.stderr
    assert "off" in run_cli(home, "semantic").stdout
    bad = run_cli(home, "semantic", "install", str(empty), "--similarity", "3")
    assert bad.returncode == 2 and "between 0 and 1" in bad.stderr


def test_the_bit_shortlist_finds_what_exact_cosine_finds(home: Path, project: Path, tiny: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # SPEC §11.2: the shortlist by sign bits (used past RESCORE_MIN notes) keeps the nearest notes.
    mem = Memory(home, project)
    for topic, words in (("ship", "deploy release rollout"), ("database", "postgres schema sql"), ("backup", "snapshot restore"),
                         ("test", "pytest checks"), ("cache", "redis ttl"), ("secret", "vault credentials"), ("food", "cake recipe")):
        for n in range(3):
            mem.save(f"{topic} note {n}", f"About {words}, part {n}.")
    _install(home, tiny)
    from core.workspace import open_workspace

    ws = open_workspace(home, project)
    exact = semantic.Query(home, PARAPHRASE).nearest(ws.project_layer, limit=3)
    monkeypatch.setattr(semantic, "RESCORE", 1)
    monkeypatch.setattr(semantic, "RESCORE_MIN", 4)
    semantic.forget_connections()
    short = semantic.Query(home, PARAPHRASE).nearest(ws.project_layer, limit=3)
    assert len(exact) == 3 and short == exact


def test_a_model_too_slow_for_the_hook_is_left_to_search(home: Path, project: Path, tiny: Path) -> None:
    # SPEC §11.6: the hook keeps its deadline; a model that loads slower than the tier's share is not loaded there.
    mem = Memory(home, project)
    ship = mem.save(*SHIP)["id"]
    _install(home, tiny)
    manifest_path = home / "models" / "tiny" / semantic.MANIFEST
    manifest = json.loads(manifest_path.read_text())
    assert manifest["loadMs"] >= 0
    manifest_path.write_text(json.dumps({**manifest, "loadMs": 900.0}))
    report = _recall(home, project, PARAPHRASE, deadline_ms=None)
    assert report["cards"] == [] and "takes 900 ms to load" in report["why"] and "over the 60 ms" in report["why"]
    assert [r["id"] for r in mem("memory_search", {"query": PARAPHRASE})["results"]] == [ship]


def test_doctor_reports_the_semantic_tier(home: Path, project: Path, tiny: Path) -> None:
    # SPEC §10: a broken model is named with its next step; stale vectors are counted.
    mem = Memory(home, project)
    mem.save(*SHIP)
    _install(home, tiny)
    healthy = run_cli(home, "doctor", "--json")
    assert healthy.returncode == 0 and json.loads(healthy.stdout)["semantic"]["model"]["name"] == "tiny"
    sidecar = project_dir(home, project_id_for(project)) / semantic.SIDECAR
    db = sqlite3.connect(sidecar)
    db.execute("DELETE FROM vectors")
    db.commit()
    db.close()
    stale = run_cli(home, "doctor")
    assert stale.returncode == 0 and "1 note(s) without a current vector" in stale.stdout and "--reindex" in stale.stdout
    (home / "models" / "tiny" / "tokenizer.json").write_text("{broken")
    broken = run_cli(home, "doctor")
    assert broken.returncode == 1 and "[NEEDS YOU] semantic tier" in broken.stdout and "semantic install" in broken.stdout


def test_a_writer_opens_the_model_before_it_takes_the_layer_lock(home: Path, project: Path, tiny: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # SPEC §3.2: the layer lock is held for the write only; loading a model (seconds for a large
    # tokenizer) happens before it, so other writers never wait for that.
    from core import store

    mem = Memory(home, project)
    mem.save(*SHIP)
    _install(home, tiny)
    semantic._models.clear()
    seen: list[bool] = []
    real_locked = store.locked

    def locked(*args: Any, **kwargs: Any) -> Any:
        info = semantic.active(home)
        seen.append(info is not None and semantic._loaded(info))
        return real_locked(*args, **kwargs)

    monkeypatch.setattr(store, "locked", locked)
    saved = mem.save(*BACKUP)
    assert saved["committed"] and seen and all(seen)
    assert _vectors(home, project)[saved["id"]][0] == 1
