"""From a claim and its checked evidence to a ledger entry: verdict, confidence, flags, notes. Pure."""

from __future__ import annotations

from datetime import date
from typing import TypeVar

from ledger.core.settings import JudgeSettings
from ledger.core.types import (
    CONFLICT,
    MISATTRIBUTED,
    OUTDATED_SOURCE,
    PHANTOM_CITATION,
    UNCITED,
    Claim,
    EvidenceMatch,
    LedgerEntry,
)
from ledger.judge.calibration import Platt
from ledger.judge.support import SAYS_MORE, UNCHECKED
from ledger.judge.support_rules import (
    COMPUTED,
    DEFAULT_THRESHOLDS,
    FIGURES_AGREE,
    REWORDED,
    exact_amount_agrees,
    several_agree,
)
from ledger.judge.verdicts import age_description, confidence, is_outdated, resolve, verdict_for
from ledger.text.alignment import states_verbatim
from ledger.text.figure_context import names_row

T = TypeVar("T")
INFERENCE_SIMILARITY = 0.7  # below this the quote only implies the claim: confidence takes the §5.2 penalty


def keep_semantic(match: EvidenceMatch, threshold: float, confirm: float = 1.0, claim: str = "") -> bool:
    """Seed 004 §4.2: a searched chunk supports a claim only above the similarity bar, unless the model reads it
    or the quote states the claim word for word.

    A contradiction is kept below the bar: the checker finds one only when the quote makes the same
    statement with another figure, date, polarity or party, and such a change lowers similarity exactly
    when it matters — a changed figure must not pass as "not found". So is support that the NLI model finds
    entailed with at least `confirm` probability: a paraphrase, an implication or a short claim against a long
    sentence is exactly what scores below the bar, and the model's reading, not the cosine, is its evidence.
    On public claims the team did not tune on (848 held out), keeping those raised balanced accuracy by 2.5
    points; the confidence of such a verdict still takes the inference penalty of a low similarity. A claim that a
    document states word for word is never "not found", however long the sentence around it.
    """
    if match.support == "contradicted":
        return True
    if match.support == "none":
        return False
    if match.similarity > threshold or (match.entailment is not None and match.entailment >= confirm):
        return True
    if match.support == "full" and COMPUTED in match.reason:
        return True  # the quote's figures work out to the claim's ("1893 − 1889"): arithmetic no cosine or model sees
    if match.support == "full" and REWORDED in match.reason:
        return True  # a figure in another form ("two fifths" for "41%") lowers the cosine as a changed one does
    if match.support == "full" and (several_agree(match.reason)
                                    or exact_amount_agrees(match.reason, claim, match.quote)):
        return True  # two figures of the claim where its words are ("12% ..., down from 15%"), or an amount to the
        # penny ("£8.40 an hour"): no coincidence
    if match.support == "full" and FIGURES_AGREE in match.reason and bool(claim) and names_row(claim, match.quote):
        return True  # the claim's figure in the table row it names ("An adult ticket costs £14.50": "Adult (Price:
        # £14.50)."), which a short row's cosine is too low to show
    return match.support == "full" and bool(claim) and states_verbatim(claim, match.quote)


def _cite(match: EvidenceMatch) -> str:
    return f"'{match.document}' [{match.chunk_hash}]"


