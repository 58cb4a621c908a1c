#!/usr/bin/env bash
# affine.qmm hopper path (issue 17 item 3): the second of two H200 sessions (2026-11-30 19:47 UTC).
# From the tree (evidence/lib.sh): gridfuzz, gridfuzz_affine_bench and gridfuzz_affine_gpu_tests of
# this checkout's build or GRIDFUZZ_PREBUILT's (the run used Release, sm_90 + the sm_90a hopper
# kernel, static CUDA runtime, strip --strip-debug; Google Benchmark's libbenchmark.so.1debian).
# Session 1 (19:44 UTC) ran the same script with wider timeouts, without the 8193-token cases,
# on the build before the raster order was fixed to AlongM (-run1-* files).
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../lib.sh"
O=$OUT
bench="$(gridfuzz_built gridfuzz_affine_bench)" || exit 3
affine_tests="$(gridfuzz_built gridfuzz_affine_gpu_tests)" || exit 3
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv; } > "$O/device.txt" 2>&1
s=$SECONDS
timeout 25 "$bench" --benchmark_filter='BM_(affine_dense/(fixed|hopper)|cublas_bf16)/8192/' \
  --benchmark_min_time=0.2 --benchmark_counters_tabular=true \
  --benchmark_out="$O/bench.json" --benchmark_out_format=json > "$O/bench.txt" 2>&1
echo "bench rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
s=$SECONDS
timeout 6 "$gf" run affine.qmm --variant hopper --set tokens=8192 --set vocab=4096,14336 --set cols=4096 \
  --set bits=4 --set group_size=64 --set dtype=bf16 --csv "$O/run.csv" > "$O/run.txt" 2>&1
echo "run big rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
s=$SECONDS
timeout 8 "$gf" run affine.qmm --variant hopper --set tokens=1,7,129,1000,8193 --set vocab=384,2176 --set cols=768 \
  --set bits=4 --set group_size=64,128 --set dtype=bf16 --csv "$O/run.csv" >> "$O/run.txt" 2>&1
echo "run small rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
s=$SECONDS
timeout 12 "$affine_tests" --gtest_filter='HopperQmm*:*DenseSmall*' > "$O/gpu-tests.txt" 2>&1
echo "gpu tests rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
(timeout 5 cuobjdump -sass "$bench" | grep -oE '\b(HGMMA|HMMA)\.[A-Z0-9.]*' | sort | uniq -c) > "$O/sass.txt" 2>&1
cat "$O/device.txt"; grep -E "^BM_" "$O/bench.txt"; tail -3 "$O/gpu-tests.txt"; grep -ciE ",pass," "$O/run.csv"; tail -4 "$O/run.txt"; cat "$O/sass.txt"
