#!/usr/bin/env bash
# qmv_stream (issue 17 item 3, the qmv half): run 16, the weight ring (cp.async, 3 stages per warp,
# scales and biases in a register ring as far ahead) over run 15's kernel (the merge of branch
# qmv2), with run 14's bench (main before run 15) for a same-run A/B. From the tree
# (evidence/lib.sh): gridfuzz, gridfuzz_affine_bench and gridfuzz_affine_gpu_tests of this
# checkout's build or GRIDFUZZ_PREBUILT's (the run used Release, sm_90 + the sm_90a hopper kernel,
# static CUDA runtime, strip --strip-debug; Google Benchmark's libbenchmark.so.1debian beside them):
#   bash evidence/perf-runs/2026-11-30-qmv/run16.sh   (OUT names the results folder)
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../../lib.sh"
O=$OUT
bench="$(gridfuzz_built gridfuzz_affine_bench)" || exit 3
affine_tests="$(gridfuzz_built gridfuzz_affine_gpu_tests)" || exit 3
# Run 14's bench binary for the same-run A/B: GRIDFUZZ_OLD_PREBUILT, else built here from 64f3840
# (the commit with run 14's kernel).
old_bench="$(evidence_old 64f3840 gridfuzz_affine_bench)" || exit 3
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv; } > "$O/device.txt" 2>&1
s=$SECONDS
# qmv (M 1, and 4/7 tokens at the LM head) variants, qmv_stream at 1-4 blocks per SM and the
# read-only kernel, in one process.
timeout 80 "$bench" --benchmark_filter='dense/[a-z]+/[147]/|BM_qmv_stream|read_weight' \
  --benchmark_min_time=0.2 --benchmark_counters_tabular=true --benchmark_repetitions=3 \
  --benchmark_report_aggregates_only=true --benchmark_out="$O/bench.json" --benchmark_out_format=json > "$O/bench.txt" 2>&1
echo "bench rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
s=$SECONDS
# Same-run A/B: run 14's bench binary (the kernel before runs 15-16) on the hopper and 3-per-SM rows.
timeout 25 "$old_bench" --benchmark_filter='hopper/1/|BM_qmv_stream/1/.*/3/' --benchmark_min_time=0.2 \
  --benchmark_counters_tabular=true --benchmark_repetitions=3 --benchmark_report_aggregates_only=true > "$O/bench-old.txt" 2>&1
echo "old bench rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
s=$SECONDS
timeout 40 "$gf" run affine.qmm --variant hopper --set tokens=1,4,7 --set vocab=2176 \
  --set cols=2816,4096,12288 --set bits=4 --set group_size=32,64,128 --set dtype=bf16,f16 \
  --csv "$O/oracle.csv" > "$O/oracle.txt" 2>&1
echo "oracle grid rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
s=$SECONDS
timeout 20 "$gf" run affine.qmm --variant hopper --set tokens=1,2,7 --set vocab=128256,14336,8,9,4097 \
  --set cols=4096 --set bits=4 --set group_size=64 --set dtype=bf16 --csv "$O/oracle.csv" >> "$O/oracle.txt" 2>&1
echo "oracle rows rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
s=$SECONDS
timeout 15 "$gf" run affine.qmm --variant hopper --set tokens=1,5 --set vocab=4096 --set cols=28672,384,8320 \
  --set bits=4 --set group_size=64,128 --set dtype=bf16,f16 --csv "$O/oracle.csv" >> "$O/oracle.txt" 2>&1
echo "oracle long/short rows rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
s=$SECONDS
timeout 30 "$affine_tests" > "$O/gpu-tests.txt" 2>&1
echo "gpu tests rc=$? ($((SECONDS - s)) s)" >> "$O/device.txt"
(timeout 6 cuobjdump -sass -fun '_ZN8gridfuzz6affine17qmv_stream_kernelI13__nv_bfloat16NS0_18WrappingInt32IndexEEEvNS0_10MatmulArgsE' \
  "$bench" | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed -E 's/ +/ /g' | cut -c1-100) > "$O/sass.txt" 2>&1
# A profile of the production call at the LM head, if Nsight Compute is on the machine.
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
if [ -n "$NCU" ]; then
  s=$SECONDS
  timeout 90 "$NCU" --kernel-name regex:qmv_stream --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section SchedulerStats "$bench" --benchmark_filter='hopper/1/128256/' \
    --benchmark_min_time=0.01 > "$O/ncu.txt" 2>&1
  echo "ncu rc=$? ($((SECONDS - s)) s) $NCU" >> "$O/device.txt"
else echo "no ncu on this machine" >> "$O/device.txt"; fi
cat "$O/device.txt"; grep -E "median" "$O/bench.txt" | cut -c1-150
tail -3 "$O/gpu-tests.txt"; echo "oracle rows: $(($(wc -l < "$O/oracle.csv") - 1)), pass: $(grep -c ',pass,' "$O/oracle.csv")"
grep -v ',pass,' "$O/oracle.csv" | head -5 | cut -c1-300; grep -c LDGSTS "$O/sass.txt"
grep median "$O/bench-old.txt" | cut -c1-110
grep -E "Throughput|Duration|Issue Slots|Warp Cycles Per Issued|No Eligible|Active Warps" "$O/ncu.txt" | head -20
