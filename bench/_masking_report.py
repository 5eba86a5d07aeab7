"""Runs of bench/eval_retrieval_masking.py: their figures and the Markdown page about them."""

from __future__ import annotations

from dataclasses import dataclass

from bench._faq_corpus import Probe

RAW = "raw (no masking)"
SERVICE = "masked, allowlist (service)"
NO_ALLOWLIST = "masked, no allowlist"
PROPOSAL = "masked, allowlist, placeholders not embedded"
HEADERS = ["probes", "condition", "n", "hit@1", "hit@3", "hit@3 vs raw (pts)", "changed"]
HEADERS += ["PII left"]


@dataclass
class Run:
    probes: list[Probe]
    safe_queries: list[str]
    ranked: list[list[str]]  # doc ids of the top parents, best first, per probe

    def hits(self, k: int) -> int:
        return sum(p.doc_id in r[:k] for p, r in zip(self.probes, self.ranked, strict=True))

    def changed(self) -> list[tuple[str, str]]:
        pairs = zip(self.probes, self.safe_queries, strict=True)
        return [(p.text, q) for p, q in pairs if q != p.text]


Runs = dict[tuple[str, str], Run]  # (probe set, condition) -> run


def rows(runs: Runs, personal_values: tuple[str, ...]) -> list[list[str]]:
    """One row per run; `PII left` only for probe sets that carry personal values."""
    table = []
    for (name, condition), run in runs.items():
        n, raw = len(run.probes), runs[name, RAW]
        left = sum(any(v in q for v in personal_values) for q in run.safe_queries)
        table.append(
            [
                name,
                condition,
                str(n),
                f"{run.hits(1) / n:.1%}",
                f"{run.hits(3) / n:.1%}",
                f"{(run.hits(3) - raw.hits(3)) / n * 100:+.1f}",
                f"{len(run.changed()) / n:.1%}",
                f"{left / n:.1%}" if "personal" in name else "-",
            ]
        )
    return table


def _examples(run: Run, limit: int) -> list[str]:
    changed = run.changed()
    shown = [f"- `{raw}`\n  -> `{masked}`" for raw, masked in changed[:limit]]
    return [f"{len(changed)} of {len(run.probes)} changed; first {len(shown)}:", "", *shown, ""]


def markdown(
    runs: Runs, *, setup: list[str], allowlist: frozenset[str], personal_values: tuple[str, ...]
) -> str:
    lines = ["# Retrieval with and without PII masking", "", *setup, ""]
    lines += ["| " + " | ".join(HEADERS) + " |"]
    lines += ["| " + " | ".join(["---", "---"] + ["---:"] * (len(HEADERS) - 2)) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in rows(runs, personal_values)]
    lines += ["", "## What the masker changed", ""]
    names = list(dict.fromkeys(name for name, _ in runs))
    for name in names:
        for condition in (SERVICE, NO_ALLOWLIST):
            limit = 2 if "personal" in name else 6
            lines += [f"### {name}, {condition}", "", *_examples(runs[name, condition], limit)]
    terms = ", ".join(f"`{t}`" for t in sorted(allowlist)[:30])
    lines += [f"Allowlist terms (first 30 of {len(allowlist)}): {terms}", ""]
    return "\n".join(lines)
