"""Automatic recall (SPEC §11): what the agent sees on each new human message.

This runs as a new process on every user message, so it imports no pydantic, no MCP SDK and no
Textual: plain JSON files, the gate and the index only.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import index, ledger, semantic
from .asking import (AGENT_WORDS, DEPENDENCY_WORDS, act_kind, adds_dependency, asks_amount, asks_for_work, asks_how_many_exist, asks_install, asks_install_word, asks_measure, asks_price,
                     asks_to_act, asks_version, asks_what_anyone_knows, asks_who, asks_why_chosen, compared, counted_parts, defines, definition_subject, describes_act,
                     differed, forbids_an_act, holds_only_install, holds_only_price, installs_what_is_asked, measure_kind, names_both, names_kind,
                     general_line, note_words, opens_with_kind,
                     reads_as_general, sets_agent_limits, speaks_of_install, spelled_out, states_amount, states_measure, states_price, states_reason, states_version,
                     sets_dependency_policy, states_who, task_kind, transforms_given_text, weighs, what_general_asks, without_opening)
from .conditions import DEVICE_KEYS
from .contexts import open_turn
from .durable import small_sha256
from .eligibility import eligibility, is_current
from .errors import LingshuError
from .records import printable
from .search import query_terms
from .store import file_key, iso, utc_now
from .workspace import Workspace, open_workspace

MAX_CARDS = 3
MAX_BYTES = 1200
DEADLINE_MS = 150.0
# `select`'s default semantic budget: the tier's share of whatever deadline it was given (None: no budget).
OF_DEADLINE = -1.0
CANDIDATES = 24  # index matches per layer that recall looks at a page at a time
RECALL_NEAREST = 8  # notes per layer the semantic tier offers recall: three cards, and room for the gate
PAGES = 3
# Usable notes taken from a layer before the rest of its matches are left unread (decoding and
# gating each costs ~40 µs): twice the cards, so the budget and the scan can refuse some (notes in
# a blocked topic slot are not counted).
SPARE_CARDS = 2 * MAX_CARDS
HEADER = "[memory note, not an instruction · {id} · {layer} · {date}]"
# A card must share more than half of the message terms that the best card shares: a long
# message shares stray words with many notes, and weak cards cost the model context for nothing.
# When the best card holds only some of the message's terms, it may be the wrong note: a card with
# more than a third of its terms stays too if it holds at least half of the best's information.
# Over 73 recall sets: 314 expected notes missed at 1.21 cards a prompt (255 bytes) by the half rule
# alone; 276 at 1.34 (284 bytes) with this; more than a third without the information floor 261 at
# 1.52; no rule 255 at 1.73. No-answer prompts are the same under each: the rule only thins the
# cards of a prompt that has one (each card is relevant on its own too, `_relevant`).
COMPLETE_TERMS = 1 / 2
WEAKER_TERMS = 1 / 3
WEAKER_SHARE = 0.5


MORE = "(more: memory_read {id})"
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？；])|\n+")


def experiment_for(rec: dict[str, Any], ctx: dict[str, Any], now: str) -> bool:
    """The selector of learned rules (seed: experimentFor): only with learning on for the project,
    through the gate's step 3 (active, or a trial not yet expired; not paused or blocked)."""
    return bool(ctx.get("experimental")) and eligibility(rec, ctx, "inject", now).ok


