#!/usr/bin/env python
"""Build contrast pairs for the checker's training: one word of an entailed claim changed by WordNet's relations.

The NLI data teaches the checker that a claim whose words all appear in the evidence is entailed; it reads "the
stitches are removed by the surgeon" as entailed by "... by the practice nurse", "turned on" by "turn off", and
"Lena Brandt, chief financial officer" by "chief executive Lena Brandt". This script makes minimal pairs from the
entailed rows of the training split (the premise stays, the claim changes by one word or name), labelled by the
relation, so that the model learns what a change of one word does:

- `aug_sibling`  (contradiction): a noun of the claim that the premise also has, replaced by another kind of the same
  thing (WordNet: another hyponym of the noun's commonest sense's hypernym) — "nurse" → "surgeon";
- `aug_antonym`  (contradiction): a word replaced by its WordNet antonym — "before" → "after", "on" → "off";
- `aug_name`     (contradiction): a full name of the claim (two or more capitalised words, also in the premise)
  replaced by another full name the premise gives, or two such names of the claim swapped;
- `aug_synonym`  (entailment): a noun replaced by another word of its commonest sense — "physician" → "doctor";
- `aug_hypernym` (entailment): a noun replaced by its direct hypernym — "a dog" → "an animal" — only in claims
  without a quantifier or negation (under "all" or "no" a broader word is no longer implied).

Only words common in the training data are put in (at least --min-count occurrences), so the new claims read as
English. Claims with a negation or a quantifier are left alone for the contradiction kinds too: "is not large" →
"is not small" is no contradiction. Every row keeps its source row's premise; `source` names the kind and `origin`
the source row's tag. Seeded; the same command writes the same file.

    .venv/bin/python scripts/build_contrast_pairs.py --out /work/checker_runs_s23/contrast_pairs.jsonl
    .venv/bin/python scripts/build_contrast_pairs.py --split dev --out /work/checker_runs_s23/contrast_dev.jsonl
"""
from __future__ import annotations

import argparse
import collections
import gzip
import json
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ledger.judge.word_relations import WordNetTable, bundled_wordnet  # noqa: E402
from ledger.text.terms import negation_cues  # noqa: E402

DATA_DIR = Path("/work/shared/data/nli")
WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
NAME = re.compile(r"\b[A-Z][a-z]+(?:[ -][A-Z][a-z]+)+\b")  # two or more capitalised words in a row
# Words whose scope flips what a changed word implies ("not small" is no contradiction of "not large"; "all
# animals" does not follow from "all dogs"): claims with one, or with a negation the judge reads (`negation_cues`),
# are not changed.
QUANTIFIERS = {"all", "every", "each", "any", "only", "few", "fewer", "less", "least", "most", "some"}
FUNCTION = {"a", "an", "the", "of", "in", "on", "at", "to", "for", "by", "with", "from", "and", "or", "is", "are",
            "was", "were", "be", "been", "it", "its", "this", "that", "he", "she", "they", "his", "her", "their",
            "has", "have", "had", "as", "there"}
MAX_KINDS = 50  # siblings only under a hypernym with at most this many kinds: "artifact" makes "toy" a cloth's rival
ANTONYM_POS = ("a", "r", "v")  # opposites of adjectives, adverbs and verbs; nouns' antonyms are rare and odd


def load_split(name: str) -> list[dict]:
    with gzip.open(DATA_DIR / f"{name}.jsonl.gz", "rt") as f:
        return [json.loads(line) for line in f]


