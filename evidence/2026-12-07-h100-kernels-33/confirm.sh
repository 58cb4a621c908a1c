#!/usr/bin/env bash
# 2026-12-07, run 4: the final build of the hopper token-tile rule (c727987: the wide tile only
# where it runs in fewer waves), after job.sh's runs 1-2 and run 3's bench: in one device call
#   1. the affine GPU tests -> gpu_tests.log;
#   2. bench/affine at M 8192 (hopper, cuBLAS bf16, the other configurations) and at 128-2048 tokens
#      (hopper beside the narrow tile alone), 3 repetitions -> affine.json, affine.txt;
#   3. bench/mlx (MLX, fixed, hopper, cuBLAS at M 1-512 and 8192) -> mlx.json, mlx.txt;
#   4. the oracle sweep of affine.qmm hopper's boundary plan (244 cases, every check on) -> sweep.csv.xz;
# everything but summary.txt packed into $OUT/results.tar.xz. Binaries as job.sh takes them
# (GRIDFUZZ_PREBUILT=DIR from .gf-carry/).
set -u
source "$(dirname "$0")/../lib.sh"
final=$OUT
OUT=/tmp/gf-run-33-confirm
rm -rf "$OUT" && mkdir -p "$OUT"
summary="$final/summary.txt"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; "$gf" --version | head -2; } >> "$summary" 2>&1
t0=$(date +%s)
timeout -s KILL 90 "$(gridfuzz_built gridfuzz_affine_gpu_tests)" --gtest_output="xml:$OUT/gpu_tests.xml" > "$OUT/gpu_tests.log" 2>&1
echo "gridfuzz_affine_gpu_tests: rc=$? wall_s=$(( $(date +%s) - t0 )) $(grep -E '^\[==========\] [0-9]+ tests from [0-9]+ test suites ran' "$OUT/gpu_tests.log" | tail -1) failed: $(grep -c '^\[  FAILED  \]' "$OUT/gpu_tests.log")" >> "$summary"
t0=$(date +%s)
timeout -s KILL 150 "$(gridfuzz_built gridfuzz_affine_bench)" \
  --benchmark_filter='^BM_(affine_dense/hopper|cublas_bf16|hopper_config/[a-z_0-9x]+)/(8192|128|129|256|512|1024|2048)/' \
  --benchmark_min_time=0.1 --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
  --benchmark_out="$OUT/affine.json" --benchmark_out_format=json > "$OUT/affine.txt" 2>&1
echo "gridfuzz_affine_bench: rc=$? wall_s=$(( $(date +%s) - t0 ))" >> "$summary"
grep -E "_median" "$OUT/affine.txt" | awk '{print "  " $1, $2, $3}' | sed 's|/manual_time_median||; s|/min_time:0.100||' >> "$summary"
t0=$(date +%s)
timeout -s KILL 90 "$(gridfuzz_built gridfuzz_mlx_bench)" --benchmark_filter='/M:(128|256|512|8192)/' \
  --benchmark_out="$OUT/mlx.json" --benchmark_out_format=json > "$OUT/mlx.txt" 2>&1
echo "gridfuzz_mlx_bench (M 128-512, 8192): rc=$? wall_s=$(( $(date +%s) - t0 ))" >> "$summary"
python3 - "$OUT/mlx.json" >> "$summary" 2>&1 <<'PY'
import json, re, sys
for r in json.load(open(sys.argv[1]))["benchmarks"]:
    m = re.match(r"([^/]+/[^/]+|cublas_bf16)/M:(\d+)/N:(\d+)", r["name"])
    if m: print(f"  {m.group(3)} {m.group(2)} {m.group(1)}: {r.get('median_us', float('nan')):.1f} us {r.get('label', '')[:60]}")
PY
t0=$(date +%s)
timeout -s KILL 100 "$gf" sweep affine.qmm --variant hopper --cases 0 --timeout 60 --order cost --time-budget 80 \
  --csv "$OUT/sweep.csv" > "$OUT/sweep.log" 2>&1
echo "sweep affine.qmm hopper: rc=$? wall_s=$(( $(date +%s) - t0 )) $(grep -E '^sweep:' "$OUT/sweep.log")" >> "$summary"
grep -E "^FAIL" "$OUT/sweep.log" | head -10 >> "$summary"
xz -T0 "$OUT/sweep.csv"
tar -C "$OUT" -cJf "$final/results.tar.xz" .
cat "$summary"
