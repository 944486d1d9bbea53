"""The keyword index finds figures, codes and names letter for letter, per workspace, and forgets on delete."""

from __future__ import annotations

import pytest

from ledger.core.settings import Settings
from ledger.storage.database import open_engine
from ledger.storage.keywords import KeywordIndex, query_terms
from tests.fakes import make_chunk

QUOTES = make_chunk("Purchases above $25,000 need three written quotes from different suppliers.", doc="buying")
AUDIT = make_chunk("The external audit follows ISO 27001 and runs every autumn.", doc="audit")
LUNCH = make_chunk("The canteen serves lunch from noon until two in the afternoon.", doc="canteen")


@pytest.fixture
def index(any_db: Settings) -> KeywordIndex:
    found = KeywordIndex(open_engine(any_db), "team")
    found.upsert([("team:buying:0", QUOTES), ("team:audit:0", AUDIT), ("team:canteen:0", LUNCH)])
    return found


def test_figures_and_codes_are_found_first(index: KeywordIndex) -> None:
    assert index.search("How many quotes are needed above $25,000?", 3)[0].chunk_hash == QUOTES.hash
    assert index.search("Which standard, ISO 27001?", 3)[0].chunk_hash == AUDIT.hash


def test_stemmed_words_match_and_unrelated_queries_find_nothing(index: KeywordIndex) -> None:
    assert [h.chunk_hash for h in index.search("when is lunch served", 3)] == [LUNCH.hash]
    assert index.search("parking permits", 3) == []
    assert index.search("?!", 3) == []


def test_a_hit_says_what_share_of_the_questions_words_it_holds_as_the_index_reads_them(index: KeywordIndex) -> None:
    question = "lunch served, external audit"
    hits = {h.chunk_hash: h.matched for h in index.search(question, 3, shares=True)}
    assert hits == {LUNCH.hash: 2 / 4, AUDIT.hash: 2 / 4}  # "serves" is "served" stemmed
    assert {h.matched for h in index.search(question, 3)} == {1.0}  # not asked for


def test_workspaces_are_separate_and_a_replaced_or_deleted_chunk_is_gone(index: KeywordIndex, any_db: Settings) -> None:
    other = KeywordIndex(open_engine(any_db), "other")
    assert other.search("ISO 27001", 3) == [] and other.count() == 0
    index.upsert([("team:audit:0", LUNCH)])  # the same id, new text
    assert index.search("ISO 27001", 3) == [] and index.count() == 3
    index.delete(["team:audit:0", "team:canteen:0"])
    assert index.ids() == {"team:buying:0"}
    assert index.search("lunch", 3) == []


def test_query_terms_keep_numbers_and_drop_punctuation() -> None:
    assert query_terms("Above $25,000 — a ISO-27001 audit?") == ["above", "25", "000", "iso", "27001", "audit"]


def test_function_words_it_is_given_match_nothing(any_db: Settings) -> None:
    index = KeywordIndex(open_engine(any_db), "team", stopwords=frozenset({"the", "in", "from", "until", "is"}))
    index.upsert([("team:buying:0", QUOTES), ("team:audit:0", AUDIT), ("team:canteen:0", LUNCH)])
    # Without the list, "the" and "in" alone would find the canteen and the audit chunks.
    assert index.search("What is the rule in the garage?", 3) == []
    assert [h.chunk_hash for h in index.search("What is served in the canteen?", 3)] == [LUNCH.hash]
    unfiltered = KeywordIndex(open_engine(any_db), "team")
    if unfiltered.dialect == "sqlite":  # PostgreSQL's english configuration drops them by itself
        assert unfiltered.search("What is the rule in the garage?", 3)  # the same query without the list


def test_over_the_scoring_budget_the_rare_words_chunks_still_rank_first(
    any_db: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = KeywordIndex(open_engine(any_db), "big")
    common = [make_chunk("This report on the annual budget reviews the annual budget.", doc=f"r{i}") for i in range(40)]
    index.upsert((f"big:r{i}:0", chunk) for i, chunk in enumerate(common))
    target = make_chunk("Form HK-15 records the annual budget of the harbour.", doc="form")
    index.upsert([("big:form:0", target)])
    query = "What does form HK-15 say about the annual budget?"
    unbounded = [h.chunk_hash for h in index.search(query, 5)]
    monkeypatch.setattr("ledger.storage.keywords.SCORING_BUDGET", 5)
    bounded = [h.chunk_hash for h in index.search(query, 5)]
    assert unbounded[0] == bounded[0] == target.hash
    if index.dialect == "sqlite":  # the budget is SQLite's; PostgreSQL's GIN index ranks every match
        # only chunks with the rarest words are scored: the 40 that share "annual budget" alone are left out
        assert bounded == [target.hash] and len(unbounded) == 5


def test_a_small_workspace_beside_a_large_one_is_searched_whole(
    any_db: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    big = KeywordIndex(open_engine(any_db), "big")
    common = make_chunk("This report on the annual budget reviews the annual budget.", doc="report")
    big.upsert((f"big:r{i}:0", common) for i in range(40))
    small = KeywordIndex(open_engine(any_db), "small")
    small.upsert([("small:form:0", make_chunk("Form HK-15 records the harbour dues.", doc="form")),
                  ("small:budget:0", make_chunk("The annual budget of the harbour is set in May.", doc="budget"))])
    monkeypatch.setattr("ledger.storage.keywords.SCORING_BUDGET", 5)
    # the big workspace's 40 matches count against the budget only at the small one's share of the index
    found = small.search("What does form HK-15 say about the annual budget?", 5)
    assert len(found) == 2


def test_a_large_workspace_gets_its_own_best_matches_when_a_smaller_one_holds_better_ones(any_db: Settings) -> None:
    big = KeywordIndex(open_engine(any_db), "big")
    mine = [make_chunk(f"Harbour dues for berth {i} are listed in the annex.", doc=f"b{i}") for i in range(30)]
    big.upsert((f"big:b{i}:0", chunk) for i, chunk in enumerate(mine))
    small = KeywordIndex(open_engine(any_db), "small")
    theirs = make_chunk("Harbour dues, harbour dues and again harbour dues: dues of the harbour.", doc="s")
    small.upsert((f"small:s{i}:0", theirs) for i in range(10))
    # the ten chunks of the other workspace rank above all of this one's in the shared index
    found = big.search("harbour dues", 3)
    assert len(found) == 3 and {h.chunk_id.split(":")[0] for h in found} == {"big"}
    assert [h.chunk_hash for h in small.search("harbour dues", 3)] == [theirs.hash] * 3
