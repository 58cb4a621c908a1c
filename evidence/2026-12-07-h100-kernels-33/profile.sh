#!/usr/bin/env bash
# 2026-12-07, run 5: the profiles the first runs lacked (issue #33's items not met): Nsight Compute
# (clocks left alone) on one launch each of
#   - qmv_stream at 14336 x 4096, M 1 (hopper), and the read-only kernel over the same bytes;
#   - the GGUF MoE GEMV of gguf.moe_vec `fixed` and `zchunk` at q4_0, 64 tokens, top_k 8, cols
#     384256 and 384288 (12008 and 12009 blocks a row), through `gridfuzz run` (its worker process);
# sections SpeedOfLight, MemoryWorkloadAnalysis, Occupancy, LaunchStats, WarpStateStats ->
# $OUT/ncu-qmv.txt, $OUT/ncu-odd.txt; a summary of the key lines last. Binaries as confirm.sh's.
set -u
source "$(dirname "$0")/../lib.sh"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { echo "ncu not found"; exit 3; }
sections=(--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section WarpStateStats)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; "$gf" --version | sed -n 2p; } > "$OUT/summary.txt"
bench=$(gridfuzz_built gridfuzz_affine_bench) || exit 3
for p in "qmv_stream|^BM_affine_dense/hopper/1/14336/" "read_only|^BM_read_weight_bytes/1/14336/4096/32/"; do
  echo "=== ${p%%|*} (${p#*|})" >> "$OUT/ncu-qmv.txt"
  timeout -s KILL 60 "$ncu" --clock-control none -k "regex:${p%%|*}" -c 1 "${sections[@]}" \
    "$bench" --benchmark_filter="${p#*|}" --benchmark_min_time=0.01 >> "$OUT/ncu-qmv.txt" 2>&1
  echo "ncu ${p%%|*}: rc=$?" >> "$OUT/summary.txt"
done
for v in fixed zchunk; do
  for cols in 384256 384288; do
    echo "=== $v cols=$cols" >> "$OUT/ncu-odd.txt"
    timeout -s KILL 90 "$ncu" --clock-control none --target-processes all -k "regex:gemv_" -c 1 "${sections[@]}" \
      "$gf" run gguf.moe_vec --variant "$v" --set tokens=64 --set top_k=8 --set cols="$cols" >> "$OUT/ncu-odd.txt" 2>&1
    echo "ncu $v $cols: rc=$?" >> "$OUT/summary.txt"
  done
done
grep -E "^=== |Profiling \"|Duration|DRAM Throughput|Compute \(SM\) Throughput|L1/TEX Hit|L2 Hit|Achieved Occupancy|Registers Per|Grid Size|Block Size|Stall|Warp Cycles Per Issued|No Eligible|Issued Warp" \
  "$OUT/ncu-qmv.txt" "$OUT/ncu-odd.txt" | cut -c1-170 >> "$OUT/summary.txt"
cat "$OUT/summary.txt"