class Lexicon:
    """WordNet's words by sense, a sense's direct hypernyms and hyponyms, and how often the data uses each word."""

    def __init__(self, table: WordNetTable, counts: collections.Counter, lowercase: collections.Counter) -> None:
        self.table = table
        self.counts = counts
        self.lowercase = lowercase  # how often each word is written in lower case
        self.words_of: dict[int, list[str]] = collections.defaultdict(list)
        for lemma, i in table.lemma_index.items():
            for s in table.senses[table.sense_start[i]:table.sense_start[i + 1]]:
                self.words_of[int(s)].append(lemma)
        self.children: dict[int, list[int]] = collections.defaultdict(list)
        self.parents: dict[int, list[int]] = collections.defaultdict(list)
        for s in range(len(table.ancestor_start) - 1):
            for up, d in table.hypernyms(s).items():
                if d == 1:
                    self.children[up].append(s)
                    self.parents[s].append(up)

    def common(self, word: str, at_least: int) -> bool:
        return " " not in word and "_" not in word and word.isalpha() and self.counts[word] >= at_least

    def word_for(self, sense: int, at_least: int, exclude: set[str] = frozenset()) -> str | None:
        """The commonest word for this sense that means it first: the sense is one of the word's two commonest of
        its part of speech ("head" is a kind of domestic animal only in its rarest sense)."""
        pos = "nvar"[int(self.table.pos[sense])]
        words = [w for w in self.words_of[sense] if w not in exclude and self.common(w, at_least)
                 and sense in self.senses(w, pos)[:2]]
        return max(words, key=lambda w: self.counts[w], default=None)

    def proper(self, name: str) -> bool:
        """Whether every word of a capitalised phrase is a name rather than a title's word ("In Cold Blood",
        "King John"): the data writes none of them in lower case."""
        return all(self.lowercase[w.lower()] == 0 for w in re.split(r"[ -]", name))

    def senses(self, lemma: str, pos: str) -> tuple[int, ...]:
        return self.table._lemma_senses(lemma, pos)

    def noun_base(self, word: str) -> str | None:
        """The noun's base form when the word is mainly a noun: it has more noun senses than verb and adjective
        senses together (so "runs" and "open" are not taken for nouns)."""
        base = self.table._base_form(word, "n")
        if base is None:
            return None
        nouns = len(self.senses(base, "n"))
        others = sum(len(self.senses(b, p)) for p in ("v", "a") if (b := self.table._base_form(word, p)))
        return base if nouns > others else None


def plural(noun: str) -> str:
    if re.search(r"(s|x|z|ch|sh)$", noun):
        return noun + "es"
    if re.search(r"[^aeiou]y$", noun):
        return noun[:-1] + "ies"
    return noun + "s"


def inflect_like(original: str, base: str, new: str) -> str | None:
    """`new` in the form `original` has (its base `base`): the same word, or a plain plural; None otherwise."""
    if original == base:
        return new
    if original == plural(base):
        return plural(new)
    return None


def tokenise(text: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group()) for m in WORD.finditer(text)]


def replaced(text: str, start: int, end: int, new: str) -> str:
    before = text[:start]
    m = re.search(r"\b(a|an|A|An)\s+$", before)
    if m:  # the article agrees with the new word
        lead = "an" if new[0].lower() in "aeiou" else "a"
        lead = lead.capitalize() if m.group(1)[0].isupper() else lead
        before = before[:m.start(1)] + lead + before[m.end(1):]
    return before + new + text[end:]


