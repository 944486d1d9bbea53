"""Claim extraction (seed 004 §3): which sentences of an answer are claims, their type and importance.

Rules, all pure functions of text:
- A sentence is *not* a claim when it is a heading, a question, a marked hypothetical, a first-person
  opinion, a bare connector, an acknowledgement, a meta-statement about the response (including
  "the documents do not say" abstentions, which no quote can support) or a fragment: a title or
  label such as "Leave policy", "Fee Schedule" or "Acme Inc." (verbless, Title Case, or a short
  unpunctuated line without a clear verb). Text with a number or of the form "label: value" is never
  a fragment ("- Standard fee: $150"), and a fragment that cites a chunk is kept: the writer meant it.
- Type precedence is definition > numeric > policy > fact: definitional phrasing is the most
  specific signal of what a sentence does, and a number is the most error-prone part of a rule
  ("must be filed within 30 days" is checked as a number). Importance still sees the number
  whatever the type.
- Importance (§3.5): critical when the claim answers the question (enough shared content stems)
  or states a numeric value; material for policy statements and importance markers; else minor.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from ledger.core.types import Claim, ClaimType, Importance
from ledger.text.lexicon import lexicon
from ledger.text.nltk_parts import PorterStemmer
from ledger.text.sentences import parse_citations, split_sentences
from ledger.text.terms import phrase_pattern

_I = re.IGNORECASE

_PREFIX = r"^(?:(?:for\s+example|for\s+instance|now|so|ok(?:ay)?|well|but|and)[,:]?\s+)?"

_HEADING = re.compile(r"^#{1,6}(?:\s|$)")
_HYPOTHETICAL = re.compile(
    _PREFIX + r"(?:suppose|supposing|hypothetically|imagine|if\s+we\s+(?:imagine|suppose|assume)|"
    r"let(?:'s|\s+us)\s+(?:imagine|suppose|say|assume|pretend)|assum(?:e|ing)\s+(?:that|for\s+a\s+moment)|"
    r"for\s+the\s+sake\s+of\s+argument|in\s+a\s+hypothetical|as\s+a\s+hypothetical|what\s+if)\b",
    _I,
)
_OPINION = re.compile(
    _PREFIX + r"(?:i\s+(?:personally\s+)?(?:think|believe|feel|suspect|guess|reckon|recommend|suggest)|"
    r"in\s+my\s+(?:view|opinion|experience|judg(?:e)?ment)|my\s+(?:view|opinion|sense|impression)\s+is|"
    r"personally|it\s+seems\s+to\s+me|from\s+my\s+(?:perspective|point\s+of\s+view)|"
    r"i(?:\s+would|'d)\s+(?:say|argue|recommend|suggest))\b",
    _I,
)
_ACKNOWLEDGEMENT = re.compile(
    r"^(?:thank\s+you|thanks|i\s+understand|i\s+see\b|(?:great|good|excellent|interesting)\s+question|"
    r"(?:i\s+)?hope\s+this\s+helps|you'?re\s+welcome|(?:happy|glad)\s+to\s+help|i\s+appreciate|"
    r"i(?:'m|\s+am)\s+sorry|i\s+apologi[sz]e|sorry\b|(?:sure|certainly|of\s+course|absolutely|okay|ok|"
    r"got\s+it|understood|no\s+problem)\s*[.!,]*$)",
    _I,
)
_META = re.compile(
    r"^(?:below\s+(?:is|are|i|you|we)\b|let\s+me\b|let's\b|let\s+us\b|i\s+will\b|i'll\b|"
    r"i(?:'m|\s+am)\s+going\s+to\b|"
    r"i(?:\s+have|'ve)\s+(?:summari[sz]ed|outlined|listed|reviewed|compiled|found|looked|checked|searched|"
    r"gathered|included|highlighted|organi[sz]ed)\b|"
    r"i\s+(?:can(?:not|'t)?|could(?:\s+not|n't)?|was\s+(?:not\s+)?(?:un)?able\s+to|do\s+not|don't)\s+"
    r"(?:help|provide|answer|explain|find|confirm|summari[sz]e|have|know|see|locate|determine)\b|"
    r"(?:this|my)\s+(?:answer|response|reply|summary|overview|explanation)\b|"
    r"(?:the\s+)?(?:following|above|below)\s+(?:is|are|summari[sz]es|explains|outlines|lists|describes|"
    r"sections?|table|list|points?|summary|overview)\b|"
    r"to\s+answer\s+(?:your|this|the)\s+question\s*[:.]?$|as\s+(?:requested|you\s+asked)\b|feel\s+free\b|"
    r"(?:please\s+)?let\s+me\s+know\b|if\s+you\s+have\s+(?:any\s+)?(?:other|further|more|additional)?\s*"
    r"questions\b|"
    # Abstentions: statements about the corpus, not about the world; nothing can quote-support them.
    r"(?:the\s+)?(?:provided\s+|available\s+|retrieved\s+|supplied\s+|given\s+)?(?:documents?|sources?|"
    r"context|evidence|excerpts?|passages?|materials?)\s+(?:provided\s+)?(?:do|does|did)\s*(?:not|n't)\s+"
    r"(?:say|mention|specify|contain|address|cover|state|include|provide|discuss|indicate|confirm|answer|"
    r"establish|show|support)\b|"
    r"there\s+is\s+no\s+(?:information|mention|data|detail)\b)",
    _I,
)
# "Here is a summary of X." is meta; "Here's the fee: $150." carries content after its colon.
_HERE_IS = re.compile(r"^here(?:\s+is|\s+are|'s)\b(?![^:]*:\s*\S)", _I)
_LABEL_VALUE = re.compile(r"^[^:]{1,60}:\s*\S+(?:\s+\S+)+")
_TERMINAL = re.compile(r"[.!?][\"')\]*]*$")

@dataclass(frozen=True)
class _Words:
    """The word lists of claim rules, from the lexicon in force."""

    connectors: frozenset[str]
    auxiliaries: frozenset[str]
    verbs: frozenset[str]  # auxiliaries and common verbs: enough to tell "Staff accrue leave." from "Leave policy"
    not_defining: frozenset[str]
    stopwords: frozenset[str]
    numeric: re.Pattern[str]
    importance: re.Pattern[str]
    request: re.Pattern[str]


@cache
def _words() -> _Words:
    lex = lexicon()
    auxiliaries = lex.word_set("claims", "auxiliaries")
    months = "|".join(m.capitalize() for m in lex.words("calendar", "months") if m != "may")
    numbers = phrase_pattern(
        [w for w in lex.words("numbers", "units") if w != "one"]  # "one" alone is a pronoun ("one of them")
        + [*lex.words("numbers", "tens"), *lex.words("numbers", "scales"), *lex.words("numbers", "fractions")]
        + [w for w in lex.words("numbers", "times") if w != "once"]  # "once the form is filed" is no figure
    )
    units = phrase_pattern((*lex.words("figures", "units"), *lex.words("figures", "currencies"),
                            *lex.words("figures", "markers"), *lex.words("figures", "counted")))
    modifiers = phrase_pattern((*lex.words("figures", "unit_modifiers"), "full"))  # "one full day"
    numeric = re.compile(
        rf"\d|[$€£¥%]|\bper\s*cent\b|\bpercent(?:age)?\b|\b(?:{numbers})\b|\bone\s+(?:(?:{modifiers})\s+)?(?:{units})s?\b|"
        rf"\bnoon\b|\bmidnight\b|(?-i:\b(?:{months})\b)|(?-i:\bMay\s+\d)|"
        r"\b(?:in|on|of|since|until|by|from|before|after|through|during|early|late|mid)[\s-]+(?-i:May)\b",
        _I,
    )
    return _Words(
        connectors=lex.word_set("claims", "connectors"),
        auxiliaries=auxiliaries,
        verbs=auxiliaries | lex.word_set("claims", "verbs"),
        not_defining=lex.word_set("claims", "means_not_defining"),
        stopwords=lex.word_set("stopwords", "content"),
        numeric=numeric,
        importance=re.compile(rf"\b(?:{phrase_pattern(lex.words('claims', 'importance_markers'))})\b", _I),
        request=re.compile(rf"^\W*(?:{phrase_pattern(lex.words('claims', 'request_openers'))})\s+[a-z]", _I),
    )


_DEFINITION = re.compile(
    r"\b(?:is|are)\s+(?:defined|understood)\s+as\b|\bdefined\s+as\b|\brefers?\s+to\b|\bstands?\s+for\b|"
    r"\bis\s+short\s+for\b|\bthe\s+(?:term|phrase|acronym|abbreviation)\s+[\"'“‘]|\bby\s+[\"'“‘][^\"'”’]+[\"'”’]\s+"
    r"(?:we|the\s+\w+)\s+means?\b|^(?:(?:a|an|the)\s+)?[\"'“‘*][^\"'”’*]{1,60}[\"'”’*]+\s+(?:is|are|means)\b",
    _I,
)
# "X means Y" defines; "This means that..." or "by means of" does not.
_MEANS = re.compile(r"(?:^|\b(\w+)\s+)means\b", _I)
_POLICY = re.compile(
    r"\b(?:must|shall|required|requires?|mandatory|obligated|obliged|prohibited|forbidden|permitted|entitled|"
    r"eligible|should|ought\s+to|(?:need|needs|have|has)\s+to|may\s+not|cannot|can\s*not|can't|"
    r"(?:is|are)\s+(?:not\s+)?allowed|allowed\s+to)\b",
    _I,
)
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_STEMMER = PorterStemmer()


@lru_cache(maxsize=8192)
def _stem(word: str) -> str:
    return _STEMMER.stem(word)


def _norm(text: str) -> str:
    """Text for rule matching: straight apostrophes, no blockquote or markdown emphasis at the edges."""
    text = text.replace("’", "'").replace("‘", "'")
    text = re.sub(r"^(?:>\s*)+", "", text.strip())
    return text.strip("*_` ").strip()


def content_stems(text: str) -> set[str]:
    """Porter stems of the non-stopword words of a text. A word in "n't" is an auxiliary denied ("doesn't"):
    function words both."""
    bases = (w.split("'")[0] for w in _WORD.findall(text.lower().replace("’", "'")) if not w.endswith("n't"))
    stopwords = _words().stopwords
    return {_stem(b) for b in bases if b not in stopwords and len(b) > 1}


def contains_numeric(text: str) -> bool:
    """Whether a text states a number, amount, percentage, date or number-word quantity."""
    return bool(_words().numeric.search(text))


def _is_definition(text: str) -> bool:
    if _DEFINITION.search(text):
        return True
    for match in _MEANS.finditer(text):
        before = (match.group(1) or "").lower()
        if match.start() > 0 and before not in _words().not_defining:
            return True
    return False


def _strong_verb(word: str) -> bool:
    return word in _words().auxiliaries or (len(word) >= 5 and word.endswith("ed")) or word.endswith("n't")


def _is_fragment(text: str) -> bool:
    """Verbless titles and labels ("Leave policy", "Fee Schedule", "Acme Inc."), which assert nothing."""
    if contains_numeric(text) or _LABEL_VALUE.match(text):
        return False
    words = _WORD.findall(text.lower())
    verbs = _words().verbs
    has_verb = any(w in verbs or _strong_verb(w) for w in words)
    if _TERMINAL.search(text):
        return not has_verb and len(words) <= 2
    # Unpunctuated lines are list items or labels: a label is Title Case, or short without a clear verb
    # (an auxiliary, a past participle, or an imperative first word: "Submit the form").
    long_words = [w for w in text.split() if len(w.strip("*_()[]\"'")) > 3]
    if len(long_words) > 1 and all(w.strip("*_()[]\"'")[:1].isupper() for w in long_words):
        return True
    strong = any(_strong_verb(w) for w in words) or (bool(words) and words[0] in verbs)
    return not has_verb or (len(words) <= 3 and not strong)


def _is_connector(text: str) -> bool:
    bare = re.sub(r"[^\w\s']", " ", text.lower())
    return " ".join(bare.split()) in _words().connectors


def is_question(text: str) -> bool:
    """Whether a sentence (anchors and markup aside) asks rather than states: "**Are campfires allowed?**"."""
    return _asks(_norm(text))


def is_request(text: str) -> bool:
    """Whether a question is a polite request ("Could you confirm the numbers by Friday 20 March?"): it tells
    someone what to do, as an instruction does, so as evidence it states something."""
    return is_question(text) and bool(_words().request.match(_norm(text)))


def _asks(norm: str) -> bool:
    return norm.rstrip("\"')]*_ ").endswith("?")


def exclusion_reason(text: str) -> str | None:
    """Why a sentence (anchors removed) is not a claim, or None when it is one."""
    norm = _norm(text)
    if not norm:
        return "fragment"
    if _HEADING.match(norm):
        return "heading"
    if _asks(norm) and not _words().request.match(norm):  # a request says what someone is asked to do
        return "question"
    if _HYPOTHETICAL.match(norm):
        return "hypothetical"
    if _OPINION.match(norm):
        return "opinion"
    if _is_connector(norm):
        return "connector"
    if _ACKNOWLEDGEMENT.match(norm) and not _states_past_thanks(norm):
        return "acknowledgement"
    if _META.match(norm) or _HERE_IS.match(norm):
        return "meta"
    if _is_fragment(norm):
        return "fragment"
    return None


# "Thanks to the volunteers, the park reopened": a cause, not thanks; what follows a colon or dash after thanks
# ("Thank you to everyone who came: you donated 214 items") says something of its own.
_THANKS_TO = re.compile(r"^thanks\s+to\b", _I)
_AFTER_THANKS = re.compile(r"\s*[:;]\s+|\s+[-–—]\s+")


def _states_past_thanks(norm: str) -> bool:
    """Whether a sentence that opens with thanks or an apology also states something."""
    if _THANKS_TO.match(norm):
        return True
    rest = _AFTER_THANKS.split(norm, maxsplit=1)
    return len(rest) == 2 and exclusion_reason(rest[1]) is None


def is_claim(text: str) -> bool:
    """Whether a sentence (anchors removed) is a claim."""
    return exclusion_reason(text) is None


def classify_type(text: str) -> ClaimType:
    """Claim type by precedence definition > numeric > policy > fact."""
    if _is_definition(text):
        return "definition"
    if contains_numeric(text):
        return "numeric"
    if _POLICY.search(text):
        return "policy"
    return "fact"


def _needed_overlap(question_stems: int) -> int:
    # Short questions ("What is the refund policy?") are answered by one shared word; long ones need more.
    if question_stems <= 2:
        return 1
    return 2 if question_stems <= 5 else 3


def is_direct_answer(text: str, question: str) -> bool:
    """Whether a claim answers the question: enough of the question's content stems appear in it."""
    wanted = content_stems(question)
    if not wanted:
        return False
    return len(wanted & content_stems(text)) >= _needed_overlap(len(wanted))


def assess_importance(text: str, claim_type: ClaimType, question: str = "") -> Importance:
    """Importance by seed 004 §3.5: direct answers and numbers are critical; rules and markers material."""
    if is_direct_answer(text, question) or contains_numeric(text):
        return "critical"
    if claim_type == "policy" or _words().importance.search(text):
        return "material"
    return "minor"


def extract_claims(answer: str, question: str = "") -> list[Claim]:
    """The claims of an answer, in order, with ids c1, c2, ..., spans, types, importance and citations."""
    claims: list[Claim] = []
    for sentence, start, end in split_sentences(answer):
        text, cited = parse_citations(sentence)
        text = re.sub(r"\*\*|__|`", "", text).strip()
        reason = exclusion_reason(text)
        if reason is not None and not (reason == "fragment" and cited and text):
            continue
        claim_type = classify_type(text)
        claims.append(
            Claim(
                id=f"c{len(claims) + 1}",
                text=text,
                type=claim_type,
                importance=assess_importance(text, claim_type, question),
                cited=cited,
                span=(start, end),
            )
        )
    return claims