def decide_entry(
    claim: Claim,
    cited: list[EvidenceMatch],
    semantic: list[EvidenceMatch],
    phantom: list[str],
    today: date,
    settings: JudgeSettings | None = None,
) -> LedgerEntry:
    """The ledger entry of one claim, from the matches of the chunks it cites and of the chunks found by search."""
    settings = settings or JudgeSettings()
    unchecked = [m for m in cited + semantic if m.reason.startswith(UNCHECKED)]
    says_less = max((m for m in cited + semantic if m.reason.startswith(SAYS_MORE)), key=lambda m: m.similarity,
                    default=None)  # the closest passage whose support the model dropped
    # else the closest passage the rules read and found wanting ("the evidence gives 2022, not 2023, ..."), shown
    # with its reason when a claim is not found: a reviewer sees what was read and why it is not enough
    closest = says_less or max((m for m in cited + semantic if m.support == "none" and m.quote and m.reason
                                and not m.reason.startswith(UNCHECKED)
                                and m.similarity >= DEFAULT_THRESHOLDS.related_similarity),
                               key=lambda m: m.similarity, default=None)
    kept = [m for m in semantic if keep_semantic(m, settings.similarity_threshold, settings.nli_confirm, claim.text)]
    # support found in a passage too far from the claim to count: shown when nothing else is
    loose = max((m for m in semantic if m not in kept and m.support in ("full", "partial")),
                key=lambda m: m.similarity, default=None)
    semantic = kept
    useful_cited = [m for m in cited if m.support != "none"]
    resolution = resolve(useful_cited + semantic, claim.text)
    # The current source leads: cited before searched, newer before older, then the closest quote.
    deciding = sorted(
        resolution.deciding,
        key=lambda m: (m.match_type != "cited", -(m.doc_date.toordinal() if m.doc_date else 0), -m.similarity),
    )

    flags: list[str] = []
    notes: list[str] = []
    if phantom:
        flags.append(PHANTOM_CITATION)
        notes.append(f"Cited chunk(s) {', '.join(phantom)} do not exist in this workspace.")
    if not claim.cited:
        flags.append(UNCITED)

    similarities = [m.similarity for m in deciding]
    # A low similarity means the quote only implies the claim, unless it states the claim word for word (a short
    # claim inside a long sentence, or one the sentence splitter left joined to its neighbour: "... 5 p.m. Guided").
    inferred = (bool(deciding) and max(similarities) < INFERENCE_SIMILARITY
                and not any(m.support == "full" and states_verbatim(claim.text, m.quote) for m in deciding))
    conf = confidence(resolution.support, similarities, requires_inference=inferred)
    verdict = verdict_for(resolution.support, conf, settings.supported_confidence)
    if verdict == "not_found":
        conf = 0.0

    if verdict in ("supported", "weak") and cited and not any(m.support in ("full", "partial") for m in cited):
        better = deciding[0]
        flags.append(MISATTRIBUTED)
        notes.append(f"The cited chunk does not support this; {_cite(better)} does.")

    if resolution.conflict_with is not None:
        flags.append(CONFLICT)
        other = resolution.conflict_with
        if resolution.conflict_unresolved:
            notes.append(f"Sources disagree: {_cite(other)} says otherwise and neither is known to be newer.")
        elif verdict == "contradicted":
            notes.append(f"Only the older {_cite(other)} supports it; the newer evidence prevails.")
        else:
            notes.append(f"The older {_cite(other)} disagrees; the newer source prevails.")

    if deciding and verdict in ("supported", "weak", "contradicted"):
        lead = deciding[0]
        if lead.doc_date and is_outdated(lead.doc_date, today, settings.outdated_days):
            flags.append(OUTDATED_SOURCE)
            notes.append(f"Source {_cite(lead)} is {age_description(lead.doc_date, today)}.")
        notes.insert(0, _verdict_note(verdict, lead))
    else:
        notes.insert(0, "No passage in the documents states this.")
        if says_less is not None:  # show the passage, and why it is not enough
            notes.append(f"The closest passage, {_cite(says_less)}, says less than the claim ({says_less.reason}).")
        elif closest is not None:
            notes.append(f"The closest passage, {_cite(closest)}, does not state it: {closest.reason}.")
        elif loose is not None:
            read = "" if loose.entailment is None else f"; the model finds it entailed {loose.entailment:.2f}"
            bar = f"similarity {loose.similarity:.2f}, not above {settings.similarity_threshold:.2f}{read}"
            notes.append(f"The closest passage, {_cite(loose)}, is too loose a match to count ({bar}): {loose.reason}.")
    if unchecked and verdict != "supported":
        # A bug in the checker must not pass for an absence of evidence: say which passages went unread, and why.
        what = unchecked[0].reason.removeprefix(UNCHECKED).lstrip(": ")
        notes.append(f"{len(unchecked)} passage(s) {UNCHECKED} ({what}): this verdict may be wrong; see the log.")

    shown = ([says_less] if says_less is not None else [closest] if closest and verdict == "not_found"
             else [loose] if loose and verdict == "not_found" else [])
    rest = [m for m in useful_cited + semantic + cited + shown if m not in deciding]
    evidence = _unique(deciding + rest)[: max(settings.top_k, len(deciding))]
    return LedgerEntry(
        claim=claim, verdict=verdict, confidence=conf, evidence=evidence, flags=_unique(flags), notes=" ".join(notes)
    )


def _verdict_note(verdict: str, lead: EvidenceMatch) -> str:
    why = f" ({lead.reason})" if lead.reason else ""
    # A figure worked out from the quote's is shown with its working: the reader can check the sum.
    working = f"; {lead.reason[lead.reason.index(FIGURES_AGREE):]}" if COMPUTED in lead.reason else ""
    if verdict == "contradicted":
        return f"Contradicted by {_cite(lead)}{why}."
    if verdict == "weak" and lead.support == "full":
        how = working or f" (similarity {lead.similarity:.2f})"
        return f"Supported by {_cite(lead)}, but the quote only implies it{how}."
    if verdict == "weak":
        return f"Partly supported by {_cite(lead)}{why}."
    return f"Supported by {_cite(lead)}{working}."


def _unique(items: list[T]) -> list[T]:
    out: list[T] = []
    for item in items:
        if item not in out:
            out.append(item)
    return out


def calibrated(entry: LedgerEntry, calibration: Platt | None) -> LedgerEntry:
    """The entry with its confidence calibrated for the workspace (a not_found verdict keeps 0)."""
    if calibration is None or entry.verdict == "not_found":
        return entry
    return entry.model_copy(update={"confidence": calibration.apply(entry.confidence)})
