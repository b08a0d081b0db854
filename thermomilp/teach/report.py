"""The text report of one student (``--format json`` is StudentGrade.records())."""

from __future__ import annotations

from thermomilp.teach.catalogue import HINTS, MISTAKES
from thermomilp.teach.student import FLAGS, StudentGrade


def report(grade: StudentGrade, hints: bool = False) -> str:
    """``hints``: after each mistake's rule, how to fix it (``--hints``)."""
    lines = [f"{grade.student} ({grade.kind})"]
    for g in grade.boards:
        lines.append(f"{g.verdict.upper():18s} {g.file}")
        for f in g.findings:
            lines.append(f"    [{f.check}] {f.message}")  # a picture's lines are indented
        if g.size is not None and g.reference_size is not None:
            s, r = g.size, g.reference_size
            lines.append(f"    size: {s.variables} variables, {s.constraints} constraints, "
                         f"{s.nonzeros} non-zeros (reference: {r.variables}, {r.constraints}, "
                         f"{r.nonzeros})")
        if g.lp_integral is not None or g.reference_lp_integral is not None:
            lines.append(f"    LP relaxation: {_pct(g.lp_integral)} of cell variables integral "
                         f"(reference: {_pct(g.reference_lp_integral)})")
    if grade.mistakes:
        lines.append("mistakes found: " + ", ".join(grade.mistakes))
        for m in grade.mistakes:
            lines.append(f"    {m}: {MISTAKES[m]}")
            if hints:
                lines.append(f"        hint: {HINTS[m]}")
    if grade.evidence:
        lines.append("evidence:")
        lines.extend(f"    {e}" for e in grade.evidence)  # a picture's lines are indented
    if grade.flags:
        lines.append("FLAGGED for the instructor (needs reading): " + ", ".join(grade.flags))
        lines.extend(f"    {f}: {FLAGS[f]}" for f in grade.flags)
    if grade.printed_bytes:
        lines.append(f"(the student's code printed {grade.printed_bytes} bytes; not shown)")
    if grade.checks:
        lines.append("checks: " + ", ".join(f"{k} {v}" for k, v in grade.checks.items()))
    if grade.needs_reading:  # no score to read off: the instructor reads the file first
        lines.append(f"flagged ({', '.join(grade.flags)}): needs reading")
    else:
        lines.append(f"{grade.score}/{len(grade.boards)} boards right")
    return "\n".join(lines)


def _pct(share: float | None) -> str:
    return "n/a (infeasible)" if share is None else f"{100 * share:.0f}%"
