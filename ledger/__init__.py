"""Evidence Ledger: judge, writer, revision loop, audit trail and the `evidence` CLI."""
