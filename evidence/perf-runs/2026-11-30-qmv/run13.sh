#!/usr/bin/env bash
# qmv_stream (issue 17 item 3, the qmv half): one H200 session, run from the repository root of the
# checkout sent to the device with the built binaries in gpu-qmv/ (gridfuzz, gridfuzz_affine_bench,
# gridfuzz_affine_gpu_tests: Release, sm_90 + the sm_90a hopper kernel, static CUDA runtime,
# strip --strip-debug; Google Benchmark's libbenchmark.so.1debian):
#   bash gpu-qmv/run.sh   (this file; OUT names the folder for the results)
set -u
B=gpu-qmv
O="${OUT:-/tmp/out}"; mkdir -p "$O"
export LD_LIBRARY_PATH="$PWD/$B:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv; } > "$O/device.txt" 2>&1
s=$SECONDS
# qmv (M 1) variants, qmv_stream at 1-4 blocks per SM and the read-only kernel, in one process.
timeout 60 "$B/gridfuzz_affine_bench" --benchmark_filter='/1/|read_weight' --benchmark_min_time=0.2 \
  --benchmark_counters_tabular=true --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
  --benchmark_out="$O/bench.json" --benchmark_out_format=json > "$O/bench.txt" 2>&1
echo "bench rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
s=$SECONDS
timeout 45 "$B/gridfuzz" run affine.qmm --variant hopper --set tokens=1,3,7 --set vocab=384,2176,14336 \
  --set cols=768,2816,4096,12288 --set bits=4 --set group_size=32,64,128 --set dtype=bf16,f16 \
  --csv "$O/oracle.csv" > "$O/oracle.txt" 2>&1
echo "oracle grid rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
s=$SECONDS
timeout 20 "$B/gridfuzz" run affine.qmm --variant hopper --set tokens=1,2,7 --set vocab=128256 --set cols=4096 \
  --set bits=4 --set group_size=64 --set dtype=bf16 --csv "$O/oracle.csv" >> "$O/oracle.txt" 2>&1
echo "oracle lm-head rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
s=$SECONDS
timeout 10 "$B/gridfuzz" run affine.qmm --variant hopper --set tokens=1,5 --set vocab=4096 --set cols=28672 \
  --set bits=4 --set group_size=64 --set dtype=bf16,f16 --csv "$O/oracle.csv" >> "$O/oracle.txt" 2>&1
echo "oracle long-row rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
s=$SECONDS
timeout 40 "$B/gridfuzz_affine_gpu_tests" > "$O/gpu-tests.txt" 2>&1
echo "gpu tests rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
(timeout 8 cuobjdump -sass -fun '_ZN8gridfuzz6affine17qmv_stream_kernelI13__nv_bfloat16NS0_18WrappingInt32IndexEEEvNS0_10MatmulArgsE' \
  "$B/gridfuzz_affine_bench" | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed -E 's/ +/ /g' | cut -c1-100) > "$O/sass.txt" 2>&1
cat "$O/device.txt"; grep -E "_median|^BM_read" "$O/bench.txt" | grep -E "median" | cut -c1-150
tail -3 "$O/gpu-tests.txt"; echo "oracle rows: $(($(wc -l < "$O/oracle.csv") - 1)), pass: $(grep -c ',pass,' "$O/oracle.csv")"
tail -3 "$O/oracle.txt"; grep -cE "LDG" "$O/sass.txt"