def candidates(row: dict, lex: Lexicon, rng: random.Random, min_count: int) -> list[dict]:
    """Every change this row allows, at most one of each kind (the word chosen at random)."""
    hyp, prem = row["hypothesis"], row["premise"]
    words = tokenise(hyp)
    lower = {w.lower() for _, _, w in words}
    if negation_cues(hyp) or lower & QUANTIFIERS or len(words) < 3 or len(words) > 40:
        return []
    prem_lower = {w.lower() for _, _, w in tokenise(prem)}
    out: list[dict] = []
    by_kind: dict[str, list[tuple[int, int, str]]] = collections.defaultdict(list)
    for a, b, w in words:
        low = w.lower()
        if low in FUNCTION or len(low) < 3 or w[0].isupper():  # capitalised: a name, or a sentence's first word
            continue
        base = lex.noun_base(low) if not low.endswith("ing") else None  # "blessing" is mostly a verb's form
        if base is not None and low in prem_lower:
            first = lex.senses(base, "n")[0]
            mine = set(lex.senses(base, "n")[:3])
            synonyms = {w} if (w := lex.word_for(first, min_count, {base})) else set()
            siblings = {x for up in lex.parents[first] if len(lex.children[up]) <= MAX_KINDS
                        for sib in lex.children[up] if sib not in mine
                        if (x := lex.word_for(sib, min_count, {base}))}
            siblings = {x for x in siblings if not (set(lex.senses(x, "n")[:3]) & mine)}
            broader = {x for up in lex.parents[first] if (x := lex.word_for(up, min_count, {base}))}
            for kind, pool in (("aug_sibling", siblings), ("aug_synonym", synonyms), ("aug_hypernym", broader)):
                for new in sorted(pool, key=lambda x: -lex.counts[x])[:3]:  # the commonest: English, not jargon
                    form = inflect_like(low, base, new)
                    if form and form not in lower and form not in prem_lower:
                        by_kind[kind].append((a, b, form))
        for pos in ANTONYM_POS:
            base_p = lex.table._base_form(low, pos)
            if base_p != low:  # base forms only: "after", "open", "increase"; inflecting verbs is not attempted
                continue
            if len(lex.senses(low, pos)) < len(lex.senses(lex.noun_base(low) or "", "n")):
                continue  # mainly a noun ("center")
            for s in lex.senses(low, pos)[:2]:
                for opp in lex.table.opposites(s):
                    new = lex.word_for(opp, min_count)
                    if new and new not in lower:
                        by_kind["aug_antonym"].append((a, b, new))
    names_h = [n for n in dict.fromkeys(m.group() for m in NAME.finditer(hyp)) if lex.proper(n)]
    names_p = [n for n in dict.fromkeys(m.group() for m in NAME.finditer(prem)) if lex.proper(n)]
    shared = [n for n in names_h if n in prem]
    # another person, not the same one named in full or in part ("Truman Capote", "Truman Garcia Capote")
    others = [n for n in names_p if n not in hyp and not any(set(re.split(r"[ -]", n)) & set(re.split(r"[ -]", x))
                                                             for x in names_h)]
    if shared and others:
        n = rng.choice(shared)
        out.append({"new": hyp.replace(n, rng.choice(others)), "kind": "aug_name", "label": "contradiction"})
    elif len(shared) >= 2:
        x, y = rng.sample(shared, 2)
        if set(re.split(r"[ -]", x)) & set(re.split(r"[ -]", y)):
            return out
        between = hyp[min(hyp.index(x), hyp.index(y)):max(hyp.index(x), hyp.index(y))]
        if not re.search(r"\b(and|or|with|between|&)\b|,", between):  # "X and Y met" says the same swapped
            swapped = hyp.replace(x, "\0").replace(y, x).replace("\0", y)
            out.append({"new": swapped, "kind": "aug_name", "label": "contradiction"})
    labels = {"aug_sibling": "contradiction", "aug_antonym": "contradiction", "aug_synonym": "entailment",
              "aug_hypernym": "entailment"}
    for kind, options in by_kind.items():
        a, b, new = rng.choice(options)
        old = hyp[a:b]
        new = new.capitalize() if old[0].isupper() else new
        out.append({"new": replaced(hyp, a, b, new), "kind": kind, "label": labels[kind], "changed": f"{old}->{new}"})
    return out


def joined(first: str, second: str, lex: Lexicon) -> str:
    """Two claims as one sentence: "A man plays a guitar, and the man is a musician." """
    first = first.strip().rstrip(".!? ")
    second = second.strip()
    lead = WORD.match(second)
    word = lead.group().lower() if lead else ""
    if word and 2 * lex.lowercase[word] > lex.counts[word] and not NAME.match(second):  # "The" -> "the"; not "Chile"
        second = second[0].lower() + second[1:]
    return f"{first}, and {second.rstrip('.!? ')}."


CONJUNCTION_LABELS = {("entailment", "neutral"): "neutral", ("entailment", "entailment"): "entailment",
                      ("entailment", "contradiction"): "contradiction"}


