#!/usr/bin/env bash
# 2026-12-02, nvidia-h200: the first GRIDFUZZ_TIER_BUDGET_S (default 150) seconds of each of the
# other three boundary tiers, 4 workers, untimed, every oracle check on: how fast each tier runs
# where the plan starts it (its first kernels: a sample in plan order, not of the whole tier).
#   GRIDFUZZ_PREBUILT=DIR OUT=DIR bash evidence/2026-12-02-h200-cheaper/tiers.sh
set -u
source "$(dirname "$0")/../lib.sh"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; } >> "$OUT/summary.txt" 2>&1
for tier in profiles default-sizes profile-sizes; do
  "$gf" sweep --tiers "$tier" --cases 0 --timeout 120 --workers-per-device 4 --time-budget "${GRIDFUZZ_TIER_BUDGET_S:-150}" \
    --csv "$OUT/$tier.csv" --json > "$OUT/$tier.json" 2> /tmp/$tier.log
  python3 - "$tier" "$OUT/$tier.json" "$OUT/$tier.csv" >> "$OUT/summary.txt" <<'PY'
import collections, csv, json, sys
j = json.load(open(sys.argv[2])); rows = list(csv.DictReader(open(sys.argv[3], newline="")))
k = collections.Counter(r["kernel"] for r in rows)
print(sys.argv[1], "ran", j["ran"], "in", round(j["wall_s"], 1), "s:", round(j["ran"] / j["wall_s"], 2), "cases/s; restarts",
      j["worker_restarts"], "verdicts", j["verdicts"], "kernels", dict(k),
      "median case ms", sorted(float(r["case_ms"] or 0) for r in rows)[len(rows) // 2] if rows else "-")
PY
done
cd "$OUT" && tar cJf tiers.tar.xz ./*.csv ./*.json && rm -f ./*.csv ./*.json
cat "$OUT/summary.txt"
