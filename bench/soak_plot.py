"""Plots soak runs (target/soak/soak.csv files written by `distill-bench soak`):
RSS, open file descriptors and p99 latency per minute, one line per run.

usage: soak_plot.py OUT.png LABEL=FILE.csv [LABEL=FILE.csv ...]
(matplotlib from PyPI, e.g. in target/tools/plot: `python3 -m venv target/tools/plot
&& target/tools/plot/bin/pip install matplotlib`)
"""

import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main() -> None:
    out, runs = sys.argv[1], [a.split("=", 1) for a in sys.argv[2:]]
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.4))
    for label, path in runs:
        rows = list(csv.DictReader(open(path)))
        minutes = [int(r["minute"]) for r in rows]
        # The minute's median RSS when the CSV has it (newer runs), else the end-of-minute reading.
        rss = [int(r.get("rss_median_kib") or r["rss_kib"]) / 1024 for r in rows]
        axes[0].plot(minutes, rss, marker="o", label=label)
        axes[1].plot(minutes, [int(r["fds"]) for r in rows], marker="o", label=label)
        axes[2].plot(minutes, [float(r["p99_ms"]) / 1000 for r in rows], marker="o", label=label)
    for ax, title in zip(axes, ["server RSS (MiB)", "open file descriptors", "p99 latency (s)"]):
        ax.set_title(title)
        ax.set_xlabel("minute")
        ax.grid(alpha=0.3)
    axes[0].axvline(5, color="grey", linestyle=":", linewidth=1)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=80)


if __name__ == "__main__":
    main()
