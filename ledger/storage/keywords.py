"""The keyword index of every workspace's chunks, kept in the database beside the registry.

Dense search finds paraphrases; it is weak on what must match letter for letter: figures ("$25,000"),
codes ("ISO 27001", "FY2025"), names. This index finds those. It is the database's own full-text engine,
so it is persisted, updated with each document's chunks as ingest writes them, and never rebuilt per query:

- SQLite: the table `chunk_text` and an external-content FTS5 index over it (`chunk_fts`, `porter unicode61`
  tokenizer, kept in step by triggers), ranked by BM25;
- PostgreSQL: the table `chunk_text` with a stored `tsvector` and a GIN index, ranked by `ts_rank_cd`.

Rows are keyed by the chunk's vector id (which names its workspace and document), exactly like Chroma.

A query is the OR of its words less the function words it is given (the lexicon's; storage reads no word list
itself), so a chunk needs only some of them and ranks higher the rarer the words it shares. Dropping "the", "of",
"is" changes little of BM25's order but spares the engine scoring nearly every row: at 10k chunks the median
query time halved.

On SQLite, BM25 costs a few microseconds for each chunk that contains any query word, and at 100k chunks an
ordinary word ("year", "water") is in tens of thousands of them. So when the query's words together appear in
more than `SCORING_BUDGET` chunks of the workspace (each word's count in the whole index, times the workspace's
share of the index), only the chunks that contain one of its rarest words (as many as fit the budget, at least
the rarest one) are scored, still by BM25 over all the words. A chunk sharing only common words with the query is
left out; those are the chunks BM25 ranks lowest. Below the budget the query is unchanged. The budget is 5,000:
on the 100k-chunk store of bench/query_scale.py, the hybrid search's recall of the answer passage is the same as
with every match scored (held-out questions: recall@5 0.580 against 0.572, keyword recall@20 0.628 both), while
the top 20 equal the unbounded ones for 82% of questions (the rest differ among near-ties); 3,000 lost recall.
Only a workspace that is most of the index uses it: one that is a small part is ranked within its own rows, which
are all that is scored there.

Where the time goes on SQLite, and how it is kept down without changing a result (`_search_sqlite`): BM25 is about
2 microseconds a scored row, and looking up each row's workspace costs nearly as much. A workspace that is most of
the index ranks the FTS rows alone and looks up only the best few; a workspace that is a small part of it reads
its own rowids once and filters the matches by them. At 100k chunks the median query went 53 -> 34 ms, and a 1k
workspace beside it 45 -> 10 ms, with the same hits and scores for every question of bench/query_scale.py; the
budget of 5,000 (was 10,000) took the 100k median to 19 ms and its p95 from 47 to 32 ms.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable
from contextlib import closing
from dataclasses import dataclass, replace

from sqlalchemy import Connection, Engine, text

from ledger.core.types import Chunk

MAX_QUERY_TERMS = 32
FTS_TOKENIZER = "porter unicode61"  # the SQLite index's tokenizer (storage.database's migration creates it)
SCORING_BUDGET = 5_000  # SQLite: chunks scored per query at most (about the rarest words' share)
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class KeywordHit:
    """A chunk found by keyword: its vector id, its hash, its rank score (higher is better, within one query) and,
    when asked for, the share of the query's words it contains as the index reads them (stemmed)."""

    chunk_id: str
    chunk_hash: str
    score: float
    matched: float = 1.0


def query_terms(query: str, stopwords: frozenset[str] = frozenset()) -> list[str]:
    """The distinct words of a query, in order, as the index tokenises them (lower case, at most 32), without the
    given function words."""
    words = dict.fromkeys(w.lower() for w in _WORD.findall(query) if len(w) > 1 or w.isdigit())
    words = dict.fromkeys(w for w in words if w not in stopwords)
    return list(words)[:MAX_QUERY_TERMS]


