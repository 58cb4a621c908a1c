#!/usr/bin/env bash
# Issue 16, item 7: the speed table (bench/mlx, gridfuzz_mlx_bench), one H200 session. From the
# tree (evidence/lib.sh): gridfuzz_mlx_bench of this checkout's build (Release; the run used one
# built for sm_90 with the static CUDA runtime), or GRIDFUZZ_PREBUILT's with Google Benchmark's
# shared library (libbenchmark.so.1debian) beside it; cuBLAS 13 comes from the device's
# /usr/local/cuda/lib64. Output under $OUT: device.txt, bench.txt, bench.json.
# (Session 1 of this script, 14:42 UTC, also ran gridfuzz_mlx_gpu_tests
# --gtest_filter='*Groups32And128*:*SmallDenseShapesPassOnEveryCompiledKernel*', which passed, and
# a bench binary that allocated before creating its context and aborted; this is session 2, with
# a 20 s device allowance left, so one bench run and nothing else.)
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../lib.sh"
O=$OUT
bench="$(gridfuzz_built gridfuzz_mlx_bench)" || exit 3
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv; } > "$O/device.txt" 2>&1
s=$SECONDS
timeout 16 stdbuf -oL "$bench" --benchmark_counters_tabular=true \
  --benchmark_out="$O/bench.json" --benchmark_out_format=json > "$O/bench.txt" 2>&1
echo "bench rc=$? ($((SECONDS - s)) s)" | tee -a "$O/device.txt"
cat "$O/device.txt"; grep -cE "^(mlx|affine|cublas)" "$O/bench.txt"
