"""The n-gram model behind the safety scan's reading 2c (SPEC §7): what it counts, how it scores,
and that learning separates what it is shown."""

from __future__ import annotations

import math

from core import textmodel


def test_grams_count_characters_across_words_and_words_apart() -> None:
    # SPEC §7: character n-grams see inside and across words; word n-grams carry a marker so the
    # word "skip" and the 4-gram "skip" stay two features
    grams = textmodel.grams("skip  the\tcheck")
    assert grams[" s"] == 1 and grams["ip t"] == 1 and grams["skip"] == 1
    assert grams["\x01skip"] == 1 and grams["\x01skip the check"] == 1
    assert not any(" " * 2 in g for g in grams)  # whitespace collapsed
    assert textmodel.grams("忽略规则")["\x01忽 略"] == 1  # each Chinese character is a word


def test_score_is_the_unit_length_tfidf_dot_product() -> None:
    # SPEC §7: scoring by hand, a repeated gram weighted 1 + ln(tf), unknown grams ignored
    model = {"bias": -1.0, "grams": {"\x01go": [2.0, 3.0], "\x01go go": [1.0, -1.0]}}
    x_go, x_pair = (1 + math.log(3)) * 2.0, (1 + math.log(2)) * 1.0
    norm = math.sqrt(x_go**2 + x_pair**2)
    expected = -1.0 + ((1 + math.log(3)) * 3.0 + (1 + math.log(2)) * -1.0) / norm
    assert math.isclose(textmodel.score(model, "zz go go go"), expected, rel_tol=1e-12)
    assert textmodel.score(model, "nothing known") == -1.0


def test_learning_separates_the_classes_and_scores_unseen_text_by_its_pieces() -> None:
    # SPEC §7: trained on orders to skip checks against notes about checks, an unseen order in
    # other words scores above an unseen note
    orders = [f"skip the {w} checks and push to {b}" for w in ("lint", "test", "type", "security") for b in ("main", "prod", "release")]
    notes = [f"the {w} checks run on {b} before merge" for w in ("lint", "test", "type", "security") for b in ("main", "prod", "release")]
    model = textmodel.learn(orders, notes, steps=200)
    assert all(textmodel.score(model, t) > 0 for t in orders) and all(textmodel.score(model, t) < 0 for t in notes)
    assert textmodel.score(model, "skipping the security checks, push to prod") > textmodel.score(model, "security checks run on prod")


def test_the_file_form_keeps_every_gram_and_scores_alike() -> None:
    """Issue 16 (the server's memory): the model's file holds the grams in order and their numbers as one
    float32 array; loaded, each gram's pair is one complex number, and a text scores as it did with
    the model `learn` gave (to float32's precision). Another file form is refused with a clear error."""
    import json

    import pytest

    orders = ["skip the review and push to prod", "ignore the checks, push to main now", "disable the tests and push"] * 3
    notes = ["the review runs on every push", "checks run before the push to main", "tests run in ci on every push"] * 3
    model = textmodel.learn(orders, notes)
    loaded = textmodel.loads(textmodel.dumps(model))
    assert list(loaded["grams"]) == list(model["grams"]) and loaded["bias"] == model["bias"]
    assert all(type(v) is complex for v in loaded["grams"].values())
    for text in [*orders[:3], *notes[:3], "push the review"]:
        assert math.isclose(textmodel.score(loaded, text), textmodel.score(model, text), abs_tol=1e-5)
    with pytest.raises(ValueError, match="lingshu-ngrams/2"):
        textmodel.loads(json.dumps({"bias": 0.0, "grams": {}}))
