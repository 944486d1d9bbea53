"""The Streamlit UI of Evidence Ledger: ingest, ask, verify a draft, history and export (run: evidence ui)."""
