#!/usr/bin/env bash
# 2026-12-01, nvidia-h200: issue 17's qmv (run 17) and the whole build on the GPU.
#  1. qmv: run 17's bench (qmv_stream with the weight ring and one fold per 32-element segment)
#     beside run 16's bench binary (the ring, a fold per 16-element chunk), the read-only kernel in
#     the same process as run 17's rows; the oracle over qmv_stream's shapes (1-7 tokens, f16/bf16,
#     groups 32/64/128, one partial tile to seven tiles, the LM head).
#  2. scripts/nightly: every GPU suite one binary at a time, a 60 s budgeted default sweep, the
#     gate against baselines/nvidia-h200.csv;
#  3. scripts/gpu-selftest: every bug class through the plugin, evidence/bug-class-results.md's table.
# From the tree (evidence/lib.sh): this checkout's build or GRIDFUZZ_PREBUILT's binaries; run 16's
# bench binary (built from a working tree no commit records) from GRIDFUZZ_OLD_PREBUILT=DIR, else
# that comparison is left out: `bash evidence/gpu-runs/2026-12-01-qmv-nightly.sh`.
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../lib.sh"
O=$OUT
bench="$(gridfuzz_built gridfuzz_affine_bench)" || exit 3
old_bench="$(evidence_old unknown gridfuzz_affine_bench)"
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader; } > "$O/summary.txt"
s=$SECONDS
timeout 80 "$bench" --benchmark_filter='dense/[a-z]+/[147]/|BM_qmv_stream|read_weight' \
  --benchmark_min_time=0.2 --benchmark_counters_tabular=true --benchmark_repetitions=3 \
  --benchmark_report_aggregates_only=true --benchmark_out="$O/qmv-bench.json" --benchmark_out_format=json > "$O/qmv-bench.txt" 2>&1
echo "bench rc=$? ($((SECONDS - s)) s)" >> "$O/summary.txt"
s=$SECONDS
if [ -n "$old_bench" ]; then
  timeout 30 "$old_bench" --benchmark_filter='hopper/[147]/|BM_qmv_stream/1/.*/3/' --benchmark_min_time=0.2 \
    --benchmark_counters_tabular=true --benchmark_repetitions=3 --benchmark_report_aggregates_only=true > "$O/qmv-bench-run16.txt" 2>&1
  echo "run 16 bench rc=$? ($((SECONDS - s)) s)" >> "$O/summary.txt"
else
  echo "run 16 bench: no binary (GRIDFUZZ_OLD_PREBUILT), left out" | tee "$O/qmv-bench-run16.txt" >> "$O/summary.txt"
fi
s=$SECONDS
{
  timeout 40 "$gf" run affine.qmm --variant hopper --set tokens=1,4,7 --set vocab=2176 \
    --set cols=2816,4096,12288 --set bits=4 --set group_size=32,64,128 --set dtype=bf16,f16 --csv "$O/qmv-oracle.csv"
  timeout 25 "$gf" run affine.qmm --variant hopper --set tokens=1,2,7 --set vocab=128256,14336,128,4224 \
    --set cols=4096 --set bits=4 --set group_size=64 --set dtype=bf16 --csv "$O/qmv-oracle.csv"
  timeout 15 "$gf" run affine.qmm --variant hopper --set tokens=1,5 --set vocab=4096 --set cols=28672,384,8320 \
    --set bits=4 --set group_size=64,128 --set dtype=bf16,f16 --csv "$O/qmv-oracle.csv"
} > "$O/qmv-oracle.txt" 2>&1
echo "oracle rc=$? ($((SECONDS - s)) s): $(($(wc -l < "$O/qmv-oracle.csv") - 1)) rows, $(grep -c ',pass,' "$O/qmv-oracle.csv") pass" >> "$O/summary.txt"
s=$SECONDS
GRIDFUZZ_SWEEP_BUDGET_S=60 timeout 300 bash scripts/nightly --artifacts "$O/nightly" --no-bench > "$O/nightly-console.log" 2>&1
echo "nightly rc=$? ($((SECONDS - s)) s)" >> "$O/summary.txt"
grep -E "GPU tests|gate|exit|FAILED|passed" "$O/nightly/nightly.log" >> "$O/summary.txt"
grep -hE "^sweep:|^time budget" "$O/nightly/sweep.log" >> "$O/summary.txt"
s=$SECONDS
timeout 120 bash scripts/gpu-selftest "$O/selftest" > "$O/selftest-console.log" 2>&1
echo "gpu-selftest rc=$? ($((SECONDS - s)) s)" >> "$O/summary.txt"
tail -3 "$O/selftest-console.log" >> "$O/summary.txt"
(cd "$O" && tar czf nightly.tgz nightly nightly-console.log && rm -rf nightly nightly-console.log)
cat "$O/summary.txt"
grep -E "median" "$O/qmv-bench.txt" | grep -E "hopper|read_weight_bytes/1/[0-9]+/4096/(4|32)/|qmv_stream/1/[0-9]+/4096/3/" | cut -c1-120
grep median "$O/qmv-bench-run16.txt" | cut -c1-110
grep -v ',pass,' "$O/qmv-oracle.csv" | tail -n +2 | head -5 | cut -c1-250