class KeywordIndex:
    """Full-text search over the chunks of one workspace."""

    def __init__(self, engine: Engine, workspace: str, stopwords: frozenset[str] = frozenset()) -> None:
        self.engine = engine
        self.workspace = workspace
        self.stopwords = stopwords  # left out of queries
        self.dialect = engine.dialect.name
        self._sizes: tuple[int, int] | None = None  # (the workspace's rows, the index's rows); see _sizes_of

    def upsert(self, rows: Iterable[tuple[str, Chunk]]) -> None:
        """Index chunks by their vector ids (an id already indexed is replaced)."""
        batch = [{"id": i, "w": self.workspace, "h": chunk.hash, "body": chunk.text} for i, chunk in rows]
        if not batch:
            return
        self._sizes = None
        with self.engine.begin() as conn:
            conn.execute(text("DELETE FROM chunk_text WHERE chunk_id = :id"), [{"id": r["id"]} for r in batch])
            insert = "INSERT INTO chunk_text (chunk_id, workspace, chunk_hash, body) VALUES (:id, :w, :h, :body)"
            conn.execute(text(insert), batch)

    def delete(self, chunk_ids: Iterable[str]) -> None:
        """Forget chunks by their vector ids."""
        ids = [{"id": i} for i in chunk_ids]
        if ids:
            self._sizes = None
            with self.engine.begin() as conn:
                conn.execute(text("DELETE FROM chunk_text WHERE chunk_id = :id"), ids)

    def ids(self) -> set[str]:
        """Every indexed chunk id of the workspace."""
        with self.engine.connect() as conn:
            rows = conn.execute(text("SELECT chunk_id FROM chunk_text WHERE workspace = :w"), {"w": self.workspace})
            return {row[0] for row in rows}

    def count(self) -> int:
        """How many chunks of the workspace are indexed."""
        with self.engine.connect() as conn:
            return self._count(conn)

    def _count(self, conn: Connection) -> int:
        found = conn.execute(text("SELECT COUNT(*) FROM chunk_text WHERE workspace = :w"), {"w": self.workspace})
        return int(found.scalar_one())

    def search(self, query: str, k: int, shares: bool = False) -> list[KeywordHit]:
        """The k chunks that best match the query's words, best first; none when it has no words. With `shares`,
        each hit also says what share of the query's words it contains (`KeywordHit.matched`)."""
        terms = query_terms(query, self.stopwords)
        if not terms or k <= 0:
            return []
        hits = self._search(terms, k)
        if not shares or not hits:
            return hits
        with self.engine.connect() as conn:
            found = self._shares(conn, terms, [hit.chunk_id for hit in hits])
        return [replace(hit, matched=found.get(hit.chunk_id, 0.0)) for hit in hits]

    def _shares(self, conn: Connection, terms: list[str], chunk_ids: list[str]) -> dict[str, float]:
        """For each chunk, the share of the words it contains, read as the index reads them. PostgreSQL asks each
        row's stored tsvector; SQLite, whose FTS5 index finds a word's rows but cannot cheaply say whether a given
        row holds it (a lookup per word among 40 rows took 15 ms at 100k chunks), indexes just these rows' texts in
        a throw-away in-memory FTS5 table with the same tokenizer (about 2 ms)."""
        marks = ", ".join(f":c{i}" for i in range(len(chunk_ids)))
        ids = {f"c{i}": c for i, c in enumerate(chunk_ids)}
        if self.dialect == "postgresql":
            words = {f"t{i}": f"'{t}'" for i, t in enumerate(terms)}
            # only the words the english configuration keeps can match ("the", "by" are dropped from every tsvector)
            kept = conn.execute(text("SELECT " + ", ".join(f"numnode(to_tsquery('english', :{n}))" for n in words)),
                                words).one()
            usable = [n for n, nodes in zip(words, kept, strict=True) if nodes]
            if not usable:
                return dict.fromkeys(chunk_ids, 0.0)
            each = ", ".join(f"(tsv @@ to_tsquery('english', :{n}))::int" for n in usable)
            rows = conn.execute(text(f"SELECT chunk_id, {each} FROM chunk_text WHERE chunk_id IN ({marks})"),
                                {**ids, **words})
            return {row[0]: sum(row[1:]) / len(usable) for row in rows}
        bodies = conn.execute(text(f"SELECT chunk_id, body FROM chunk_text WHERE chunk_id IN ({marks})"), ids).all()
        counts = dict.fromkeys((row[0] for row in bodies), 0)
        with closing(sqlite3.connect(":memory:")) as scratch:
            scratch.execute(f"CREATE VIRTUAL TABLE s USING fts5(body, tokenize='{FTS_TOKENIZER}')")
            scratch.executemany("INSERT INTO s (rowid, body) VALUES (?, ?)",
                                [(n, row[1]) for n, row in enumerate(bodies)])
            either = " UNION ALL ".join("SELECT rowid FROM s WHERE s MATCH ?" for _ in terms)
            for (n,) in scratch.execute(either, [_any_of([t]) for t in terms]):
                counts[bodies[n][0]] += 1
        return {chunk_id: n / len(terms) for chunk_id, n in counts.items()}

    def _search(self, terms: list[str], k: int) -> list[KeywordHit]:
        if self.dialect != "postgresql":
            return self._search_sqlite(terms, k)
        sql = (
            "SELECT chunk_id, chunk_hash, ts_rank_cd(tsv, q) AS score FROM chunk_text, to_tsquery('english', :q) q "
            "WHERE workspace = :w AND tsv @@ q ORDER BY score DESC, chunk_id LIMIT :k"
        )
        match = " | ".join(f"'{t}'" for t in terms)
        with self.engine.connect() as conn:
            rows = conn.execute(text(sql), {"q": match, "w": self.workspace, "k": k})
            return [KeywordHit(row[0], row[1], float(row[2])) for row in rows]

    def _search_sqlite(self, terms: list[str], k: int) -> list[KeywordHit]:
        """BM25 over FTS5, scoring at most about `SCORING_BUDGET` chunks (see the module's note).

        When the workspace is most of the index, the FTS index is ranked alone and only its best rows are looked up
        (the lookup of every scored row's workspace cost about as much as scoring it); the few rows of other
        workspaces among them are dropped, and if too few are left the ranking is done again within the workspace.
        A workspace that is a small part of the index is ranked within its own rows from the start."""
        with self.engine.connect() as conn:
            own, total = self._sizes_of(conn)
            if 2 * own < total:
                # Ranked within its own rows, only they are scored; restricting to the rare words there would cost
                # more than it saves (10k chunks beside 100k others: median 19 -> 24 ms). Twice k, so that chunks
                # tied at the k-th score are ordered by chunk id like all the others.
                return self._own_rows(conn, _ranked(conn, terms, None, 2 * k, self.workspace))[:k]
            # a workspace of at most the budget's rows never scores more; only a larger one counts its words
            rare = _rarest(conn, terms, own / total) if own > SCORING_BUDGET else None
            fetch = 2 * k * -(-total // max(own, 1))  # twice what the workspace's share of the rows needs
            ranked = _ranked(conn, terms, rare, fetch)
            hits = self._own_rows(conn, ranked)
            if len(hits) >= k or len(ranked) < fetch:
                return hits[:k]
            return self._own_rows(conn, _ranked(conn, terms, rare, 2 * k, self.workspace))[:k]

    def _own_rows(self, conn: Connection, ranked: list[tuple[int, float]]) -> list[KeywordHit]:
        """The workspace's rows among (rowid, score) pairs, best score first (ties by chunk id)."""
        if not ranked:
            return []
        marks = ", ".join(f":r{i}" for i in range(len(ranked)))
        sql = f"SELECT rowid, chunk_id, chunk_hash FROM chunk_text WHERE workspace = :w AND rowid IN ({marks})"
        found = {int(row[0]): (row[1], row[2]) for row in
                 conn.execute(text(sql), {"w": self.workspace, **{f"r{i}": r for i, (r, _) in enumerate(ranked)}})}
        hits = [KeywordHit(*found[rowid], score) for rowid, score in ranked if rowid in found]
        return sorted(hits, key=lambda hit: (-hit.score, hit.chunk_id))

    def _sizes_of(self, conn: Connection) -> tuple[int, int]:
        """The workspace's rows and the whole index's (one index serves every workspace, and only the workspace's
        own matches are scored, so a word's count is taken at the workspace's share). Read once, and again after
        this instance writes."""
        if self._sizes is None:
            total = int(conn.execute(text("SELECT count(*) FROM chunk_text")).scalar_one())
            self._sizes = (self._count(conn), max(total, 1))
        return self._sizes


def _ranked(
    conn: Connection, terms: list[str], rare: list[str] | None, k: int, workspace: str | None = None
) -> list[tuple[int, float]]:
    """(rowid, BM25 score) of the k best rows of the index for the words, best first (ties by rowid); only rows of
    `workspace` when given (its rowids are read once, by the workspace index, and the matches filtered by them:
    a 1k workspace beside 100k other chunks, 44 -> 8 ms, against looking up every match's workspace).

    With `rare`, only rows that contain one of those words are scored. That restriction is written as two queries
    that FTS5 answers by skipping through the rare words' rows: those that also contain a common word (`rare AND
    common`) and those that do not (`rare NOT common`). Every word is a phrase of both, so each row's BM25 is the
    one of the plain OR query."""
    # `+rowid`: a filter on the rows the MATCH yields, not a rowid lookup per candidate
    scope = " AND +rowid IN (SELECT rowid FROM chunk_text WHERE workspace = :w)" if workspace is not None else ""
    common = [t for t in terms if rare and t not in rare]
    def scored(match: str) -> str:
        return f"SELECT rowid, -bm25(chunk_fts) AS score FROM chunk_fts WHERE chunk_fts MATCH :{match}{scope}"

    params: dict[str, object] = {"k": k} if workspace is None else {"k": k, "w": workspace}
    if not rare or not common:
        sql = scored("q")
        params["q"] = _any_of(terms)
    else:
        sql = f"SELECT rowid, score FROM ({scored('a')} UNION ALL {scored('b')})"
        params["a"] = f"({_any_of(rare)}) AND ({_any_of(common)})"
        params["b"] = f"({_any_of(rare)}) NOT ({_any_of(common)})"
    rows = conn.execute(text(f"{sql} ORDER BY score DESC, rowid LIMIT :k"), params)
    return [(int(row[0]), float(row[1])) for row in rows]


def _any_of(terms: list[str]) -> str:
    """An FTS5 query matching any of the words."""
    return " OR ".join(f'"{t}"' for t in terms)


def _rarest(conn: Connection, terms: list[str], share: float = 1.0) -> list[str] | None:
    """The rarest of the words whose chunks together fit the scoring budget (at least one word), or None when all
    of them fit. A word's count is read from the index itself (its posting list) and taken at the workspace's
    `share` of the index's rows.

    A word in more chunks than the whole budget can only be chosen as the rarest when every word is, so each count
    stops there, and all are read in one statement; only when every word reaches that bound are they counted whole,
    to find the rarest. (At 100k chunks this saves about 1 ms at the 95th percentile: the counts were never the
    main cost.)"""
    if len(terms) < 2:
        return None
    bound = int(SCORING_BUDGET / max(share, 1e-9)) + 1
    counts = _counts(conn, terms, bound)
    if all(n >= bound for n in counts):
        counts = _counts(conn, terms, None)
    ranked = sorted((n * share, t) for n, t in zip(counts, terms, strict=True))
    if sum(n for n, _ in ranked) <= SCORING_BUDGET:
        return None
    rare: list[str] = []
    total = 0.0
    for n, term in ranked:
        if rare and total + n > SCORING_BUDGET:
            break
        rare.append(term)
        total += n
    return rare


def _counts(conn: Connection, terms: list[str], bound: int | None) -> list[int]:
    """How many chunks of the whole index contain each word, each counted up to `bound` (None: whole), in one
    statement."""
    limit = "" if bound is None else f" LIMIT {int(bound)}"
    parts = [f"(SELECT count(*) FROM (SELECT 1 FROM chunk_fts WHERE chunk_fts MATCH :t{i}{limit}))"
             for i in range(len(terms))]
    row = conn.execute(text("SELECT " + ", ".join(parts)), {f"t{i}": _any_of([t]) for i, t in enumerate(terms)})
    return [int(n) for n in row.one()]
