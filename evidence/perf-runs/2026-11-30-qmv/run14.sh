#!/usr/bin/env bash
# qmv_stream (issue 17 item 3, the qmv half): run 14, the second H200 session (run13.sh with
# tighter timeouts). From the tree (evidence/lib.sh): gridfuzz, gridfuzz_affine_bench and
# gridfuzz_affine_gpu_tests of this checkout's build or GRIDFUZZ_PREBUILT's (the run used binaries
# built for it: Release, sm_90 + the sm_90a hopper kernel, static CUDA runtime, strip
# --strip-debug; Google Benchmark's libbenchmark.so.1debian beside them):
#   bash evidence/perf-runs/2026-11-30-qmv/run14.sh   (OUT names the folder for the results)
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../../lib.sh"
O=$OUT
bench="$(gridfuzz_built gridfuzz_affine_bench)" || exit 3
affine_tests="$(gridfuzz_built gridfuzz_affine_gpu_tests)" || exit 3
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv; } > "$O/device.txt" 2>&1
s=$SECONDS
# qmv (M 1) variants, qmv_stream at 1-4 blocks per SM and the read-only kernel, in one process.
timeout 52 "$bench" --benchmark_filter='/1/|read_weight' --benchmark_min_time=0.2 \
  --benchmark_counters_tabular=true --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
  --benchmark_out="$O/bench.json" --benchmark_out_format=json > "$O/bench.txt" 2>&1
echo "bench rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
s=$SECONDS
timeout 18 "$gf" run affine.qmm --variant hopper --set tokens=1,3,7 --set vocab=384,2176,14336 \
  --set cols=768,2816,4096,12288 --set bits=4 --set group_size=32,64,128 --set dtype=bf16,f16 \
  --csv "$O/oracle.csv" > "$O/oracle.txt" 2>&1
echo "oracle grid rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
s=$SECONDS
timeout 6 "$gf" run affine.qmm --variant hopper --set tokens=1,2,7 --set vocab=128256 --set cols=4096 \
  --set bits=4 --set group_size=64 --set dtype=bf16 --csv "$O/oracle.csv" >> "$O/oracle.txt" 2>&1
echo "oracle lm-head rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
s=$SECONDS
timeout 5 "$gf" run affine.qmm --variant hopper --set tokens=1,5 --set vocab=4096 --set cols=28672 \
  --set bits=4 --set group_size=64 --set dtype=bf16,f16 --csv "$O/oracle.csv" >> "$O/oracle.txt" 2>&1
echo "oracle long-row rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
s=$SECONDS
timeout 14 "$affine_tests" > "$O/gpu-tests.txt" 2>&1
echo "gpu tests rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
(timeout 4 cuobjdump -sass -fun '_ZN8gridfuzz6affine17qmv_stream_kernelI13__nv_bfloat16NS0_18WrappingInt32IndexEEEvNS0_10MatmulArgsE' \
  "$bench" | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed -E 's/ +/ /g' | cut -c1-100) > "$O/sass.txt" 2>&1
cat "$O/device.txt"; grep -E "_median|^BM_read" "$O/bench.txt" | grep -E "median" | cut -c1-150
tail -3 "$O/gpu-tests.txt"; echo "oracle rows: $(($(wc -l < "$O/oracle.csv") - 1)), pass: $(grep -c ',pass,' "$O/oracle.csv")"
tail -3 "$O/oracle.txt"; grep -cE "LDG" "$O/sass.txt"
