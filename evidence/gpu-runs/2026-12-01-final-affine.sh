#!/usr/bin/env bash
# 2026-12-01, nvidia-h200: the final build (78374d5: qmv_stream as in run 17, reformatted; the bench
# asks 1-3 blocks per SM) on the GPU: the affine GPU suite, the qmv oracle cases at the LM head and
# a partial tile, and the qmv bench rows at the LM head beside the read-only kernel. From the tree
# (evidence/lib.sh: this checkout's build, or GRIDFUZZ_PREBUILT's binaries):
# `bash evidence/gpu-runs/2026-12-01-final-affine.sh`.
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../lib.sh"
O=$OUT
bench="$(gridfuzz_built gridfuzz_affine_bench)" || exit 3
affine_tests="$(gridfuzz_built gridfuzz_affine_gpu_tests)" || exit 3
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$O/summary.txt"
timeout 40 "$affine_tests" > "$O/gpu-tests.txt" 2>&1
echo "affine gpu tests rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$O/gpu-tests.txt" | tr '\n' ' ')" >> "$O/summary.txt"
timeout 30 "$gf" run affine.qmm --variant hopper --set tokens=1,3,7 --set vocab=128256,4224 --set cols=4096,8320 \
  --set bits=4 --set group_size=64 --set dtype=bf16,f16 --csv "$O/oracle.csv" > "$O/oracle.txt" 2>&1
echo "oracle rc=$?: $(($(wc -l < "$O/oracle.csv") - 1)) rows, $(grep -c ',pass,' "$O/oracle.csv") pass" >> "$O/summary.txt"
timeout 40 "$bench" --benchmark_filter='hopper/1/128256/|BM_qmv_stream/1/128256/|read_weight_bytes/1/128256/' \
  --benchmark_min_time=0.2 --benchmark_counters_tabular=true --benchmark_repetitions=3 \
  --benchmark_report_aggregates_only=true > "$O/bench.txt" 2>&1
echo "bench rc=$?" >> "$O/summary.txt"
cat "$O/summary.txt"; grep median "$O/bench.txt" | cut -c1-100
