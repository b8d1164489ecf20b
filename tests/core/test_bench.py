"""`lingshu bench` runs and reports every figure (issue 6). Not a timed pass/fail: machines are noisy."""

from __future__ import annotations

import json
import math

import pytest

from lingshu_tui.bench import KEYS
from tests.conftest import run_cli


def test_bench_quick_json_reports_every_figure(home) -> None:  # type: ignore[no-untyped-def]
    r = run_cli(home, "bench", "--quick", "--json")
    assert r.returncode == 0, r.stderr
    figures = json.loads(r.stdout)
    assert set(figures) == set(KEYS)
    for key, value in figures.items():
        assert isinstance(value, (int, float)) and math.isfinite(value), key
        # a warm recall reads no file at all: that count is the one figure that should be zero
        assert value >= 0 if key == "recall_file_reads" else value > 0, (key, value)
    assert figures["layer_files"] == 2  # state.json and state.prev.json, whatever the number of rounds


def test_bench_scale_quick_reports_every_figure_and_cards_came_back(home) -> None:  # type: ignore[no-untyped-def]
    """`lingshu bench --scale` (here on a tenth of the data) reports each capacity figure; every
    recall prompt got at least one card, and every save of the long run committed (issue 16)."""
    from lingshu_tui.bench_scale import SCALE_KEYS

    r = run_cli(home, "bench", "--scale", "--quick", "--json")
    assert r.returncode == 0, r.stderr
    figures = json.loads(r.stdout)
    assert set(figures) == set(SCALE_KEYS)
    # the trend and the age cost may be negative: saves into the aged layer were the faster ones
    assert all(isinstance(v, (int, float)) and math.isfinite(v) and (v > 0 or k in ("saves_trend_pct", "saves_age_pct"))
               for k, v in figures.items()), figures
    assert figures["recall_cards_1k"] >= 1


def test_16_the_save_trend_reads_growth_off_every_thousand_not_the_ends() -> None:
    """Issue 16's "the last 1,000 no slower than the first": a line through every thousand's median.
    A cost that grows reads as growth; a flat run with one slow thousand at either end does not."""
    from lingshu_tui.bench_scale import trend_pct

    assert trend_pct([10.0 + i for i in range(20)]) == pytest.approx(190.0)
    assert trend_pct([10.0] * 20) == 0.0
    noisy_ends = [8.0] + [10.0] * 18 + [12.0]
    assert abs(trend_pct(noisy_ends)) < 5 < (noisy_ends[-1] / noisy_ends[0] - 1) * 100
    assert trend_pct([20.0 - i / 2 for i in range(20)]) < 0


def test_16_the_phrase_set_names_one_note_each() -> None:
    """Issue 16: the phrases of `lingshu bench --vs-node` each occur in exactly one note, and the
    content-word set holds no function word (a pair like "use the" names nothing). The comparison
    itself needs node and the reference server, so only `lingshu bench --vs-node` runs it."""
    import re

    from lingshu_tui.bench_vs import _FUNCTION_WORDS, dev_notes, two_word_phrases

    data = dev_notes()[:80]
    for content in (True, False):
        phrases = two_word_phrases(data, content_words=content)
        assert len(phrases) >= 50
        for phrase, idx in phrases:
            words = [" ".join(re.findall(r"[A-Za-z][A-Za-z0-9_-]+", f"{d['title']} {d['body']}".lower())) for d in data]
            holders = [i for i, text in enumerate(words) if f" {phrase} " in f" {text} "]
            assert holders == [idx], phrase
            if content:
                assert not set(phrase.split()) & _FUNCTION_WORDS, phrase
