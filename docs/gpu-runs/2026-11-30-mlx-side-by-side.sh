#!/usr/bin/env bash
# Issue 16, item 7 (speed side by side) and the group 32/128 qmm_sm80 kernels, one H200 session.
# Run from a folder holding, built here (Release, sm_90, static CUDA runtime): gridfuzz_mlx_bench
# (bench/mlx), gridfuzz_mlx_gpu_tests (tests/gpu/mlx) and Google Benchmark's shared library
# (libbenchmark.so.1debian); cuBLAS 13 comes from the device's /usr/local/cuda/lib64.
# Output under $OUT: device.txt, gpu_tests.log, bench1.{txt,json}, bench2.{txt,json}.
set -u
cd "$(dirname "$0")"
O="${OUT:-/tmp/out}"; mkdir -p "$O"
export LD_LIBRARY_PATH="$PWD:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
t0=$SECONDS
{ date -u; nvidia-smi; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.sm --format=csv; } > "$O/device.txt" 2>&1
timeout 60 ./gridfuzz_mlx_gpu_tests --gtest_filter='*Groups32And128*:*SmallDenseShapesPassOnEveryCompiledKernel*' \
  > "$O/gpu_tests.log" 2>&1; echo "gpu_tests rc=$? ($((SECONDS - t0)) s)" >> "$O/summary.txt"
bench() {
  local s=$SECONDS
  timeout "$2" ./gridfuzz_mlx_bench --benchmark_counters_tabular=true \
    --benchmark_out="$O/$1.json" --benchmark_out_format=json > "$O/$1.txt" 2>&1
  echo "$1 rc=$? ($((SECONDS - s)) s)" >> "$O/summary.txt"
}
bench bench1 150
# A second whole run of the same binary, for the between-run spread, if time is left.
left=$((250 - (SECONDS - t0)))
[ "$left" -gt 60 ] && bench bench2 $((left - 10))
echo "total $((SECONDS - t0)) s" >> "$O/summary.txt"
head -1 "$O/device.txt"; tail -1 "$O/device.txt"; cat "$O/summary.txt"
grep -E "PASSED|FAILED" "$O/gpu_tests.log" | tail -3
grep -E "^(mlx|affine|cublas)" "$O/bench1.txt" | awk '{print $1, $2, $3}' | head -40
