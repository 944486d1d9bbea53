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
from functools import lru_cache

from nltk.stem.porter import PorterStemmer

from ledger.core.types import Claim, ClaimType, Importance
from ledger.text.sentences import parse_citations, split_sentences

_I = re.IGNORECASE


def _wordset(words: str) -> frozenset[str]:
    # Word lists are written as text so they stay readable; ruff's SIM905 wants literals.
    return frozenset(words.split())


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
_CONNECTORS = _wordset(
    """however therefore thus hence moreover furthermore additionally also consequently accordingly so but and or
    then next finally first firstly second secondly third thirdly lastly meanwhile nevertheless nonetheless
    similarly likewise instead otherwise still yet note importantly overall"""
) | {
    "in addition", "as a result", "that said", "in short", "in summary", "in conclusion", "to summarise",
    "to summarize", "to conclude", "to sum up", "in brief", "on the other hand", "for example", "for instance",
    "in other words", "please note", "as mentioned", "as noted", "as mentioned above", "as noted above",
    "in particular", "by contrast", "in contrast", "that is", "even so", "after all",
}  # fmt: skip
_LABEL_VALUE = re.compile(r"^[^:]{1,60}:\s*\S+(?:\s+\S+)+")
_TERMINAL = re.compile(r"[.!?][\"')\]*]*$")

# Auxiliaries and common verbs: enough to tell "Employees accrue leave." from "Leave policy".
_AUXILIARIES = _wordset(
    """is are was were be been being am has have had do does did can could will would shall should may might
    must isn't aren't wasn't weren't hasn't haven't hadn't don't doesn't didn't can't cannot won't wouldn't
    shouldn't couldn't mustn't it's that's there's here's what's"""
)
_VERBS = _AUXILIARIES | _wordset(
    """need needs apply applies get gets got make makes
    take takes took give gives gave go goes went come comes came pay pays offer offers include includes cover
    covers require requires provide provides allow allows permit permits receive receives keep keeps remain
    remains become becomes contain contains mean means refer refers open opens close closes start starts begin
    begins began end ends expire expires accrue accrues earn earns cost costs charge charges issue issues submit
    submits approve approves review reviews process processes handle handles set sets run runs use uses help
    helps show shows state states say says said list lists describe describes explain explains define defines
    specify specifies lead leads led cause causes increase increases decrease decreases rise rises fall falls
    exceed exceeds depend depends happen happens occur occurs follow follows precede precedes report reports
    manage manages own owns operate operates serve serves support supports grant grants carry carries file
    files request requests send sends contact contacts call calls check checks complete completes sign signs
    note notes ensure ensures vary varies differ differs reduce reduces add adds"""
)

_MONTH = r"January|February|March|April|June|July|August|September|October|November|December"
_NUMBER_WORDS = (
    r"zero|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
    r"seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|"
    r"million|billion|dozen|half|twice|thrice"
)
_UNITS = (
    r"(?:business\s+|calendar\s+|working\s+|full\s+)?"
    r"(?:second|minute|hour|day|week|month|quarter|year|time|percent|dollar|copy|employee|person)s?"
)
_NUMERIC = re.compile(
    rf"\d|[$€£¥%]|\bper\s*cent\b|\bpercent(?:age)?\b|\b(?:{_NUMBER_WORDS})\b|\bone\s+{_UNITS}\b|\bnoon\b|"
    rf"\bmidnight\b|(?-i:\b(?:{_MONTH})\b)|(?-i:\bMay\s+\d)|"
    r"\b(?:in|on|of|since|until|by|from|before|after|through|during|early|late|mid)[\s-]+(?-i:May)\b",
    _I,
)
_DEFINITION = re.compile(
    r"\b(?:is|are)\s+(?:defined|understood)\s+as\b|\bdefined\s+as\b|\brefers?\s+to\b|\bstands?\s+for\b|"
    r"\bis\s+short\s+for\b|\bthe\s+(?:term|phrase|acronym|abbreviation)\s+[\"'“‘]|\bby\s+[\"'“‘][^\"'”’]+[\"'”’]\s+"
    r"(?:we|the\s+\w+)\s+means?\b|^(?:(?:a|an|the)\s+)?[\"'“‘*][^\"'”’*]{1,60}[\"'”’*]+\s+(?:is|are|means)\b",
    _I,
)
# "X means Y" defines; "This means that..." or "by means of" does not.
_MEANS = re.compile(r"(?:^|\b(\w+)\s+)means\b", _I)
_NOT_DEFINING_BEFORE_MEANS = _wordset("this that it which what also by no all simply")
_POLICY = re.compile(
    r"\b(?:must|shall|required|requires?|mandatory|obligated|obliged|prohibited|forbidden|permitted|entitled|"
    r"eligible|should|ought\s+to|(?:need|needs|have|has)\s+to|may\s+not|cannot|can\s*not|can't|"
    r"(?:is|are)\s+(?:not\s+)?allowed|allowed\s+to)\b",
    _I,
)
_IMPORTANCE_MARKERS = re.compile(
    r"\b(?:must|shall|required|mandatory|always|never|key|important|importantly|only|essential|critical|crucial)\b",
    _I,
)

