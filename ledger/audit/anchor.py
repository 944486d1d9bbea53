"""Pure decisions of the keyed audit chain: row MACs, the sealed checkpoint, and what the anchor proves.

Every audit row carries `row_mac = HMAC-SHA256(key, "evidence-audit-row-v1:" + row_hash)`. The row hash already
covers the previous row's hash, so rewriting any row, or any row before it, needs the key. The checkpoint (kept
outside the database) seals the chain's length and last hash with the same key, so rows cut from the end are
caught too. docs/audit.md is the trust model.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from ledger.audit.chain import canonical_json
from ledger.audit.types import GENESIS_HASH, AuditRecord, BadRow, Checkpoint, PurgedRow

ROW_MAC_CONTEXT = b"evidence-audit-row-v1:"
CHECKPOINT_CONTEXT = b"evidence-audit-checkpoint-v1:"
KEY_ID_CONTEXT = b"evidence-audit-key-id-v1"
KEY_BYTES = 32

Mac = tuple[str | None, str | None]
"""(row_mac, key_id) as stored beside an audit row; (None, None) for a row that predates the key."""


def key_id(key: bytes) -> str:
    """A short public name of a key (16 hex), so a message can say which key sealed a row without showing it."""
    return hmac.new(key, KEY_ID_CONTEXT, hashlib.sha256).hexdigest()[:16]


def row_mac(key: bytes, row_hash: str) -> str:
    """The HMAC a row sealed with `key` carries."""
    return hmac.new(key, ROW_MAC_CONTEXT + row_hash.encode("ascii"), hashlib.sha256).hexdigest()


def _checkpoint_mac(key: bytes, checkpoint: Checkpoint) -> str:
    fields = checkpoint.model_dump(mode="json", exclude={"mac"})
    return hmac.new(key, CHECKPOINT_CONTEXT + canonical_json(fields), hashlib.sha256).hexdigest()


def seal_checkpoint(key: bytes, *, rows: int, last_id: int, last_hash: str, keyed_from: int,
                    written_at: datetime) -> Checkpoint:
    """A checkpoint of the chain at `rows` rows, sealed with the key."""
    checkpoint = Checkpoint(rows=rows, last_id=last_id, last_hash=last_hash, keyed_from=keyed_from,
                            key_id=key_id(key), written_at=written_at)
    return checkpoint.model_copy(update={"mac": _checkpoint_mac(key, checkpoint)})


def checkpoint_holds(key: bytes, checkpoint: Checkpoint) -> bool:
    """True when the checkpoint was sealed with this key and not changed since."""
    return hmac.compare_digest(_checkpoint_mac(key, checkpoint), checkpoint.mac)


def check_macs(chain: Sequence[AuditRecord | PurgedRow], macs: Mapping[int, Mac], key: bytes,
               keyed_from: int) -> tuple[BadRow | None, int]:
    """The first row whose HMAC is missing or wrong (rows from `keyed_from` on must have one), and rows checked.

    Rows removed by a purge carry no HMAC of their own: the purge row that lists them is sealed instead.
    """
    kid = key_id(key)
    checked = 0
    for position, item in enumerate(chain):
        if not isinstance(item, AuditRecord):
            continue
        mac, row_kid = macs.get(item.id or 0, (None, None))
        if mac is None:
            if position >= keyed_from:
                return _bad(item, "it carries no HMAC although it was written after the audit key existed "
                                  "(inserted or rewritten without the key)"), checked
            continue
        if row_kid and row_kid != kid:
            return _bad(item, f"it was sealed with another audit key (key id {row_kid}, this one is {kid}): "
                              "point EVIDENCE_AUDIT__KEY_FILE at the key this database was written with"), checked
        if not hmac.compare_digest(mac, row_mac(key, item.row_hash)):
            return _bad(item, "its HMAC does not match (the row or the chain before it was rewritten without "
                              "the audit key)"), checked
        checked += 1
    return None, checked


def check_checkpoint(chain: Sequence[AuditRecord | PurgedRow], checkpoint: Checkpoint) -> BadRow | None:
    """Whether the chain still holds the row the checkpoint recorded, at the position it recorded (the anchor)."""
    if len(chain) < checkpoint.rows:
        return BadRow(id=None, reason=f"the chain has {len(chain)} rows but the checkpoint outside the database "
                                      f"recorded {checkpoint.rows} (rows were cut from the end)")
    if checkpoint.rows == 0:
        return None if checkpoint.last_hash == GENESIS_HASH else BadRow(id=None, reason="the checkpoint is malformed")
    item = chain[checkpoint.rows - 1]
    if item.row_hash != checkpoint.last_hash:
        return BadRow(id=item.id, session_id=item.session_id,
                      reason=f"row {checkpoint.rows} of the chain is not the one the checkpoint recorded "
                             "(rows were replaced)")
    return None


def first_keyed_position(chain: Sequence[AuditRecord | PurgedRow], macs: Mapping[int, Mac]) -> int | None:
    """Chain position of the first row that carries an HMAC (None when no row does)."""
    for position, item in enumerate(chain):
        if isinstance(item, AuditRecord) and macs.get(item.id or 0, (None, None))[0] is not None:
            return position
    return None


@dataclass
class AnchorVerdict:
    """What the key and the checkpoint say about a chain whose sha256 links already hold."""

    bad: BadRow | None = None
    keyed_rows: int = 0
    anchored: bool = False
    notes: list[str] = field(default_factory=list)


def check_anchor(chain: Sequence[AuditRecord | PurgedRow], macs: Mapping[int, Mac], key: bytes | None,
                 checkpoint: Checkpoint | None, unreadable: str | None = None, *, key_path: str,
                 checkpoint_path: str) -> AnchorVerdict:
    """Check a chain against the anchor outside the database: every keyed row's HMAC and the sealed checkpoint.

    Rows before the checkpoint's `keyed_from` predate the key (an older home): they are verified by their sha256
    links alone. With no key and no checkpoint the trail is not anchored yet, unless a row carries an HMAC.
    """
    if unreadable is not None:
        return AnchorVerdict(BadRow(id=None, reason=f"{unreadable} (edited or replaced)"))
    if key is None:
        if checkpoint is not None:
            return AnchorVerdict(BadRow(id=None, reason=f"the checkpoint {checkpoint_path} exists but the audit key "
                                                        f"{key_path} is missing: restore the key"))
        first = first_keyed_position(chain, macs)
        if first is not None:
            return AnchorVerdict(_bad(chain[first], f"it is sealed with an audit key (key id "  # type: ignore[arg-type]
                                      f"{macs[chain[first].id or 0][1]}) but there is no key at {key_path}: restore "
                                      "it, or set EVIDENCE_AUDIT__KEY_FILE"))
        return AnchorVerdict(notes=[f"not anchored: no audit key yet at {key_path} (the next run creates it); until "
                                    "then rows cut from the end cannot be told from rows never written"])
    if checkpoint is None:
        if not chain:
            return AnchorVerdict(notes=["no checkpoint yet: the trail is empty"])
        return AnchorVerdict(BadRow(id=None, reason=f"the checkpoint {checkpoint_path} is missing, so rows cut from "
                                                    "the end cannot be ruled out (a key provisioned for an existing "
                                                    "trail starts one with: evidence audit anchor)"))
    if not checkpoint_holds(key, checkpoint):
        return AnchorVerdict(BadRow(id=None, reason=f"the checkpoint {checkpoint_path} does not match the audit key "
                                                    "(edited, or made with another key)"))
    bad, keyed = check_macs(chain, macs, key, checkpoint.keyed_from)
    bad = bad or check_checkpoint(chain, checkpoint)
    notes = [f"{checkpoint.keyed_from} rows predate the audit key: checked by their sha256 chain only"] \
        if checkpoint.keyed_from else []
    return AnchorVerdict(bad, keyed, anchored=bad is None, notes=notes)


def _bad(item: AuditRecord, reason: str) -> BadRow:
    return BadRow(id=item.id, session_id=item.session_id, reason=reason)

