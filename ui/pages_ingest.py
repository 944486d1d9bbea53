"""Documents: upload files or name a folder on the server, ingest them with progress, see what is indexed."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd
import streamlit as st

from ledger.core.settings import Settings
from ui import services
from ui.outcome import plural
from ui.services import guarded, plain

if TYPE_CHECKING:
    from streamlit.runtime.uploaded_file_manager import UploadedFile

    from ingest.types import IngestReport
    from ledger.core.types import DocumentInfo

REPORT_KEY = "ingest_report"
UPLOADER_KEY = "ingest_uploader_round"


class PageProgress:
    """Draws the ingest progress protocol (ingest.pipeline.IngestProgress) as two progress bars."""

    def __init__(self) -> None:
        self.files_total = self.files_done = self.chunks_total = self.chunks_done = 0
        self.files_bar = st.progress(0.0, text="Looking for files…")
        self.chunks_bar = st.progress(0.0, text="Chunks embedded: waiting for the first file")

    def files_found(self, total: int) -> None:
        self.files_total = total
        self.files_bar.progress(0.0 if total else 1.0, text=f"Files read: 0 of {total}")

    def file_read(self, path: Path) -> None:
        self.files_done += 1
        share = self.files_done / self.files_total if self.files_total else 1.0
        self.files_bar.progress(min(share, 1.0), text=f"Files read: {self.files_done} of {self.files_total} "
                                                      f"({plain(path.name)})")

    def chunks_queued(self, count: int) -> None:
        self.chunks_total += count
        self._chunks()

    def chunks_embedded(self, count: int) -> None:
        self.chunks_done += count
        self._chunks()

    def _chunks(self) -> None:
        share = self.chunks_done / self.chunks_total if self.chunks_total else 0.0
        self.chunks_bar.progress(min(share, 1.0), text=f"Chunks embedded: {self.chunks_done} of {self.chunks_total}")


def render() -> None:
    """The Documents page."""
    config = guarded(services.settings)
    if config is None:
        return
    workspace = services.current_workspace(config)
    st.title("Documents", anchor=False)
    st.caption(f"Add documents to workspace **{plain(workspace)}**. Re-ingesting is safe: unchanged files are "
               "skipped, changed files replace their old chunks, and one bad file never stops a batch.")
    round_no = st.session_state.setdefault(UPLOADER_KEY, 0)
    with st.container(border=True):
        upload, folder_col = st.columns(2, gap="large")
        uploads = upload.file_uploader(
            "Upload files", accept_multiple_files=True, key=f"ingest_uploads_{round_no}",
            type=[ext.lstrip(".") for ext in config.ingest.extensions],
            max_upload_size=max(1, math.ceil(config.ingest.max_file_mb)),
            help=f"Saved to {upload_folder(config, workspace)} on the server (this workspace only), then ingested.",
        )
        folder = folder_col.text_input("…or a folder or file on the server", key="ingest_folder",
                                       placeholder="/data/policies")
        prune = folder_col.checkbox("Remove documents whose files are gone", key="ingest_prune")
        reparse = folder_col.checkbox("Read unchanged files again", key="ingest_reparse",
                                      help="After an upgrade that reads files better (PDF tables, for one).")
        clashes = name_clashes(upload_folder(config, workspace), uploads or [])
        replace = True
        if clashes:
            st.warning(f"{len(clashes)} uploaded file(s) have the name of a different file already uploaded to this "
                       f"workspace: {', '.join(plain(n) for n in clashes)}.", icon=":material/difference:")
            replace = st.checkbox("Replace them (the old versions are kept in the workspace's .versions folder)",
                                  key=f"ingest_replace_{round_no}")
        start = st.button("Ingest", type="primary", icon=":material/upload:",
                          disabled=(not uploads and not folder) or not replace)
    if start:
        report = _ingest(config, workspace, uploads or [], folder.strip(), prune, reparse)
        if report is not None:
            st.session_state[REPORT_KEY] = report
            st.session_state[UPLOADER_KEY] = round_no + 1  # a fresh, empty uploader
            if report.documents_added or report.documents_updated or report.documents_pruned:
                services.forget_pipelines()  # pipelines built before must see the new corpus
            st.rerun()
    report = st.session_state.get(REPORT_KEY)
    if report is not None:
        show_report(report)
    _document_list(config, workspace)


def _ingest(config: Settings, workspace: str, uploads: list[UploadedFile], folder: str,
            prune: bool, reparse: bool = False) -> IngestReport | None:
    paths = guarded(lambda: save_uploads(upload_folder(config, workspace), uploads))
    if paths is None:
        return None
    if folder:
        paths.append(Path(folder).expanduser())
    with st.status("Ingesting…", expanded=True) as status:
        progress = PageProgress()

        def run() -> IngestReport:
            from ledger.loop.factory import build_ingestor

            return build_ingestor(config, workspace).run(paths, prune=prune, progress=progress, reparse=reparse)

        report = guarded(run)
        status.update(label="Ingest finished" if report else "Ingest stopped", state="complete" if report else "error")
    return report


def upload_folder(config: Settings, workspace: str) -> Path:
    """Where a workspace's uploads are kept: under the data home, one folder per (validated) workspace name."""
    return config.home / "uploads" / services.validate_workspace(workspace)


