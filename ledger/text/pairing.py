"""Which figures a sentence gives together: a claim that pairs two of the quote's figures the quote keeps apart.

"Entitlement rises to 27 days after 5 years' service and to 29 days after 10 years" gives two tiers, each a pair
of figures of the same two sorts. "After 10 years' service, entitlement goes up to 27 days" states both figures,
each matched on its own, but pairs 27 days with the other tier's 10 years: the quote gives 29 days there. A pair
counts as crossed only where the quote's structure is that parallel: the two figures stand in coordinated parts
of the quote ("and", "or", ";", "while"), and each part has one figure of the other's sort. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ledger.text.figures import Agreement, Quantity
from ledger.text.measures import measure_word

# Where one coordinated part of a sentence ends and the next begins; a sentence's end or a line's parts it too.
_PARTS = re.compile(r";|\n|[.!?]\s|\b(?:and|or|but|while|whereas)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")


def figure_sort(q: Quantity) -> tuple[str, str, str, str]:
    """A figure's kind, unit, what it is paid or counted per, and the word it is counted in ("27 days" and "5 years"
    are both durations; "20p per day" and "£5 per item" both money)."""
    return q.kind, q.unit, q.per, "" if q.kind == "money" else measure_word(q.text)


def _apart(text: str, a: Quantity, b: Quantity) -> bool:
    """Whether two figures of one text stand in different coordinated parts of it."""
    first, second = (a, b) if a.start <= b.start else (b, a)
    return _PARTS.search(text, first.end, max(first.end, second.start)) is not None


def crossed_pairs(claim: str, quote: str, agreement: Agreement, evidence: Sequence[Quantity]) -> Agreement:
    """The agreement with each claim figure the claim pairs with a figure of another part of the quote marked as a
    conflict with the figure of its sort that the quote gives beside that one. `evidence` are the quote's figures
    (offsets into `quote`), `agreement` the claim's figures compared with them (offsets into `claim`)."""
    matched = [m for m in agreement.matches if m.status == "matched" and m.evidence is not None]
    crossed: dict[int, Quantity] = {}
    for m1 in matched:
        for m2 in matched:
            e1, e2 = m1.evidence, m2.evidence
            if (e1 is None or e2 is None or m1.claim.start >= m2.claim.start
                    or figure_sort(m1.claim) == figure_sort(m2.claim)
                    or _apart(claim, m1.claim, m2.claim) or not _apart(quote, e1, e2)
                    or any(q.ranged for q in (m1.claim, m2.claim, e1, e2))):
                continue
            # (neither of the two itself: in "Weekly fee: £176.40; …; Total fee: £7,056.00" both are of one sort)
            beside_e1 = [e for e in evidence if e is not e2 and e is not e1
                         and figure_sort(e) == figure_sort(e2) and not _apart(quote, e1, e)]
            beside_e2 = [e for e in evidence if e is not e1 and e is not e2
                         and figure_sort(e) == figure_sort(e1) and not _apart(quote, e2, e)]
            if (len(beside_e1) == 1 and len(beside_e2) == 1 and not beside_e1[0].ranged
                    and beside_e1[0].value != e2.value and beside_e2[0].value != e1.value):
                crossed[id(m2)] = beside_e1[0]  # the quote gives this figure beside the claim's other one
    if not crossed:
        return agreement
    return Agreement(tuple(replace(m, status="conflict", evidence=crossed[id(m)]) if id(m) in crossed else m
                           for m in agreement.matches))



def restated_shares(claim: str, quote: str, agreement: Agreement, evidence: Sequence[Quantity]) -> Agreement:
    """The agreement with a claim percentage that restates the figure before it ("£93.17, an increase of roughly
    7%") marked as a conflict with the percentage the quote gives right after that figure ("£93.17 a year, or about
    5.4%"), when the claim's percentage is otherwise absent: two ways of saying one change."""
    matches = list(agreement.matches)
    used = {id(m.evidence) for m in matches if m.evidence is not None}
    for n, m in enumerate(matches):
        if n == 0 or m.status != "absent" or m.claim.kind != "percent":
            continue
        before = matches[n - 1]
        if (before.status != "matched" or before.evidence is None or before.claim.kind == "percent"
                or _SENTENCE_END.search(claim, before.claim.end, m.claim.start)):
            continue
        nxt = min((e for e in evidence if e.start >= before.evidence.end), key=lambda e: e.start, default=None)
        if (nxt is not None and nxt.kind == "percent" and id(nxt) not in used and nxt.value != m.claim.value
                and not _SENTENCE_END.search(quote, before.evidence.end, nxt.start)):
            matches[n] = replace(m, status="conflict", evidence=nxt)
    return Agreement(tuple(matches))

