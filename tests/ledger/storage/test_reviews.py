"""A reviewer's sign-off is its own chained audit row: stored, read back per run, and covered by verify."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from ledger.core.errors import NotFoundError
from ledger.core.settings import Settings
from ledger.storage.database import open_engine
from ledger.storage.runs import RunStore
from tests.ledger.audit_fixtures import flawed_run, simple_run


@pytest.fixture
def store(any_db: Settings) -> RunStore:
    return RunStore(open_engine(any_db), any_db)


def test_a_sign_off_is_chained_after_the_run_and_names_the_decisions(store: RunStore) -> None:
    run = flawed_run()
    store.save_run(run)
    store.save_run(simple_run("sess-simple-0001"))
    decisions = [
        {"number": 1, "kind": "corrected", "before": "$250", "after": "$220", "decision": "accepted"},
        {"number": 2, "kind": "removed", "before": "stipend", "after": "", "decision": "rejected"},
    ]
    review = store.save_review(run.session_id, comment="Checked against the 2026 policy.", decisions=decisions,
                               reviewed_text="The cap is $220.", user="reviewer-a")
    assert review.event == "review" and review.user_id == "reviewer-a"
    assert review.details["accepted"] == 1 and review.details["rejected"] == 1
    assert review.details["run_row_hash"] == store.get_audit(run.session_id).row_hash
    assert [r.session_id for r in store.reviews_of(run.session_id)] == [review.session_id]
    assert store.reviews_of("sess-simple-0001") == []
    assert store.verify().ok
    assert run.session_id in {r.session_id for r in store.list_runs()}  # a review is not listed as a run


def test_an_edited_sign_off_is_caught_and_an_unknown_run_cannot_be_signed(store: RunStore, any_db: Settings) -> None:
    run = flawed_run()
    store.save_run(run)
    review = store.save_review(run.session_id, comment="Looks right.")
    with open_engine(any_db).begin() as conn:
        conn.execute(text("UPDATE audit_log SET user_id = 'someone-else' WHERE session_id = :s"),
                     {"s": review.session_id})
    report = store.verify()
    assert not report.ok and report.first_bad is not None and report.first_bad.session_id == review.session_id
    with pytest.raises(NotFoundError):
        store.save_review("no-such-session", comment="x")