def _bare_name(upload: UploadedFile) -> str:
    return Path(upload.name.replace("\\", "/")).name  # never a path from the browser: only the bare file name


def name_clashes(folder: Path, uploads: list[UploadedFile]) -> list[str]:
    """Names of uploads that would replace a different file already uploaded to the workspace."""
    clashes = []
    for upload in uploads:
        target = folder / _bare_name(upload)
        if target.is_file() and target.read_bytes() != upload.getvalue():
            clashes.append(target.name)
    return clashes


def save_uploads(folder: Path, uploads: list[UploadedFile]) -> list[Path]:
    """Save uploads in the workspace's folder; a file replaced by a different one moves to .versions/ first."""
    folder.mkdir(parents=True, exist_ok=True)
    saved = []
    for upload in uploads:
        name = _bare_name(upload)
        if name in ("", ".", "..") or name.startswith("."):
            continue
        target = folder / name
        data = upload.getvalue()
        if target.is_file() and target.read_bytes() != data:
            versions = folder / ".versions"
            versions.mkdir(exist_ok=True)
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
            target.replace(versions / f"{target.stem}.{stamp}{target.suffix}")
        target.write_bytes(data)
        saved.append(target)
    return saved


def show_report(report: IngestReport) -> None:
    """What the last ingest did, failures with their reasons."""
    st.subheader("Last ingest", anchor=False)
    cols = st.columns(6)
    cols[0].metric("Added", report.documents_added, border=True)
    cols[1].metric("Updated", report.documents_updated, border=True)
    cols[2].metric("Unchanged", report.documents_unchanged, border=True)
    cols[3].metric("Chunks written", report.chunks_added, border=True)
    cols[4].metric("Failed", len(report.failed), border=True)
    cols[5].metric("Seconds", f"{report.seconds:.1f}", border=True)
    if report.documents_pruned:
        st.caption(f"{report.documents_pruned} documents removed because their files are gone.")
    if report.failed:
        st.error(f"{len(report.failed)} file(s) could not be ingested; the rest of the batch went through.",
                 icon=":material/error:")
        st.dataframe(pd.DataFrame([{"File": f.path, "Reason": f.error} for f in report.failed]), hide_index=True,
                     width="stretch")
    else:
        st.success("Every file was ingested.", icon=":material/check_circle:")


def _document_list(config: Settings, workspace: str) -> None:
    docs = guarded(lambda: services.documents(config, workspace))
    if docs is None:
        return
    st.subheader(f"Documents in {plain(workspace)}", anchor=False)
    if not docs:
        st.info("No documents yet. Upload files or name a folder above.", icon=":material/folder_open:")
        return
    st.caption(f"{plural(len(docs), 'document')}, {plural(sum(d.chunks for d in docs), 'chunk')}.")
    frame = pd.DataFrame([{
        "Title": d.title,
        "File": Path(d.path).name,
        "Date": d.date,
        "Date from": d.date_source,
        "Chunks": d.chunks,
        "Ingested (UTC)": d.ingested_at.replace(tzinfo=None),
        "Path": d.path,
    } for d in docs])
    st.dataframe(frame, hide_index=True, width="stretch", column_config={
        "Title": st.column_config.TextColumn(width="medium"),
        "Date": st.column_config.DateColumn(format="YYYY-MM-DD"),
        "Ingested (UTC)": st.column_config.DatetimeColumn(format="YYYY-MM-DD HH:mm"),
    })
    by_id = {d.id: d for d in docs}
    chosen = st.selectbox("Open a document", list(by_id), index=None, key="doc_open",
                          format_func=lambda i: f"{by_id[i].title} · {Path(by_id[i].path).name}",
                          placeholder="Choose a document to read its chunks or delete it")
    if chosen is None or chosen not in by_id:
        return
    doc = by_id[chosen]
    _delete_control(config, workspace, doc)
    from ui.evidence import document_viewer

    document_viewer(config, doc)


def _delete_control(config: Settings, workspace: str, doc: DocumentInfo) -> None:
    """Delete, after an explicit confirmation naming what goes."""
    asking = st.session_state.get("doc_delete") == doc.id
    if not asking:
        if st.button("Delete this document…", icon=":material/delete:", key="doc_delete_start"):
            st.session_state["doc_delete"] = doc.id
            st.rerun()
        return
    with st.container(border=True):
        st.warning(f"Delete **{plain(doc.title)}** and its {doc.chunks} chunks from workspace **{plain(workspace)}**? "
                   "Answers will no longer cite it; stored runs keep their quotes. The file itself is not touched.",
                   icon=":material/delete:")
        with st.container(horizontal=True):
            confirm = st.button("Delete", type="primary", key="doc_delete_confirm")
            cancel = st.button("Cancel", key="doc_delete_cancel")
    if cancel:
        st.session_state.pop("doc_delete", None)
        st.rerun()
    if confirm:
        st.session_state.pop("doc_delete", None)
        removed = guarded(lambda: services.delete_document(config, workspace, doc.id))
        if removed is not None:
            services.forget_pipelines()
            st.session_state.pop("doc_open", None)
            st.toast(f"Deleted {doc.title[:80]} ({removed} chunks)", icon=":material/delete:")
            st.rerun()
