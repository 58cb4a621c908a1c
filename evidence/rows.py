#!/usr/bin/env python3
"""Two questions the evidence jobs ask of sweep CSVs, in one place (stdlib only).

  rows.py same A.csv B.csv [--exclude DONE.csv] [--ignore COLUMN,...]
      Rows of A and B with the same case id: do they agree in every column but the times, the run
      and the tier (and the columns --ignore names, e.g. commit for two builds)? Prints one line of
      counts, the verdicts, the rows whose verdicts differ and up to 20 differences.
  rows.py phases CSV [--exclude DONE.csv]
      Per tier: rows, case seconds and the phase times (seconds); the rows whose split
      reference was taken from the case before (reference_ms 0 with the oracle compared); and the
      tier's wall time (its first row's start to its last row's end, by `started`, summed over the
      runs of a resumed CSV, by run_id).
  rows.py busy CSV [--exclude DONE.csv]
      How busy the workers were: the rows, their first start to their last end (by `started` and
      case_ms), the case seconds (case_ms + worker_ms), the mean number of cases in flight (case
      seconds / span), and the rows started by each minute since the first.
  rows.py pick CSV --per N --out PICKED.csv [--max-case-ms MS]
      Up to N rows of every kernel x variant x tier, spread evenly over that group's rows (those
      whose case took at most MS): a sample to run again another way.

--exclude leaves out the rows whose case id is in DONE.csv (the rows a --resume found there).
"""
import argparse
import csv
import datetime
import sys

TIMES = {"run_id", "tier", "started", "time_ms_median", "time_ms_min", "time_ms_max", "samples", "gbps",
         "kernel_ms_median", "kernel_ms_min", "kernel_ms_max", "kernels_per_call", "plan_ms", "alloc_ms", "fill_ms",
         "call_ms", "reference_ms", "compare_ms", "cpu_ms", "timing_ms", "case_ms", "worker_ms"}
PHASES = ["plan_ms", "alloc_ms", "fill_ms", "call_ms", "reference_ms", "compare_ms", "cpu_ms", "case_ms", "worker_ms"]


def read(path, exclude):
    with open(path, newline="") as f:
        return {r["case_id"]: r for r in csv.DictReader(f) if r["case_id"] not in exclude}


def ms(row, column):
    return float(row.get(column) or 0)


def same(a, b, ignore=()):
    common = sorted(set(a) & set(b))
    diff = [(i, c) for i in common for c in a[i] if c not in TIMES and c not in ignore and a[i][c] != b[i].get(c)]
    print(f"same: {len(a)} rows in A, {len(b)} in B, {len(common)} in common, {len({i for i, _ in diff})} differing"
          f" (every column but the times), over {len({a[i]['kernel'] for i in common})} kernels,"
          f" {len({(a[i]['kernel'], a[i]['variant']) for i in common})} kernel x variant,"
          f" {len({a[i]['tier'] for i in common})} tiers")
    verdicts = {}
    for i in common:
        verdicts[a[i]["verdict"]] = verdicts.get(a[i]["verdict"], 0) + 1
    print("verdicts in common:", verdicts)
    flips = [i for i in common if a[i]["verdict"] != b[i].get("verdict")]
    print(f"verdicts differing: {len(flips)}")
    for i in flips[:20]:
        print("  verdict:", a[i]["replay"], a[i]["verdict"], "vs", b[i].get("verdict"))
    for i, c in diff[:20]:
        print("  differs:", a[i]["replay"], c, repr(a[i][c]), "vs", repr(b[i].get(c)))


def started(row):
    text = row.get("started") or ""
    try:
        return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def phases(rows):
    tiers = {}
    for r in rows.values():
        t = tiers.setdefault(r["tier"], {"rows": 0, "shared": 0, "runs": {}, **{p: 0.0 for p in PHASES}})
        t["rows"] += 1
        for p in PHASES:
            t[p] += ms(r, p) / 1000
        if r["oracle"].startswith("split:") and ms(r, "reference_ms") == 0:
            t["shared"] += 1
        if (s := started(r)) is not None:
            first, last = t["runs"].get(r["run_id"], (s, s))
            t["runs"][r["run_id"]] = (min(first, s), max(last, s + ms(r, "case_ms") / 1000))
    for name, t in tiers.items():
        wall = sum(last - first for first, last in t["runs"].values())
        span = f"; wall {wall:.1f} s over {len(t['runs'])} run(s)" if t["runs"] else ""
        print(f"tier {name}: {t['rows']} rows, {t['shared']} with the reference of the case before;"
              + "".join(f" {p[:-3]} {t[p]:.1f} s" for p in PHASES) + span)


def busy(rows):
    spans = [(s, s + ms(r, "case_ms") / 1000, (ms(r, "case_ms") + ms(r, "worker_ms")) / 1000)
             for r in rows.values() if (s := started(r)) is not None]
    if not spans:
        print("busy: no row with a start time")
        return
    first = min(s for s, _, _ in spans)
    span = max(e for _, e, _ in spans) - first
    held = sum(h for _, _, h in spans)
    by_minute = {}
    for s, _, _ in spans:
        by_minute[int((s - first) // 60)] = by_minute.get(int((s - first) // 60), 0) + 1
    done, cumulative = 0, []
    for m in range(max(by_minute) + 1):
        done += by_minute.get(m, 0)
        cumulative.append(str(done))
    print(f"busy: {len(spans)} rows, span {span:.1f} s, case seconds {held:.1f}, mean in flight {held / max(span, 1e-9):.2f};"
          f" started by minute 1, 2, ...: {' '.join(cumulative)}")


def pick(path, per, max_case_ms, out):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        fields = reader.fieldnames
        groups = {}
        for r in reader:
            if ms(r, "case_ms") <= max_case_ms:
                groups.setdefault((r["kernel"], r["variant"], r["tier"]), []).append(r)
    picked = []
    for rows in groups.values():
        step = max(1, len(rows) / per)
        picked += [rows[int(i * step)] for i in range(min(per, len(rows)))]
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(picked)
    print(f"pick: {len(picked)} rows of {len(groups)} kernel x variant x tier groups into {out}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["same", "phases", "busy", "pick"])
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--exclude")
    ap.add_argument("--per", type=int, default=3)
    ap.add_argument("--max-case-ms", type=float, default=float("inf"))
    ap.add_argument("--out")
    ap.add_argument("--ignore", default="")
    args = ap.parse_args()
    if args.what == "pick":
        if len(args.csv) != 1 or not args.out:
            ap.error("pick takes one CSV and --out")
        return pick(args.csv[0], args.per, args.max_case_ms, args.out)
    exclude = set(read(args.exclude, set())) if args.exclude else set()
    if args.what == "same":
        if len(args.csv) != 2:
            ap.error("same takes two CSVs")
        same(read(args.csv[0], exclude), read(args.csv[1], exclude), set(filter(None, args.ignore.split(","))))
    else:
        for path in args.csv:
            (phases if args.what == "phases" else busy)(read(path, exclude))


if __name__ == "__main__":
    sys.exit(main())
