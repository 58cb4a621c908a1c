#!/usr/bin/env bash
# 2026-12-02, nvidia-h200: known upstream bugs by rule and schema 1.6 (issue 29 items 3, 4, 6).
# Replays every failing row of ../2026-12-02-h200-cheaper/run1-plan (37 mlx.qmm mismatches, 4
# vllm.moe_mmq unwritten, 1 llamacpp.mmq fault) and a spread of its expected-fail rows.
#   GRIDFUZZ_PREBUILT=DIR OUT=DIR bash evidence/2026-12-02-h200-race/ledger.sh
set -u
source "$(dirname "$0")/../lib.sh"
here=evidence/2026-12-02-h200-race
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; } >> "$OUT/summary.txt" 2>&1
t0=$(date +%s)
"$gf" replay "$here/ledger-rows.csv" --timeout 120 --csv "$OUT/ledger-replay.csv" > "$OUT/ledger-replay.log" 2>&1
echo "replay rc=$? in $(( $(date +%s) - t0 )) s" >> "$OUT/summary.txt"
python3 - "$OUT/ledger-replay.csv" >> "$OUT/summary.txt" <<'PY'
import collections, csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
print("verdicts:", dict(collections.Counter((r["kernel"], r["variant"], r["verdict"], r["finding"]) for r in rows)))
print("schema", {r["schema"] for r in rows}, "driver", {r["driver"] for r in rows}, "driver_release", {r["driver_release"] for r in rows})
print("regs filled:", sum(1 for r in rows if r["regs"]), "of", len(rows), "e.g.", [r["regs"] for r in rows[:3]], "started e.g.", rows[0]["started"])
PY
"$gf" report "$OUT/ledger-replay.csv" --out /tmp/ledger-report > /dev/null 2>> "$OUT/summary.txt"
grep -i "unmatched" /tmp/ledger-report/report.md >> "$OUT/summary.txt"
cat "$OUT/summary.txt"
