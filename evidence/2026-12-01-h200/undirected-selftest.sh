#!/usr/bin/env bash
# 2026-12-01, nvidia-h200: `sweep 'selftest.*'` with no directions (issue 30): every bug class found
# with its kind, no fixed twin failing (scripts/gpu-selftest --undirected).
#   GRIDFUZZ_PREBUILT=DIR OUT=DIR bash evidence/2026-12-01-h200/undirected-selftest.sh
set -u
source "$(dirname "$0")/../lib.sh"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } > "$OUT/summary.txt" 2>&1
t0=$(date +%s)
GRIDFUZZ_UNDIRECTED_BUDGET_S="${GRIDFUZZ_UNDIRECTED_BUDGET_S:-420}" bash scripts/gpu-selftest --undirected "$OUT/selftest" \
  > "$OUT/selftest-console.log" 2>&1
echo "gpu-selftest --undirected rc=$? in $(( $(date +%s) - t0 )) s" >> "$OUT/summary.txt"
grep -E "^found |^undirected sweep|^sweep:|time budget|Failure|FAILED|PASSED|no row detected|false positive" \
  "$OUT/selftest/selftest-gpu.log" >> "$OUT/summary.txt"
(cd "$OUT" && tar czf selftest.tgz selftest selftest-console.log && rm -rf selftest selftest-console.log)
cat "$OUT/summary.txt"
