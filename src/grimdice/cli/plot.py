"""Bar charts of each stage's distribution, and the pictures of ``grimdice replay --png`` (both
need the ``plot`` extra: matplotlib)."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable
from pathlib import Path

from grimdice.errors import GrimdiceError, ScenarioError, printable, shown
from grimdice.result import Result


def _text(value: object) -> str:
    """A user's text as matplotlib must draw it: control characters as escapes, ``$`` literal
    (not the start of mathtext, whose parse errors would otherwise fail the plot)."""
    return printable(str(value)).replace("$", r"\$")


def plot_result(result: Result, path: str | Path) -> Path:
    """Draw one bar chart per stage (probability of each count) into the file ``path`` (PNG, SVG or
    PDF, by its suffix)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        raise GrimdiceError("--plot needs matplotlib: pip install 'grimdice[plot]'") from None
    names = list(result.stages)
    fig, axes = plt.subplots(len(names), 1, figsize=(8, 2.2 * len(names)), squeeze=False)
    for ax, name in zip(axes[:, 0], names, strict=True):
        d = result.stages[name]
        ax.bar(d.outcomes, d.pmf, color="#7a1f1f")
        ax.set_title(f"{_text(name)} (mean {d.mean():.2f})", fontsize=10, loc="left")
        ax.set_ylabel("P")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # counts: whole-number ticks only
    axes[-1, 0].set_xlabel("count")
    title = (
        f"{result.system}: {result.title} ({result.method})"
        if result.title
        else f"{result.system} ({result.method})"
    )
    fig.suptitle(textwrap.fill(_text(title), 80), fontsize=11)
    fig.tight_layout()
    out = Path(path)
    try:  # written exactly at ``path``, in the format its suffix names (checked by the CLI first)
        fig.savefig(out, dpi=100, format=out.suffix.lower().lstrip(".") or "png")
    finally:
        plt.close(fig)
    return out


def check_png_folder(folder: Path | None) -> None:
    """Refuse a ``--png`` folder that is a file, before any work."""
    if folder is not None and folder.exists() and not folder.is_dir():
        raise ScenarioError("--png", f"{shown(str(folder))} is a file; give a folder for the PNGs")


def draw_into(folder: Path | None, draw: Callable[[Path], Iterable[Path]]) -> list[str]:
    """The files ``draw(folder)`` writes (none without a folder); a folder that cannot be written
    is an error naming ``--png``, a missing matplotlib one naming the ``plot`` extra."""
    if folder is None:
        return []
    check_png_folder(folder)
    try:
        return [str(p) for p in draw(folder)]
    except OSError as exc:
        raise ScenarioError("--png", f"cannot write to {shown(str(folder))}: {exc.strerror or exc}") from None
    except ImportError as exc:
        raise GrimdiceError(f"{exc.name} is missing: pip install 'grimdice[plot]'") from None