_STOPWORDS = _wordset(
    """a an the and or but if then else of to in on at by for with from into onto about as than that this these
    those there here it its is are was were be been being am do does did done has have had having can could will
    would shall should may might must i me my we us our you your he she they them their his her what which who whom
    whose when where why how whether any all each every some no not nor so such very too also just only own same
    other more most much many few both either neither please tell know explain describe say said mean means get
    gets got make need needs like per via vs etc"""
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
    """Porter stems of the non-stopword words of a text."""
    bases = (w.split("'")[0] for w in _WORD.findall(text.lower().replace("’", "'")))
    return {_stem(b) for b in bases if b not in _STOPWORDS and len(b) > 1}


def contains_numeric(text: str) -> bool:
    """Whether a text states a number, amount, percentage, date or number-word quantity."""
    return bool(_NUMERIC.search(text))


def _is_definition(text: str) -> bool:
    if _DEFINITION.search(text):
        return True
    for match in _MEANS.finditer(text):
        before = (match.group(1) or "").lower()
        if match.start() > 0 and before not in _NOT_DEFINING_BEFORE_MEANS:
            return True
    return False


def _strong_verb(word: str) -> bool:
    return word in _AUXILIARIES or (len(word) >= 5 and word.endswith("ed")) or word.endswith("n't")


def _is_fragment(text: str) -> bool:
    """Verbless titles and labels ("Leave policy", "Fee Schedule", "Acme Inc."), which assert nothing."""
    if contains_numeric(text) or _LABEL_VALUE.match(text):
        return False
    words = _WORD.findall(text.lower())
    has_verb = any(w in _VERBS or _strong_verb(w) for w in words)
    if _TERMINAL.search(text):
        return not has_verb and len(words) <= 2
    # Unpunctuated lines are list items or labels: a label is Title Case, or short without a clear verb
    # (an auxiliary, a past participle, or an imperative first word: "Submit the form").
    long_words = [w for w in text.split() if len(w.strip("*_()[]\"'")) > 3]
    if len(long_words) > 1 and all(w.strip("*_()[]\"'")[:1].isupper() for w in long_words):
        return True
    strong = any(_strong_verb(w) for w in words) or (bool(words) and words[0] in _VERBS)
    return not has_verb or (len(words) <= 3 and not strong)


def _is_connector(text: str) -> bool:
    bare = re.sub(r"[^\w\s']", " ", text.lower())
    return " ".join(bare.split()) in _CONNECTORS


def exclusion_reason(text: str) -> str | None:
    """Why a sentence (anchors removed) is not a claim, or None when it is one."""
    norm = _norm(text)
    if not norm:
        return "fragment"
    if _HEADING.match(norm):
        return "heading"
    if norm.rstrip("\"')]*_ ").endswith("?"):
        return "question"
    if _HYPOTHETICAL.match(norm):
        return "hypothetical"
    if _OPINION.match(norm):
        return "opinion"
    if _is_connector(norm):
        return "connector"
    if _ACKNOWLEDGEMENT.match(norm):
        return "acknowledgement"
    if _META.match(norm) or _HERE_IS.match(norm):
        return "meta"
    if _is_fragment(norm):
        return "fragment"
    return None


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
    if claim_type == "policy" or _IMPORTANCE_MARKERS.search(text):
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
