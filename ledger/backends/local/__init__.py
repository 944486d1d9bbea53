"""The `local` backend: offline, deterministic roles that never invent text (DESIGN.md "Backends").

`LocalWriter` stitches cited evidence sentences, `RuleSkeptic` critiques by rules, `RuleClaimExtractor` splits
an answer into claims and reports its completeness and gaps, and `RuleReviser` edits a draft from its ledger
(seed 004 §6.2).
"""

from ledger.backends.local.extractor import RuleClaimExtractor
from ledger.backends.local.reviser import RuleReviser
from ledger.backends.local.skeptic import RuleSkeptic
from ledger.backends.local.writer import LocalWriter, WrittenAnswer

__all__ = ["LocalWriter", "RuleClaimExtractor", "RuleReviser", "RuleSkeptic", "WrittenAnswer"]
