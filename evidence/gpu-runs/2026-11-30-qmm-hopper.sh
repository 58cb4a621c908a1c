#!/usr/bin/env bash
# affine.qmm hopper path (issue 17 item 3): the second of two H200 sessions (2026-11-30 19:47 UTC),
# run from the repository root of the checkout sent to the device with the built binaries in gpu-qmm/
# (gridfuzz, gridfuzz_affine_bench, gridfuzz_affine_gpu_tests: Release, sm_90 + the sm_90a hopper
# kernel, static CUDA runtime, strip --strip-debug; Google Benchmark's libbenchmark.so.1debian):
#   bash gpu-qmm/run.sh
# Session 1 (19:44 UTC) ran the same script with wider timeouts, without the 8193-token cases,
# on the build before the raster order was fixed to AlongM (-run1-* files).
set -u
B=gpu-qmm
O="${OUT:-/tmp/out}"; mkdir -p "$O"
export LD_LIBRARY_PATH="$PWD/$B:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv; } > "$O/device.txt" 2>&1
s=$SECONDS
timeout 25 "$B/gridfuzz_affine_bench" --benchmark_filter='BM_(affine_dense/(fixed|hopper)|cublas_bf16)/8192/' \
  --benchmark_min_time=0.2 --benchmark_counters_tabular=true \
  --benchmark_out="$O/bench.json" --benchmark_out_format=json > "$O/bench.txt" 2>&1
echo "bench rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
s=$SECONDS
timeout 6 "$B/gridfuzz" run affine.qmm --variant hopper --set tokens=8192 --set vocab=4096,14336 --set cols=4096 \
  --set bits=4 --set group_size=64 --set dtype=bf16 --csv "$O/run.csv" > "$O/run.txt" 2>&1
echo "run big rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
s=$SECONDS
timeout 8 "$B/gridfuzz" run affine.qmm --variant hopper --set tokens=1,7,129,1000,8193 --set vocab=384,2176 --set cols=768 \
  --set bits=4 --set group_size=64,128 --set dtype=bf16 --csv "$O/run.csv" >> "$O/run.txt" 2>&1
echo "run small rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
s=$SECONDS
timeout 12 "$B/gridfuzz_affine_gpu_tests" --gtest_filter='HopperQmm*:*DenseSmall*' > "$O/gpu-tests.txt" 2>&1
echo "gpu tests rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
(timeout 5 cuobjdump -sass "$B/gridfuzz_affine_bench" | grep -oE '\b(HGMMA|HMMA)\.[A-Z0-9.]*' | sort | uniq -c) > "$O/sass.txt" 2>&1
cat "$O/device.txt"; grep -E "^BM_" "$O/bench.txt"; tail -3 "$O/gpu-tests.txt"; grep -ciE ",pass," "$O/run.csv"; tail -4 "$O/run.txt"; cat "$O/sass.txt"