def conjunctions(rows: list[dict], lex: Lexicon, rng: random.Random, limits: dict[str, int]) -> list[dict]:
    """Two claims about one premise joined by "and": entailed only when both parts are, neutral when one part is
    not stated, a contradiction when one part is ruled out (`aug_and_neutral`, `aug_and_entailed`,
    `aug_and_contradicted`). A claim that adds an unstated detail to a stated one is not supported; the NLI data's
    claims are mostly single facts, so the checker has not learned that."""
    by_premise: dict[str, dict[str, list[dict]]] = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in rows:
        by_premise[r["premise"]][r["label"]].append(r)
    premises = list(by_premise)
    rng.shuffle(premises)
    out: list[dict] = []
    made: collections.Counter = collections.Counter()
    for premise in premises:
        labelled = by_premise[premise]
        entailed = labelled["entailment"]
        if not entailed:
            continue
        for other in ("neutral", "entailment", "contradiction"):
            pool = [r for r in labelled[other] if r is not entailed[0]]
            kind = {"neutral": "aug_and_neutral", "entailment": "aug_and_entailed",
                    "contradiction": "aug_and_contradicted"}[other]
            if not pool or made[kind] >= limits.get(kind, 0):
                continue
            a, b = entailed[0], rng.choice(pool)
            parts = [a["hypothesis"], b["hypothesis"]]
            rng.shuffle(parts)
            made[kind] += 1
            out.append({"premise": premise, "hypothesis": joined(*parts, lex), "label": CONJUNCTION_LABELS[
                ("entailment", other)], "source": kind, "origin": a["source"], "original": a["hypothesis"],
                "changed": f"and {b['hypothesis']}"})
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--split", default="train")
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=23)
    p.add_argument("--show", type=int, default=4, help="print this many examples of each kind")
    p.add_argument("--min-count", type=int, default=5, help="a new word must occur this often in the split")
    p.add_argument("--limit", default="aug_sibling=4000,aug_antonym=2500,aug_name=2500,aug_synonym=2000,"
                                      "aug_hypernym=1500,aug_and_neutral=2500,aug_and_entailed=1500,"
                                      "aug_and_contradicted=1000", help="at most this many rows of each kind")
    a = p.parse_args()
    rng = random.Random(a.seed)
    rows = load_split(a.split)
    counts = collections.Counter(w.lower() for r in rows for text in (r["premise"], r["hypothesis"])
                                 for _, _, w in tokenise(text))
    lowercase = collections.Counter(w for r in rows for text in (r["premise"], r["hypothesis"])
                                    for _, _, w in tokenise(text) if w.islower())
    lex = Lexicon(bundled_wordnet(), counts, lowercase)
    limits = {k: int(v) for k, v in (x.split("=") for x in a.limit.split(","))}
    made: dict[str, list[dict]] = collections.defaultdict(list)
    entailed = [r for r in rows if r["label"] == "entailment"]
    rng.shuffle(entailed)
    for r in entailed:
        for c in candidates(r, lex, rng, a.min_count):
            if len(made[c["kind"]]) < limits.get(c["kind"], 0):
                made[c["kind"]].append({"premise": r["premise"], "hypothesis": c["new"], "label": c["label"],
                                        "source": c["kind"], "origin": r["source"], "original": r["hypothesis"],
                                        "changed": c.get("changed", "")})
    for row in conjunctions(rows, lex, rng, limits):
        made[row["source"]].append(row)
    out = [row for kind in sorted(made) for row in made[kind]]
    rng.shuffle(out)
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    with open(a.out, "w") as f:
        for row in out:
            f.write(json.dumps(row) + "\n")
    print(json.dumps({k: len(v) for k, v in sorted(made.items())}), "->", a.out)
    for kind in sorted(made):
        for row in made[kind][:a.show]:
            print(f"{kind:13} {row['original']!r}\n{'':13} {row['hypothesis']!r}")


if __name__ == "__main__":
    main()