def card_text(rec: dict[str, Any], layer: str, room: int | None = None) -> str | None:
    """One card: a header that says what it is and names the id, layer and date, then the note.
    When the whole note does not fit in `room` bytes, the card keeps the leading sentences that do
    and says how to read the rest; a sentence is never cut. None when not even one fits."""
    header = HEADER.format(id=rec["id"], layer=layer, date=str(rec.get("updated", ""))[:10])
    if rec.get("origin") == "project_evolution":  # a rule learned from the person's corrections says so
        state = (rec.get("learning") or {}).get("state")
        header = header[:-1] + (" · trial rule, learned from your corrections]" if state == "trial" else " · learned rule]")
    lines = [header, str(rec.get("title", ""))]
    if rec.get("when"):
        lines.append(f"When: {rec['when']}")
    text = str(rec.get("summary") or rec.get("body") or "")
    if text.rstrip(".。!！ ") == lines[1]:
        text = ""  # a one-sentence note is its title: said once
    whole = "\n".join(line for line in [*lines, text] if line)
    if room is None or len(whole.encode("utf-8")) <= room:
        return whole
    # A shortened card takes its share, so one long note does not crowd out the others.
    room = min(room, MAX_BYTES // MAX_CARDS)
    more = MORE.format(id=rec["id"])
    kept = ""
    for sentence in (s.strip() for s in _SENTENCE_END.split(text)):
        if not sentence:
            continue
        trial = f"{kept} {sentence}".strip() if kept else sentence
        if len("\n".join([*lines, f"{trial} {more}"]).encode("utf-8")) > room:
            break
        kept = trial
    return "\n".join([*lines, f"{kept} {more}"]) if kept else None


def card_content(rec: dict[str, Any]) -> str:
    """What a card says (without its header, which is ours): what the safety scan judges."""
    return "\n".join(str(part) for part in (rec.get("title", ""), rec.get("when", ""), rec.get("summary") or rec.get("body", "")) if part)


def verdict_key(content: str) -> str:
    """A card text's key for the scan verdicts kept in the index, under the scanner that judged it:
    after an upgrade (or any change to the rules) every card is judged again by the new rules,
    so a note a newer scanner refuses stops reaching the model."""
    return small_sha256(f"{_scanner_tag()}\n{content}".encode("utf-8", "surrogatepass")).hexdigest()


@lru_cache(maxsize=1)
def _scanner_tag() -> str:
    # The rules and the learned weights as installed, by size and modification time: two stats,
    # where reading and hashing them would cost the hook more than its selection.
    here = Path(__file__).parent
    parts = []
    for name in ("scan.py", "scan_weights.json", "textmodel.py", "scan_ngrams.json"):
        try:
            st = os.stat(here / name)
            parts.append(f"{name}:{st.st_size}:{st.st_mtime_ns}")
        except OSError:
            parts.append(f"{name}:?")
    return " ".join(parts)


def card_passes_scan(ws: Workspace, rec: dict[str, Any], layer: str, rescan_ms: list[float] | None = None) -> bool:
    """Defence in depth (SPEC §7): a card is scanned again as it will be rendered, so a note that
    came by another path (an old file, a hand edit) cannot reach the model. The verdict is kept
    in the index by the card's text: writers record theirs, so recall rarely scans (and only then
    loads the scanner)."""
    ref = ws.layer(layer)
    if ref is None:
        return False
    content = card_content(rec)
    key = verdict_key(content)
    known = index.verdict(ref, key)
    if known is index.UNKNOWN:
        started = time.monotonic()
        from .scan import card_problem

        known = card_problem(content)
        index.set_verdict(ref, key, rec["id"], known)
        if rescan_ms is not None:
            rescan_ms.append((time.monotonic() - started) * 1000)
    return known is None


def render(cards: list[str]) -> str:
    """The final text exactly as the model sees it: cards separated by a blank line, ending in a
    newline; a terminal control character a hand edit brought in is shown as its code, never raw."""
    return printable("\n\n".join(cards) + "\n") if cards else ""


# The share of the message's information (idf-weighted terms) a note must hold to be recalled,
# calibrated on the dev set (tests/fixtures/recall/dev.json, `lingshu bench --recall-set`) and the
# sets written apart (heldout*.json, docs/BENCH.md); 0.4 until messages that ask for work stopped
# bringing cards by one title word, which left room to let more paraphrases through; 0.35 until a
# sweep over all fourteen sets (665 answerable prompts) showed the two-term rule doing the quieting:
# 0.25 found 15 more notes for one more card on a no-answer prompt (0.2 four more, for four more
# prompts answered with the wrong cards).
MIN_COVERAGE = 0.25
# A note found by one rare word of the message in its own title ("the police want to know where a
# car was last night" for "Police requests for trip data need a written order") holds little of a long
# message's information: its title says what it is about. Swept over all 38 sets (session 21): 0.2
# found 12 more notes and quieted none fewer no-answer prompts than 0.25; 0.15 and 0.18 found the same
# notes and brought more wrong cards; 0.22 lost half of them.
TITLE_COVERAGE = 0.2
# A message that asks for work (below) is about the thing it works on: a note fits it only when
# it holds most of what the message says. The notes such messages look for hold 0.67-1.0 of it
# on every set; the notes they merely touch ("fix the flaky test in test_cart.py" and the note
# on how tests run) 0.4-0.58.
WORK_COVERAGE = 0.6
# A question the rules read as one anyone could answer ("how does a heat pump work", "explain how
# OAuth 2 client credentials work") is answered by a note only when the note holds nearly all of it:
# the note on our heat-pump profile names the thing but says nothing of how it works. Over 124 sets
# (session 32): 0.7 quieted 9 such prompts and lost no answer; 0.75 two more for two answers lost.
GENERAL_COVERAGE = 0.7
# A note that matched fewer terms than the best but holds nearly as much of the message's
# information stays ("the app keeps closing itself on some Android phones": the crash note holds
# "crash", the best two notes "app" and "android"). Measured on every recall set: 0.85 found one
# more note for one more wrong card in all; 0.75 the same note for seven.
WEAKER_INFORMATION = 0.85
# A second look: when the cards found hold less than half of the message's terms, the message may
# be a paraphrase of a note that shares only one of its words ("the invoice total is off by one
# cent" for the rounding note), too weak to come alone. One such note, holding at least
# SECOND_COVERAGE of the message's information, comes after the cards when there is room. It never
# answers a message that has no card of its own, so no-answer prompts stay as quiet. Over 79 recall
# sets: 287 expected notes missed at 1.35 cards a prompt (285 bytes); 266 at 1.42 (301 bytes); under
# three quarters of the terms 265 at 1.52; coverage 0.25 five fewer; filling every free slot 259 at 1.78.
SECOND_COVERAGE = 0.2
SECOND_PART = 0.5
# The rule look: a message that asks the agent to act ("can you refund this customer 500 euros")
# gets the note that forbids the agent that act or holds it to asking first ("The agent must never
# issue refunds …"), when the note holds RULE_COVERAGE of the message's information: the note the
# agent must see before it acts, though the notes on refunds share more words. It comes even with
# no other card, and in place of the last card when the cards are full.
RULE_COVERAGE = 0.1
# A question that asks for a time or an amount ranks a note that states one (`asking.asks_amount`) this
# much higher: between the proximity and phrase bonuses of two of its words side by side. So does a question
# for who does something, a note that names who (`asking.asks_who`; over 132 sets: +1, none lost).
ANSWER_BONUS = 1.0
# How far a replacement chain is followed to the note that holds now (`successor` in `_choose`).
SUCCESSION_STEPS = 8


def _relevant(matched: int, query_terms: int, title_hit: bool, coverage: float = 1.0, *, work: bool = False,
              bar: float = WORK_COVERAGE) -> bool:
    # A long message shares a stray word with many notes; ask for two shared terms unless the
    # title itself is hit (and the message does not ask for work) or the message has only one
    # term, and for enough of its information (`bar` of it when it asks for work).
    two = matched >= min(2, query_terms)
    floor = MIN_COVERAGE if two else TITLE_COVERAGE
    return coverage >= (bar if work else floor) and ((title_hit and not work) or two)


def _agent_limits(ws: Workspace) -> _Candidate | None:
    """The note that states what the agent may not do (`asking.sets_agent_limits`), project first."""
    for ref in ws.layers():
        for hit in index.search(ref, AGENT_WORDS, limit=CANDIDATES):
            if sets_agent_limits(hit.record.get("title", "")):
                return _Candidate(hit.record, ref.kind, 0.0, 0, 0.0)  # (it holds none of the message's words)
    return None


def _dependency_policies(ws: Workspace) -> Iterator[_Candidate]:
    """The notes on the project's dependencies (`asking.sets_dependency_policy`), project first."""
    for ref in ws.layers():
        for hit in index.search(ref, DEPENDENCY_WORDS, limit=CANDIDATES):
            if sets_dependency_policy(hit.record.get("title", "")):
                yield _Candidate(hit.record, ref.kind, 0.0, 0, 0.0)  # (it holds none of the package's words)


def _slot_blocked(ws: Workspace, ctx: dict[str, Any], now: str) -> set[str]:
    """Topic slots that stay out whole: more than one current record, a queued slot conflict, or
    a member whose conditions cannot be checked now (SPEC §11.3)."""
    members: dict[str, list[dict[str, Any]]] = {}
    blocked: set[str] = set()
    for ref in ws.layers():
        for item in index.conflicts(ref):
            if any(c.get("reason") == "same_topic_slot" for c in item.get("candidates", [])):
                slot = (item.get("proposal") or {}).get("topicKey")
                if slot:
                    blocked.add(slot)
        for rec in index.topic_members(ref):
            if is_current(rec, now):
                members.setdefault(rec["topicKey"], []).append(rec)
    for slot, recs in members.items():
        if len(recs) > 1 or any(eligibility(r, ctx, "inject", now).state == "needs_context" for r in recs):
            blocked.add(slot)
    return blocked


def _generations(ws: Workspace) -> list[tuple[int, int, int] | None]:
    """Each layer file's identity: every published generation replaces the file."""
    return [file_key(ref.state_path) for ref in ws.layers()]


def _condition_keys(rec: dict[str, Any]) -> set[str]:
    return {str(c.get("key")) for c in rec.get("conditions") or [] if isinstance(c, dict)}


# A message about this machine ("how do I run the app locally", 本地怎么跑): a note with a device condition (`DEVICE_KEYS`)
# that holds here is about it, and the words it shares with the message need not include "locally" (the variant look).
# (patterns as text, compiled by `re` on first use and only for a message that holds one of their words: the hook is a new
# process on every prompt, and compiling both up front cost it 0.4 ms)
_ASKS_LOCALLY = r"\b(locally|local machine|on my (machine|laptop|computer|box|desktop)|local dev(elopment)?|my dev (machine|box))\b|本地|本机|我的电脑|我电脑上"
_LOCALLY_WORDS = ("local", "on my", "my dev", "本地", "本机", "电脑")
_DEVICE_KEYS = frozenset(DEVICE_KEYS)
_FOR_THIS_MACHINE = "the note for this machine; the message matched one for another"
_NAMES_A_MACHINE = (r"\b(mac|macs|macos|osx|os x|macbook|darwin|windows|win10|win11|linux|ubuntu|debian|fedora|arch|wsl|wsl2|ios|android)\b"
                    r"|苹果|安卓")


def _sibling_here(ws: Workspace, other: _Candidate, seen: set[str]) -> _Candidate | None:
    """The note of `other`'s layer whose conditions name the same keys and that its title's words find best (the Linux
    note beside the Mac one), standing in `other`'s place (its score, its terms); the gate judges it when admitted."""
    keys = _condition_keys(other.rec)
    ref = next((r for r in ws.layers() if r.kind == other.layer), None)
    if ref is None:
        return None
    for hit in index.search(ref, other.rec.get("title", ""), limit=CANDIDATES):
        if hit.id not in seen and hit.id != other.rec["id"] and _condition_keys(hit.record) == keys:
            return _Candidate(hit.record, other.layer, other.score, other.matched, other.coverage)
    return None


class _Candidate:
    """A note recall considers: its lexical score and terms, its similarity of meaning (None when
    the semantic tier did not rank it), and where it stands."""

    __slots__ = ("rec", "layer", "score", "matched", "coverage", "similarity", "learned", "held")

    def __init__(self, rec: dict[str, Any], layer: str, score: float, matched: int, coverage: float, held: list[str] | None = None) -> None:
        self.rec, self.layer, self.score, self.matched, self.coverage, self.held = rec, layer, score, matched, coverage, held or []
        self.similarity: float | None = None
        self.learned = False


def _fused(cands: list[_Candidate], floor: float | None, terms: int = 0) -> list[_Candidate]:
    """Best first by the fused ranks of both tiers (by words alone without the semantic one),
    without those much weaker than the best: half or less of the query terms of the best lexical
    match (a third or less, or less than half its information, when the best holds only some of the
    message's `terms`), unless they hold nearly as much of its information (`WEAKER_INFORMATION`) or their
    meaning is near enough on its own. Ties keep the order they came in (the index's: newest first), never
    the order of their random ids, so two stores written alike give the same cards."""
    best = max((c.matched for c in cands), default=0)
    # (information is judged only in a memory large enough for counts to mean something: below it,
    # every coverage is 1.0 and the count of terms alone decides)
    judged = any(c.coverage < 1.0 for c in cands)
    informed = max((c.coverage for c in cands), default=0.0)
    kept = [c for c in cands if c.matched > COMPLETE_TERMS * best or c.matched == best
            or (best < terms and c.matched > WEAKER_TERMS * best and c.coverage >= WEAKER_SHARE * informed) or (judged and c.coverage >= WEAKER_INFORMATION * informed)
            or (floor is not None and c.similarity is not None and c.similarity >= floor)]
    if floor is None:
        return sorted(kept, key=lambda c: -c.score)
    lexical = [c.rec["id"] for c in sorted((c for c in cands if c.matched), key=lambda c: -c.score)]
    near = [c.rec["id"] for c in sorted((c for c in cands if c.similarity is not None), key=lambda c: (-(c.similarity or 0.0), c.rec["id"]))]
    fused = semantic.fuse(lexical, near)
    return sorted(kept, key=lambda c: (-fused.get(c.rec["id"], 0.0), -c.score))


def select(
    ws: Workspace,
    message: str,
    ctx: dict[str, Any],
    *,
    deadline_ms: float = DEADLINE_MS,
    semantic_budget_ms: float | None = OF_DEADLINE,
    before_publish: Callable[[], None] | None = None,
    trace: list[dict[str, Any]] | None = None,
    tier: dict[str, Any] | None = None,
) -> tuple[list[tuple[dict[str, Any], str]], str, str]:
    """(cards as (record, layer), final text, why-empty). Admit through the gate first, then charge
    the budget; past the deadline or on a generation change the whole batch is dropped. `trace`,
    when given, gets one line per candidate with the score parts and what decided it (--explain);
    `tier` gets which tiers ranked and, when the semantic one could not, why."""
    started = time.monotonic()
    if semantic_budget_ms == OF_DEADLINE:
        semantic_budget_ms = deadline_ms * semantic.HOOK_SHARE
    # Each layer's index is checked against its file once for the whole choice (not at each of the
    # dozen lookups); the generation is checked again below, and a change drops the batch.
    # A card's first rescan loads the scanner (~50-100 ms) and keeps its verdict: a one-off the
    # deadline does not count, or the batch it just cleared would be dropped for it.
    rescan_ms: list[float] = []
    message = without_opening(spelled_out(message))
    generations = _generations(ws)
    with index.pinned():
        chosen, cards, why = _choose(ws, message, ctx, semantic_budget_ms, trace, tier, rescan_ms)
    if cards is None:
        return [], "", why
    if before_publish:
        before_publish()
    if (time.monotonic() - started) * 1000 - sum(rescan_ms) > deadline_ms:
        return [], "", f"deadline passed ({deadline_ms:g} ms); on a slow machine give the hook more with `lingshu recall --deadline-ms`"
    if _generations(ws) != generations:
        return [], "", "memory changed during selection"
    if not chosen:
        return [], "", why
    return chosen, render(cards), ""


def _choose(
    ws: Workspace, message: str, ctx: dict[str, Any], semantic_budget_ms: float | None,
    trace: list[dict[str, Any]] | None, tier: dict[str, Any] | None, rescan_ms: list[float],
) -> tuple[list[tuple[dict[str, Any], str]], list[str] | None, str]:
    """The cards for `message` and, when none, why (cards None: nothing matched at all)."""
    if transforms_given_text(message):
        if tier is not None:
            tier.update(tiers=["lexical"], semantic=None)
        return [], None, "the message asks to translate, summarise or convert the text it gives: no note answers that"
    now = iso(utc_now())
    near = semantic.Query(ws.home, message, budget_ms=semantic_budget_ms)
    floor = near.threshold("recallSimilarity", semantic.RECALL_SIMILARITY)
    found: dict[str, _Candidate] = {}  # usable candidates by id
    second: _Candidate | None = None  # the best note too weak alone, for a second look (SECOND_COVERAGE)
    rule: _Candidate | None = None  # the best note forbidding what the message asks the agent to do (RULE_COVERAGE)
    acting = asks_to_act(message)
    kind = task_kind(message)
    act = act_kind(message) if kind is None else None  # (work on the thing at hand, named by its act)
    kind = kind or act
    convention: _Candidate | None = None  # the best note on the kind of thing a task makes (the kind look)
    convention_opens = False  # its title opens with the kind: no later note stands in for it
    # A note that matched the message but holds for another machine (its conditions), and the note of the same kind of
    # condition that holds here, too weak by its words alone: "how do I run Postgres locally" matches the Mac and Windows
    # notes that say "run", and the Linux one says "use" (the variant look).
    unmet: set[str] = set()
    variant: _Candidate | None = None
    # The best of those notes for another machine, and its layer: when it matched the message better than any note that
    # holds here, its sibling for this machine is looked up by its own words ("本地怎么跑后端" matches the Mac and Windows
    # notes that say 跑后端; the Linux one says 跑整套服务 and shares no word with the message).
    elsewhere: list[_Candidate] = []
    held = 0
    subject = definition_subject(message)
    low = message.lower()
    local = any(w in low for w in _LOCALLY_WORDS) and re.search(_ASKS_LOCALLY, low) is not None
    # A question for a term's meaning is looked up by the term: its "mean" and "stand for" are how it
    # asks, and a note that says what the term is seldom holds them ("E34 a relay fault").
    looked_up = subject or message
    terms = len(query_terms(looked_up))
    work = asked_for_work = asks_for_work(message)
    general = work and asks_what_anyone_knows(message)
    bar = GENERAL_COVERAGE if general else WORK_COVERAGE
    answers = what_general_asks(message) if general else None  # (how many, a name or something to read: a note must speak of it)
    undecided = not work  # the learned reading is asked only when a card hangs on it
    if trace is not None and tier is not None:  # (--explain: how the message was read, which sets the bar its notes must reach)
        tier["reading"] = ("the rules as a question anyone could answer" if general else "the rules as work on the thing at hand" if work
                           else None)
    sides = compared(message)
    apart = None if sides is not None else differed(message)
    versioned = asks_version(message)
    installs = asks_install(message)
    install_word = installs and asks_install_word(message)
    priced = asks_price(message)
    measure = asks_measure(message)
    measured = query_terms(measure)[0] if measure is not None and measure.isascii() else None  # (the measure's word as the index holds it)
    counted = measure is not None and measure_kind(measure) == "many"
    chosen = asks_why_chosen(message)
    count_parts = counted_parts(message, measure) if counted and measure is not None else None
    existing = counted and asks_how_many_exist(message)

    def note(cand: _Candidate, verdict: str) -> None:
        if trace is not None:
            trace.append({"id": cand.rec["id"], "title": cand.rec.get("title", ""), "layer": cand.layer, "score": round(cand.score, 3),
                          "matched": cand.matched, "of": terms, "terms": cand.held, "coverage": round(cand.coverage, 3),
                          "similarity": None if cand.similarity is None else round(cand.similarity, 3), "verdict": verdict})

    def admit(cand: _Candidate) -> bool:
        """Through the gate, once per id (project first: the project copy of an id wins); True
        when usable as an ordinary note."""
        nonlocal held
        rec = cand.rec
        if rec["id"] in seen:
            return False
        seen.add(rec["id"])
        if rec.get("origin") == "project_evolution":
            if not experiment_for(rec, ctx, now):
                return False  # learned rules never enter as ordinary notes
            cand.learned = True
        else:
            gate = eligibility(rec, ctx, "inject", now)
            if not gate.ok:
                note(cand, f"gate: {gate.state} ({gate.reason})")
                held += gate.state != "gone"
                if gate.state == "not_applicable" and gate.reason == "conditions":
                    unmet.update(_condition_keys(rec))
                    if not elsewhere or cand.score > elsewhere[0].score:
                        elsewhere[:] = [cand]
                return False
        found[rec["id"]] = cand
        return not cand.learned

    def successor(cand: _Candidate) -> _Candidate | None:
        """The note that replaced a matched one, in its place: a message about the old fact is about
        the fact that holds now ("is sklearn's train_test_split ok" when a random split was replaced
        by a split by time). It stands on the old note's words and passes the gate on its own."""
        rid = cand.rec.get("supersededBy")
        if not rid or eligibility(cand.rec, ctx, "inject", now).reason != "superseded":
            return None  # not replaced, or held out for something else first (unreviewed, inapplicable)
        ref = next((r for r in ws.layers() if r.kind == cand.layer), None)
        for _ in range(SUCCESSION_STEPS):
            rec = index.get(ref, rid) if ref is not None and isinstance(rid, str) else None
            if rec is None or rec.get("status", "active") != "active":
                return None
            if not rec.get("supersededBy"):
                return _Candidate(rec, cand.layer, cand.score, cand.matched, cand.coverage)  # (its words are the old note's, not its own)
            rid = rec["supersededBy"]
        return None

    seen: set[str] = set()
    came_as: dict[str, str] = {}  # why a note came that its own words did not bring (a successor, a reason, this machine's variant)
    # Worked out once a candidate needs it: most prompts match nothing, and the slots cost two lookups.
    blocked_slots: list[set[str]] = []

    def blocked() -> set[str]:
        if not blocked_slots:
            blocked_slots.append(_slot_blocked(ws, ctx, now))
        return blocked_slots[0]

    layers = list(ws.layers())
    for ref in layers:
        peers = tuple(other for other in layers if other is not ref)
        usable = 0
        aside: dict[str, _Candidate] = {}  # too weak by their words: their meaning may still bring them
        for page in range(PAGES):
            hits = index.search(ref, looked_up, limit=CANDIDATES, offset=page * CANDIDATES, explain=trace is not None or priced or installs or measure is not None, general=general, peers=peers)
            for hit in hits:
                if hit.id in seen:
                    continue
                terms = hit.of  # as the search counted them (a known word once, no seams), for the trace
                # a message that asks for work is held to its strict coverage (`index.Hit.strict`)
                coverage = hit.strict if work else hit.coverage
                relevant = _relevant(hit.matched, hit.of, hit.title_hit, coverage, work=work, bar=bar)
                if not relevant and versioned and not work and states_version(hit.record, versioned):
                    relevant = True  # "what ROS version do we use": the note that gives ROS with its version, by that word alone
                # "how far do we deliver": the note on delivery that states a distance holds all but "far". A count of
                # the thing itself ("how many squads are there", "there are three squads: …") answers whatever the learned
                # reading makes of the question, which reads it as "how many planets are there": a question of the world
                # names a subject no note holds whole, or counts.
                by_measure = (measure is not None and not (asked_for_work if counted else work) and hit.matched
                              and states_measure(hit.record, measure, hit.held or () if count_parts is None else count_parts)
                              and (all(part in note_words(hit.record) for part in count_parts) if count_parts is not None
                                   else hit.coverage >= 1.0 if measured is None else hit.matched == hit.of - 1 and measured not in (hit.held or ())))
                # "为什么选 Kafka": the note that holds what was chosen and gives a reason is the team's answer (`asks_why_chosen`)
                by_reason = chosen and not work and hit.coverage >= 1.0 and states_reason(hit.record)
                if by_reason and trace is not None:
                    came_as[hit.id] = "the note that gives the reason for the choice the message asks about"
                relevant = relevant or by_measure or by_reason
                if relevant and undecided and not (by_measure and counted) and not by_reason and not _relevant(hit.matched, hit.of, hit.title_hit, hit.strict, work=True):
                    undecided = False
                    line = general_line(message, hit.matched, hit.strict)
                    work = reads_as_general(message, line)
                    relevant = not work
                    if trace is not None and tier is not None:
                        from .asking import general_probability

                        tier["reading"] = (f"the learned reading ({general_probability(message):.2f}, {'above' if work else 'at or below'} "
                                           f"the {line:.2f} line for a note that holds {hit.strict:.2f} of it word for word) as "
                                           f"{'a question anyone could answer' if work else 'a question about the project'}")
                    coverage = hit.strict if work else hit.coverage
                if relevant and subject is not None and not defines(hit.record, subject):
                    seen.add(hit.id)  # it uses the term the message asks the meaning of, but does not say what it is
                    if trace is not None:
                        note(_Candidate(hit.record, ref.kind, hit.score, hit.matched, coverage, hit.held), f"does not say what {subject!r} is")
                    continue
                if relevant and existing and not by_measure:
                    seen.add(hit.id)  # it names the thing asked how many there are of, and counts none of it
                    if trace is not None:
                        note(_Candidate(hit.record, ref.kind, hit.score, hit.matched, coverage, hit.held), "does not count what is asked")
                    continue
                if relevant and answers is not None and not answers(hit.record):
                    seen.add(hit.id)  # it names what the world question is about, but gives no number or name
                    if trace is not None:
                        note(_Candidate(hit.record, ref.kind, hit.score, hit.matched, coverage, hit.held), "does not give what the question asks for (a number, a name, something to read, how to learn)")
                    continue
                if relevant and installs and (not speaks_of_install(hit.record) or holds_only_install(hit.held or [])
                                              or (install_word and not installs_what_is_asked(hit.record, hit.held or []))):
                    seen.add(hit.id)  # it names the thing asked how to install but not how it is installed, or installs something else
                    if trace is not None:
                        why = ("does not say how it is installed" if not speaks_of_install(hit.record)
                               else "holds the word for installing, nothing of what is installed" if holds_only_install(hit.held or [])
                               else "installs something else")
                        note(_Candidate(hit.record, ref.kind, hit.score, hit.matched, coverage, hit.held), why)
                    continue
                if relevant and priced and (not states_price(hit.record) or holds_only_price(hit.held or [])):
                    seen.add(hit.id)  # it names what the price is asked of but states no price, or holds the word price alone
                    if trace is not None:
                        why = "does not state a price" if not states_price(hit.record) else "holds the word for price, nothing of what is priced"
                        note(_Candidate(hit.record, ref.kind, hit.score, hit.matched, coverage, hit.held), why)
                    continue
                if relevant and ((sides is not None and not weighs(hit.record, sides)) or (apart is not None and not names_both(hit.record, apart))):
                    seen.add(hit.id)  # it names one of the two things weighed, or neither
                    if trace is not None:
                        note(_Candidate(hit.record, ref.kind, hit.score, hit.matched, coverage, hit.held), "does not name both things weighed")
                    continue
                if not relevant and not work and hit.matched and coverage >= SECOND_COVERAGE and (
                        second is None or hit.score > second.score):
                    second = _Candidate(hit.record, ref.kind, hit.score, hit.matched, coverage, hit.held)
                if (not relevant and hit.matched and hit.record.get("conditions") and (variant is None or hit.score > variant.score)
                        and (not local or eligibility(hit.record, ctx, "inject", now).ok)):
                    variant = _Candidate(hit.record, ref.kind, hit.score, hit.matched, coverage, hit.held)
                if acting and rule is None and hit.matched and hit.coverage >= RULE_COVERAGE and forbids_an_act(hit.record.get("title", "")):
                    rule = _Candidate(hit.record, ref.kind, hit.score, hit.matched, hit.coverage, hit.held)
                if kind and not convention_opens and not relevant and hit.matched:
                    # (the first note the gate lets through; one whose title opens with the kind before it)
                    opens = opens_with_kind(hit.record, kind)
                    named = describes_act(hit.record, kind) if act is not None else names_kind(hit.record, kind)
                    if (convention is None or opens) and named and eligibility(hit.record, ctx, "inject", now).ok:
                        convention, convention_opens = _Candidate(hit.record, ref.kind, hit.score, hit.matched, hit.coverage, hit.held), opens
                if not relevant and not near.used and (trace is None or len(trace) >= 12):
                    continue  # too weak by its words and nothing else can bring it: never decoded
                cand = _Candidate(hit.record, ref.kind, hit.score, hit.matched, coverage, hit.held)
                if relevant:
                    taken = cand if admit(cand) else successor(cand)
                    if taken is not None and (taken is cand or admit(taken)):
                        usable += taken.rec.get("topicKey") not in blocked()
                        if taken is not cand:
                            came_as[taken.rec["id"]] = f"the note that replaced {cand.rec.get('title', '')[:60]!r}, which the message matches"
                    if usable >= SPARE_CARDS and trace is None and not (acting and rule is None) and not (kind and convention is None):
                        break  # ranked best first: what follows could only stand in for cards the slots or budget refuse
                elif near.used:
                    aside[hit.id] = cand
                elif work and coverage >= MIN_COVERAGE:
                    note(cand, f"too weak (the message asks for work, or what anyone could answer: a note must hold {bar} of it and two of its terms)")
                else:
                    note(cand, f"too weak (coverage below {MIN_COVERAGE} or one common word)")
            if usable >= MAX_CARDS or len(hits) < CANDIDATES:
                break  # enough usable candidates from this layer, or no more matches
        for sim, rid, revision in near.nearest(ref, limit=RECALL_NEAREST):
            known = found.get(rid)
            if known is not None:
                if known.layer == ref.kind:
                    known.similarity = sim
                continue
            if rid in seen or sim < floor:
                continue
            by_meaning = aside.pop(rid, None)
            if by_meaning is None:
                rec = index.get(ref, rid)
                if rec is None or rec.get("status", "active") != "active" or int(rec.get("revision", 1)) != revision:
                    continue  # a vector of an older revision says nothing about this one
                by_meaning = _Candidate(rec, ref.kind, 0.0, 0, 0.0)
            by_meaning.similarity = sim
            admit(by_meaning)
        for cand in list(aside.values())[:12]:
            note(cand, f"too weak (coverage below {MIN_COVERAGE} or one common word, meaning below {floor})")
    if tier is not None:
        tier.update(tiers=["lexical", "semantic"] if near.used else ["lexical"], semantic=near.why)
    limits = None
    if acting and rule is None:
        # no note forbids the act in the message's words: the note on the agent's own limits may, in its own
        # (over 125 sets: three requests found their rule, no quiet lost)
        limits = rule = _agent_limits(ws)
    depends = False  # (the convention came by the dependency look)
    if convention is None and adds_dependency(message):
        # (the package is in no note; the policy on adding one is, the first the gate lets through)
        convention = next((c for c in _dependency_policies(ws) if eligibility(c.rec, ctx, "inject", now).ok), None)
        depends = convention is not None
    rule, convention = (found[c.rec["id"]] if c is not None and (c.rec["id"] in found or (c.rec["id"] not in seen and admit(c))) else None
                        for c in (rule, convention))
    # (or when the message asks about this machine, "how do I run the app locally", of a device note that holds here, beside
    # notes that hold no more of the message: "how do I build the project locally" and the licence note by "project")
    device = local and not work and variant is not None and not _DEVICE_KEYS.isdisjoint(_condition_keys(variant.rec))
    if (variant is not None and variant.rec["id"] not in seen
            and ((not found and not unmet.isdisjoint(_condition_keys(variant.rec))) or (device and all(c.matched <= variant.matched for c in found.values())))
            and admit(variant)):
        came_as[variant.rec["id"]] = _FOR_THIS_MACHINE
    # (not for what anyone could answer, nor for a message that names the machine it asks about: "how do I install SQL
    # Server on a Mac" is not asked of this Linux box)
    if (elsewhere and not work and not re.search(_NAMES_A_MACHINE, low)
            and all(c.score < elsewhere[0].score and c.matched < elsewhere[0].matched for c in found.values())):
        sibling = _sibling_here(ws, elsewhere[0], seen)
        if sibling is not None and admit(sibling):
            came_as[sibling.rec["id"]] = _FOR_THIS_MACHINE
    if not found:
        return [], None, ("conditions unknown or not applicable" if held else "no match")
    states = (states_amount if asks_amount(message) else states_who if asks_who(message)
              else (lambda rec: states_version(rec, versioned)) if versioned else None)
    answering = {c.rec["id"] for c in found.values() if states(c.rec)} if states is not None else set()
    # (a measure asked, "how far do we deliver": the note that states a distance before those that state a time or a fee)
    measuring = {c.rec["id"] for c in found.values() if states_measure(c.rec, measure, c.held or ())} if measure is not None else set()
    for cand in found.values():
        cand.score += ANSWER_BONUS * ((cand.rec["id"] in answering) + (cand.rec["id"] in measuring))
        note(cand, "candidate")  # those _fused leaves out are explained as much weaker below
    matches = _fused(list(found.values()), floor if near.used else None, terms)
    if versioned:
        # the notes that give the thing's version answer the question, however few of its other words they hold
        given = sorted((c for c in found.values() if c.rec["id"] in answering), key=lambda c: -c.score)
        matches = [*given, *(m for m in matches if m not in given)]
    # The looks (a convention for the kind of thing a task makes, the rule on the act asked for, and for a message that asks
    # about this machine the note for it: "本地怎么起数据库" and three notes that say 数据库) each take a card, in place of the
    # last ones when the cards are full.
    machine = next((c for c in found.values() if local and came_as.get(c.rec["id"]) == _FOR_THIS_MACHINE), None)
    looks: list[_Candidate] = []
    for c in (convention, rule, machine):
        if c is not None and all(c is not seen_look for seen_look in looks):
            looks.append(c)
    if any(c not in matches[:MAX_CARDS] for c in looks):
        others = [m for m in matches if m not in looks]
        matches = [*others[:MAX_CARDS - len(looks)], *looks]
    if trace is not None and looks:  # their lines say what became of them, not that they were too weak alone
        trace[:] = [line for line in trace if line["id"] not in {c.rec["id"] for c in looks}]
        for c in looks:
            note(c, "candidate")
    partial = bool(matches) and max(c.matched for c in matches) < SECOND_PART * terms
    if partial and len(matches) < MAX_CARDS and second is not None and second.rec["id"] not in seen and admit(second):
        matches.append(second)
        if trace is not None:  # its line says what became of it, not that it was too weak alone
            trace[:] = [line for line in trace if line["id"] != second.rec["id"]]
            note(second, "candidate")
    else:
        second = None
    chosen: list[tuple[dict[str, Any], str]] = []
    cards: list[str] = []
    skipped_for_budget = 0
    decided: dict[str, str] = {}
    for cand in matches:
        rec, layer = cand.rec, cand.layer
        if cand is second and not chosen:
            decided[rec["id"]] = "too weak alone (a second look comes only after a card)"
            continue
        if len(chosen) >= MAX_CARDS:
            decided[rec["id"]] = f"not needed ({MAX_CARDS} cards already)"
            continue
        if rec.get("topicKey") in blocked():
            decided[rec["id"]] = "topic slot in conflict"
            continue
        if not card_passes_scan(ws, rec, layer, rescan_ms):
            decided[rec["id"]] = "fails the safety scan"
            continue
        # What the cards so far leave of the budget: the separator and the final newline count too.
        room = MAX_BYTES - len(render(cards).encode("utf-8")) - (2 if cards else 1)
        candidate = card_text(rec, layer, room)
        if candidate is None:
            skipped_for_budget += 1
            decided[rec["id"]] = f"over the {MAX_BYTES}-byte budget"
            continue  # skipped whole: not even its first sentence fits
        if len(render([*cards, candidate]).encode("utf-8")) > MAX_BYTES:
            skipped_for_budget += 1
            decided[rec["id"]] = f"over the {MAX_BYTES}-byte budget"
            continue
        cards.append(candidate)
        chosen.append((rec, layer))
        decided[rec["id"]] = "CARD"
    # (why a look's note came though its words alone were too few)
    made = ("the project's policy on dependencies (the message adds one)" if depends else "the note on how the act the message asks for is done"
            if act is not None else "the project's convention for the kind of thing the task makes")
    # (compared by id: the limits note may have been a candidate already, under another object)
    by_limits = rule is not None and limits is not None and rule.rec["id"] == limits.rec["id"]
    ruled = "the note on what the agent may not do (the message asks it to act)" if by_limits else "the rule on the act the message asks for"
    reasons = {c.rec["id"]: why_looked for c, why_looked in ((convention, made), (rule, ruled)) if c is not None}
    answer = "a time or an amount" if states is states_amount else "who does it" if states is states_who else f"{versioned}'s version"
    reasons.update({rid: f"the note that states the measure asked for ({measure!r}, +{ANSWER_BONUS * (1 + (rid in answering)):g})" for rid in measuring if rid not in reasons})
    reasons.update({rid: f"the note that states {answer}, which the question asks for (+{ANSWER_BONUS:g})" for rid in answering if rid not in reasons})
    reasons.update(came_as)
    for line in trace or ():
        if line["verdict"] == "candidate":
            line["verdict"] = decided.get(line["id"], "much weaker than the best match")
        if line["id"] in reasons:
            line["look"] = reasons[line["id"]]
    if trace is not None:
        trace.sort(key=lambda line: line["verdict"] != "CARD")
    return chosen, cards, "budget" if skipped_for_budget else "topic slot in conflict"


def recall(
    ws: Workspace,
    message: str,
    *,
    session_id: str | None = None,
    cwd: str | None = None,
    deadline_ms: float = DEADLINE_MS,
    before_publish: Callable[[], None] | None = None,
) -> tuple[str, dict[str, Any]]:
    """Open the turn and select its cards. Returns (text, report); empty text is a normal answer."""
    if not ws.memory_on:
        return "", {"why": "memory off", "cards": []}
    if ws.project.get("recallMode", "adaptive") != "adaptive":
        return "", {"why": "tool mode", "cards": []}
    ctx = open_turn(ws, session_id=session_id, cwd=cwd)
    if ws.project.get("experimental"):
        from .learning import note_feedback  # only with learning on: the hook's cost stays the same otherwise

        note_feedback(ws, ctx, message)
    tier: dict[str, Any] = {}
    chosen, text, why = select(ws, message, ctx, deadline_ms=deadline_ms, before_publish=before_publish, tier=tier)
    if tier.get("semantic"):  # a model is installed but could not rank this time: say so, never fail
        why = f"{why}; " * bool(why) + f"lexical only: {tier['semantic']}"
    report = {"why": why, "cards": [{"id": r["id"], "layer": layer, "title": r.get("title", "")} for r, layer in chosen],
              "bytes": len(text.encode("utf-8")), "contextId": ctx["id"], "tiers": tier.get("tiers", ["lexical"])}
    ledger.record(
        ws, ctx,
        cite=[{**ledger.cite_entry("hits", r, layer, ws), "excerpt": r.get("summary") or r.get("body", "")[:160], "injected": True}
              for r, layer in chosen],
        recall={"cards": [r["id"] for r, _ in chosen], "why": why},
        spooled=True,
    )
    return text, report


def _hook_input(args: Any) -> tuple[str, str | None, str | None]:
    """(message, session id, cwd) from the options or the hook's JSON on stdin. Anything of the
    wrong type is left out, never trusted: the hook runs on whatever its agent sends."""
    if args.message is not None:
        return args.message, args.session, None
    raw = sys.stdin.read()
    try:
        data = json.loads(raw) if raw.strip() else {}
    except (ValueError, RecursionError):
        data = {"prompt": raw} if not raw.lstrip().startswith(("{", "[")) else {}
    if not isinstance(data, dict):
        data = {}

    def text(key: str) -> str | None:
        value = data.get(key)
        return value if isinstance(value, str) and value else None

    return text("prompt") or text("message") or "", args.session or text("session_id"), text("cwd")


def main(args: Any) -> int:
    """`lingshu recall`: never breaks the agent's turn — a problem goes to stderr, exit 0."""
    try:
        return _main(args)
    except Exception as err:  # noqa: BLE001 - the hook must never fail the agent's turn
        print(f"lingshu recall: skipped ({type(err).__name__}: {err}). Run `lingshu doctor` if this repeats.", file=sys.stderr)
        return 0


def _main(args: Any) -> int:
    message, session_id, cwd = _hook_input(args)
    if not message.strip():
        return 0
    if cwd is not None and not os.path.isdir(cwd):
        cwd = None
    try:
        ws = open_workspace(args.home, args.project, cwd)
        text, report = recall(ws, message, session_id=session_id, cwd=cwd, deadline_ms=args.deadline_ms or DEADLINE_MS)
    except LingshuError as err:
        print(f"lingshu recall: {err.message}", file=sys.stderr)
        return 0
    if args.format == "json":
        sys.stdout.write(json.dumps({**report, "text": text}, ensure_ascii=False) + "\n")
    elif not text:
        return 0
    elif args.format == "claude-hook":
        out = {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": text}}
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(text)
    return 0
