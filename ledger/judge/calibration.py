"""Calibration of the judge's confidence (seed 000): expected calibration error and Platt scaling. Pure.

A verdict's confidence should be the chance that the verdict is right. `expected_calibration_error` measures
how far it is (confidence and accuracy compared in equal-width bins, weighted by how many verdicts fall in
each); `fit_platt` learns P(right | confidence) = 1 / (1 + exp(a·confidence + b)) from a user's labelled
claims, and the judge then reports that probability as the confidence of its supported, weak and
contradicted verdicts (a not_found verdict states that no evidence was found; its confidence stays 0).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pydantic import BaseModel, Field

BINS = 10
MIN_ITEMS = 10  # fewer labelled verdicts than this cannot fit two parameters honestly


class Platt(BaseModel):
    """Platt scaling of one workspace: P(right | c) = 1 / (1 + exp(a·c + b))."""

    a: float = Field(description="Slope (negative when higher confidence means more often right).")
    b: float = Field(description="Intercept.")
    n: int = Field(0, description="Labelled verdicts it was fitted on.")

    def apply(self, confidence: float) -> float:
        """The calibrated confidence."""
        z = self.a * confidence + self.b
        if z > 35:
            return 0.0
        return round(1.0 / (1.0 + math.exp(z)), 4)


def expected_calibration_error(confidences: Sequence[float], correct: Sequence[bool], bins: int = BINS) -> float:
    """Σ over bins of |accuracy − mean confidence| weighted by the bin's share of verdicts (0 when there are none)."""
    if not confidences:
        return 0.0
    total, error = len(confidences), 0.0
    for k in range(bins):
        low, high = k / bins, (k + 1) / bins
        members = [i for i, c in enumerate(confidences) if low <= c < high or (k == bins - 1 and c == 1.0)]
        if members:
            accuracy = sum(correct[i] for i in members) / len(members)
            mean = sum(confidences[i] for i in members) / len(members)
            error += len(members) / total * abs(accuracy - mean)
    return round(error, 4)


def fit_platt(confidences: Sequence[float], correct: Sequence[bool], iterations: int = 100) -> Platt:
    """Platt's method: maximum likelihood by Newton steps, with his smoothed targets (no 0/1 overconfidence).

    Raises ValueError with a plain reason when the labels cannot support a fit.
    """
    n = len(confidences)
    if n < MIN_ITEMS:
        raise ValueError(f"need at least {MIN_ITEMS} labelled verdicts with a confidence, got {n}")
    positives = sum(correct)
    if positives in (0, n):
        raise ValueError("every verdict is right (or every one wrong): there is nothing to calibrate against")
    hi, lo = (positives + 1) / (positives + 2), 1 / (n - positives + 2)
    targets = [hi if y else lo for y in correct]
    a, b = 0.0, math.log((n - positives + 1) / (positives + 1))
    for _ in range(iterations):
        grad_a = grad_b = h_aa = h_ab = h_bb = 0.0
        for c, t in zip(confidences, targets, strict=True):
            z = a * c + b
            p = 1.0 / (1.0 + math.exp(min(z, 35.0)))
            d = t - p  # derivative of the log-likelihood with respect to z
            w = p * (1 - p)
            grad_a += d * c
            grad_b += d
            h_aa += w * c * c
            h_ab += w * c
            h_bb += w
        det = h_aa * h_bb - h_ab * h_ab
        if abs(det) < 1e-12:
            break
        step_a = (h_bb * grad_a - h_ab * grad_b) / det
        step_b = (h_aa * grad_b - h_ab * grad_a) / det
        a, b = a - step_a, b - step_b
        if abs(step_a) < 1e-9 and abs(step_b) < 1e-9:
            break
    return Platt(a=round(a, 6), b=round(b, 6), n=n)
