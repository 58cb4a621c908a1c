#!/usr/bin/env bash
# 2026-12-02, nvidia-h200: races named (issue 29 item 4). The self-test GPU suite (its planted race
# selftest.race must be fail:nondeterministic, its atomicAdd twin pass), the engine GPU suite, and
# a replay of the 37 fail:mismatch rows of mlx.qmm from ../2026-12-02-h200-cheaper/run1-plan, whose
# mismatch counts differed between two runs of the same case.
#   GRIDFUZZ_PREBUILT=DIR OUT=DIR bash evidence/2026-12-02-h200-race/job.sh
set -u
source "$(dirname "$0")/../lib.sh"
here=evidence/2026-12-02-h200-race
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; } >> "$OUT/summary.txt" 2>&1
export GRIDFUZZ_BINARY="$gf" GRIDFUZZ_SELFTEST_PLUGIN="$bin_dir/libgridfuzz_selftest.so"
for t in selftest engine; do
  bin=$(gridfuzz_built "gridfuzz_${t}_gpu_tests") || continue
  t0=$(date +%s)
  "$bin" > "$OUT/$t.log" 2>&1
  echo "$t rc=$? in $(( $(date +%s) - t0 )) s: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/$t.log" | tr '\n' ' ')" >> "$OUT/summary.txt"
done
grep -E "SelftestRaceGpu" "$OUT/selftest.log" >> "$OUT/summary.txt"
t0=$(date +%s)
"$gf" replay "$here/mlx-mismatch-rows.csv" --timeout 120 --csv "$OUT/replay.csv" > "$OUT/replay.log" 2>&1
echo "replay of the 37 mlx.qmm rows rc=$? in $(( $(date +%s) - t0 )) s" >> "$OUT/summary.txt"
python3 - "$OUT/replay.csv" >> "$OUT/summary.txt" <<'PY'
import collections, csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
print("verdicts:", dict(collections.Counter((r["kernel"], r["variant"], r["verdict"]) for r in rows)))
for r in rows[:5]: print("  ", r["replay"], r["verdict"], r["oracle"])
PY
cat "$OUT/summary.txt"
