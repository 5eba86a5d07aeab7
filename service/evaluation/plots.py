"""The PNG plots of `warden eval`, drawn from report.json's content with matplotlib (Agg: no
display, no network). matplotlib is imported only here, when a plot is drawn; it keeps its
font cache in MPLCONFIGDIR (tests point that at a temporary folder)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from service.evaluation.metrics import answered_recall

CONFIDENCE_PNG = "confidence_by_class.png"
RECALL_PNG = "recall_vs_threshold.png"
RELIABILITY_PNG = "reliability.png"
CONFUSION_PNG = "guards_confusion.png"


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    return pyplot


def _save(figure: Any, path: Path) -> str:
    figure.tight_layout()
    figure.savefig(path, dpi=80)
    _pyplot().close(figure)
    return path.name


def confidence_histogram(report: dict[str, Any], path: Path) -> str:
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(6, 3.6))
    for name, color in (("in_scope", "tab:blue"), ("out_of_scope", "tab:orange")):
        hist = report["confidence"][name]["histogram"]
        edges, counts = hist["edges"], hist["counts"]
        widths = [b - a for a, b in zip(edges, edges[1:], strict=False)]
        label = f"{name.replace('_', '-')} (n={report['confidence'][name]['n']})"
        axes.bar(edges[:-1], counts, widths, align="edge", alpha=0.55, color=color, label=label)
    axes.axvline(report["threshold"]["value"], color="black", ls="--", label="threshold")
    best = report["best_threshold"]["threshold"]
    axes.axvline(best, color="green", ls=":", label=f"best separation ({best:.1f})")
    axes.set(xlabel="confidence (top cosine x 100)", ylabel="questions", xlim=(0, 100))
    axes.legend(fontsize=8)
    return _save(figure, path)


def recall_vs_threshold(report: dict[str, Any], path: Path) -> str:
    rows = report["details"]["questions"]
    inside = [r for r in rows if r["document"] is not None]
    outside = [r["confidence"] for r in rows if r["document"] is None]
    ranks, values = [r["rank"] for r in inside], [r["confidence"] for r in inside]
    thresholds = list(range(0, 101))
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(6, 3.6))
    for k in (1, 3, 5):
        curve = [answered_recall(ranks, values, t, k) for t in thresholds]
        axes.plot(thresholds, curve, label=f"recall@{k} (answered)")
    if outside:
        share = [sum(v < t for v in outside) / len(outside) for t in thresholds]
        axes.plot(thresholds, share, "k--", label="out-of-scope abstention")
    axes.axvline(report["threshold"]["value"], color="grey", ls=":")
    axes.set(xlabel="threshold (confidence)", ylabel="share", ylim=(0, 1.02), xlim=(0, 100))
    axes.legend(fontsize=8)
    return _save(figure, path)


def reliability_diagram(report: dict[str, Any], path: Path) -> str:
    section = report["reliability"]
    bins = section["bins"]
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(4.2, 4.2))
    axes.plot([0, 1], [0, 1], color="grey", ls=":", label="perfect")
    axes.plot(
        [b["mean_probability"] for b in bins],
        [b["observed"] for b in bins],
        "o-",
        label=f"{section['probability']} (ECE {section['ece']:.3f})",
    )
    outcome = section.get("outcome", "top source right")
    axes.set(xlabel="predicted probability", ylabel=f"observed: {outcome}")
    axes.set(xlim=(0, 1), ylim=(0, 1))
    axes.legend(fontsize=8)
    return _save(figure, path)


def confusion_matrix(report: dict[str, Any], path: Path) -> str:
    labels, matrix = report["confusion"]["labels"], report["confusion"]["matrix"]
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(4.2, 3.8))
    axes.imshow(matrix, cmap="Blues")
    for i, row in enumerate(matrix):
        for j, count in enumerate(row):
            axes.text(j, i, str(count), ha="center", va="center")
    axes.set_xticks(range(len(labels)), labels)
    axes.set_yticks(range(len(labels)), labels)
    axes.set(xlabel="route given", ylabel="route expected")
    return _save(figure, path)


def retrieval_plots(report: dict[str, Any], out: Path) -> list[str]:
    return [
        confidence_histogram(report, out / CONFIDENCE_PNG),
        recall_vs_threshold(report, out / RECALL_PNG),
        reliability_diagram(report, out / RELIABILITY_PNG),
    ]


def guards_plots(report: dict[str, Any], out: Path) -> list[str]:
    return [confusion_matrix(report, out / CONFUSION_PNG)]
