"""The `local` backend: offline, deterministic roles that never invent text (DESIGN.md "Backends").

`LocalWriter` stitches cited evidence sentences, `RuleSkeptic` critiques by rules, `RuleReviser` edits a draft
from its ledger (seed 004 §6.2) and `LocalGapFinder` reports the parts of a question an answer leaves uncovered.
"""

from ledger.backends.local.gaps import LocalGapFinder
from ledger.backends.local.reviser import RuleReviser
from ledger.backends.local.skeptic import RuleSkeptic
from ledger.backends.local.writer import LocalWriter, WrittenAnswer

__all__ = ["LocalGapFinder", "LocalWriter", "RuleReviser", "RuleSkeptic", "WrittenAnswer"]
