"""The home of calibration writes: one Platt scaling per workspace, replaced by each `evidence calibrate`."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Engine
from sqlmodel import Session

from ledger.storage.tables import CalibrationRow


class CalibrationStore:
    """Reads and writes the `calibrations` table."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def get(self, workspace: str) -> CalibrationRow | None:
        """The workspace's calibration, if one was fitted."""
        with Session(self.engine) as session:
            return session.get(CalibrationRow, workspace)

    def put(self, workspace: str, a: float, b: float, n: int, ece_before: float, ece_after: float) -> None:
        """Store (or replace) the workspace's calibration, in one transaction."""
        with Session(self.engine) as session:
            row = session.get(CalibrationRow, workspace) or CalibrationRow(
                workspace=workspace, a=a, b=b, n=n, ece_before=ece_before, ece_after=ece_after,
                fitted_at=datetime.now(UTC),
            )
            row.a, row.b, row.n, row.ece_before, row.ece_after = a, b, n, ece_before, ece_after
            row.fitted_at = datetime.now(UTC)
            session.add(row)
            session.commit()
