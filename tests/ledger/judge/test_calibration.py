"""Calibration of the judge's confidence: the error measured, Platt scaling fitted, stored and applied."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from ledger.core.settings import Settings
from ledger.core.types import Claim, LedgerEntry
from ledger.judge.calibration import Platt, expected_calibration_error, fit_platt
from ledger.judge.entries import calibrated
from ledger.loop.factory import build_calibration, build_calibration_store


@pytest.mark.parametrize(
    ("confidences", "right", "ece"),
    [
        ([], [], 0.0),
        ([0.9, 0.9, 0.9, 0.9], [True, True, True, False], 0.15),  # says 90 %, is right 75 %
        ([0.85, 0.85], [True, True], 0.15),  # says 85 %, is right every time
        ([0.2, 0.95], [False, True], 0.125),  # two bins, each off by its own amount, weighted by its share
        ([1.0, 1.0], [True, True], 0.0),
    ],
)
def test_calibration_error_compares_confidence_and_accuracy_bin_by_bin(
    confidences: list[float], right: list[bool], ece: float
) -> None:
    assert expected_calibration_error(confidences, right) == pytest.approx(ece)


def test_platt_scaling_learns_how_often_a_confidence_is_right() -> None:
    rng = random.Random(7)
    truth = Platt(a=-6.0, b=3.5)
    confidences = [rng.uniform(0.3, 1.0) for _ in range(3000)]
    right = [rng.random() < truth.apply(c) for c in confidences]
    fitted = fit_platt(confidences, right)
    assert fitted.a == pytest.approx(-6.0, abs=0.6) and fitted.b == pytest.approx(3.5, abs=0.4)
    assert expected_calibration_error([fitted.apply(c) for c in confidences], right) < 0.03
    # An overconfident judge (always says 0.9, right half the time) is brought down to one half.
    overconfident = fit_platt([0.9] * 40, [True, False] * 20)
    assert overconfident.apply(0.9) == pytest.approx(0.5, abs=0.02)


@pytest.mark.parametrize(
    ("confidences", "right", "reason"),
    [([0.9] * 5, [True, False] * 2 + [True], "at least 10"), ([0.9] * 12, [True] * 12, "nothing to calibrate")],
)
def test_labels_that_cannot_support_a_fit_are_refused_with_the_reason(
    confidences: list[float], right: list[bool], reason: str
) -> None:
    with pytest.raises(ValueError, match=reason):
        fit_platt(confidences, right)


def test_a_not_found_verdict_keeps_no_confidence_and_others_are_calibrated() -> None:
    platt = Platt(a=-4.0, b=2.0)
    claim = Claim(id="c1", text="x", type="fact", importance="critical")
    supported = LedgerEntry(claim=claim, verdict="supported", confidence=0.9)
    missing = LedgerEntry(claim=claim, verdict="not_found", confidence=0.0)
    assert calibrated(supported, platt).confidence == round(1 / (1 + math.exp(-4.0 * 0.9 + 2.0)), 4)
    assert calibrated(missing, platt).confidence == 0.0
    assert calibrated(supported, None) is supported


def test_a_calibration_is_kept_per_workspace_and_the_judge_gets_its_own(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    build_calibration_store(settings).put("legal", -5.0, 2.5, 40, 0.12, 0.02)
    assert build_calibration(settings, "legal") == Platt(a=-5.0, b=2.5, n=40)
    assert build_calibration(settings, "default") is None
    build_calibration_store(settings).put("legal", -3.0, 1.0, 80, 0.1, 0.01)  # a new fit replaces the old one
    assert build_calibration(settings, "legal") == Platt(a=-3.0, b=1.0, n=80)
