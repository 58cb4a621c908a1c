#!/usr/bin/env bash
# 2026-12-06 (written for nvidia-h200; ran on one H100, the H200 not lent): issue #33 item 4, the by_expert moe_vec
# (docs/KERNELS.md, "Ours: by_expert"). One device call, about 9 minutes at most:
#   1. the GGUF GPU tests (gridfuzz_gguf_gpu_tests: every suite, by_expert's oracle cases and its
#      bit-for-bit comparison with fixed included) -> $OUT/gpu_tests.log, gpu_tests.xml;
#   2. the moe_vec bench, the decode shapes of issue #33 (fixed, by_expert, vLLM's upstream at
#      1-64 tokens) and gemma-4 q4_0 fixed vs by_expert at 1-8191 tokens, with the copy bandwidth
#      before and after -> $OUT/bench.json (Google Benchmark JSON), bench.txt (console);
#   3. an oracle sweep of by_expert's planned cases (`sweep gguf.moe_vec --variant by_expert
#      --cases 0`: every boundary tier, untimed, every check on) -> $OUT/sweep.csv.xz, sweep.log.xz;
# then a short summary (tests, the distinct-expert read rates, the sweep's verdicts), printed last.
#
# The binaries come packed in .gf-moe/ (ignored by git): gridfuzz, gridfuzz_gguf_gpu_tests,
# gridfuzz_gguf_bench and the libbenchmark.so.1debian they were linked with, each as NAME.xz.
# Unpack, then run from the repository root:
#   mkdir -p /tmp/gf-moe && for f in .gf-moe/*.xz; do xz -dc "$f" > "/tmp/gf-moe/$(basename "$f" .xz)"; done && chmod +x /tmp/gf-moe/gridfuzz*
#   GRIDFUZZ_PREBUILT=/tmp/gf-moe OUT=$OUT bash evidence/2026-12-06-h100-moe-by-expert/job.sh
# GRIDFUZZ_TOTAL_S (default 540): the whole job's wall budget; the sweep gets what the tests and
# the bench leave (at least 60 s), and is killed 45 s after its budget so its rows so far stay.
set -u
source "$(dirname "$0")/../lib.sh"
run_dir=${GRIDFUZZ_RUN_DIR:-/tmp/gf-run-moe}
mkdir -p "$run_dir"
t_start=$(date +%s)
total=${GRIDFUZZ_TOTAL_S:-540}
summary="$OUT/summary.txt"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; nproc; "$gf" --version | head -2; } >> "$summary" 2>&1

# 1. GPU tests.
tests=$(gridfuzz_built gridfuzz_gguf_gpu_tests) || exit 3
t0=$(date +%s)
timeout -s KILL 200 "$tests" --gtest_output="xml:$OUT/gpu_tests.xml" > "$OUT/gpu_tests.log" 2>&1
rc=$?
echo "gridfuzz_gguf_gpu_tests: rc=$rc wall_s=$(( $(date +%s) - t0 )) $(grep -E '^\[  (PASSED|FAILED)  \]' "$OUT/gpu_tests.log" | head -1)" >> "$summary"
grep -E '^\[  FAILED  \]|^\[  SKIPPED \]' "$OUT/gpu_tests.log" | sort -u | head -20 >> "$summary"
grep -E '^CASE .*/by_expert/' "$OUT/gpu_tests.log" | grep -v '| verdict pass |' | head -20 >> "$summary"

# 2. Bench.
bench=$(gridfuzz_built gridfuzz_gguf_bench) || exit 3
t0=$(date +%s)
timeout -s KILL 240 "$bench" \
  --benchmark_filter='^(copy_d2d_1GiB|moe_vec_decode/|moe_vec/q4_0/(fixed|by_expert)/)' \
  --benchmark_out="$OUT/bench.json" --benchmark_out_format=json > "$OUT/bench.txt" 2>&1
echo "gridfuzz_gguf_bench: rc=$? wall_s=$(( $(date +%s) - t0 ))" >> "$summary"
python3 - "$OUT/bench.json" >> "$summary" 2>&1 <<'EOF'
# Per decode shape and token count: call time and the distinct experts' read rate of each kernel,
# and that rate as a share of what the device's DRAM moves per second (the copy's GB/s, which counts
# its reads and its writes: both are DRAM traffic).
import json, re, sys
try:
    runs = json.load(open(sys.argv[1]))["benchmarks"]
except Exception as e:
    print("bench.json unreadable:", e); sys.exit(0)
copy = [r["GBps_median"] for r in runs if r["name"].startswith("copy_d2d_1GiB") and "GBps_median" in r]
read = max(copy) if copy else 0
print(f"DRAM rate (copy, read + write): {read:.0f} GB/s (max of {len(copy)} copy runs)")
print("shape tokens kernel: call_us distinct_experts distinct_GBps (share of DRAM rate) kernel_us distinct_GBps_kernel")
for r in runs:
    m = re.match(r"(moe_vec_decode/[^/]+|moe_vec/q4_0)/(?:q4_0/)?([^/]+)/tokens:(\d+)", r["name"])
    if not m or "error_occurred" in r and r["error_occurred"]:
        if m: print(m.group(1), m.group(3), m.group(2), "ERROR", r.get("error_message", ""))
        continue
    share = r.get("distinct_expert_GBps", 0) / read if read else 0
    k = r.get("kernel_us_median")
    print(f"{m.group(1)} {m.group(3)} {m.group(2)}: {r['real_time']:.1f} {r.get('distinct_experts', 0):.0f} "
          f"{r.get('distinct_expert_GBps', 0):.0f} ({share:.2f})"
          + (f" {k:.1f} {r.get('distinct_expert_GBps_kernel', 0):.0f}" if k is not None else ""))
EOF

# 3. Oracle sweep of by_expert's planned cases.
left=$(( total - ($(date +%s) - t_start) - 45 ))
budget=$(( left > 60 ? left : 60 ))
t0=$(date +%s)
rm -f "$run_dir/sweep.csv"
timeout -s KILL $((budget + 45)) "$gf" sweep gguf.moe_vec --variant by_expert --cases 0 --timeout 120 \
  --workers-per-device 4 --time-budget "$budget" --csv "$run_dir/sweep.csv" > "$run_dir/sweep.log" 2>&1
rc=$?
echo "sweep (budget ${budget} s): rc=$rc wall_s=$(( $(date +%s) - t0 ))" >> "$summary"
grep -E "^(sweep:|time budget)" "$run_dir/sweep.log" >> "$summary"
grep -E "^FAIL" "$run_dir/sweep.log" | head -20 >> "$summary"
python3 evidence/rows.py phases "$run_dir/sweep.csv" >> "$summary" 2>&1
xz -T0 -f -k "$run_dir/sweep.csv" && cp "$run_dir/sweep.csv.xz" "$OUT/"
xz -T0 -c "$run_dir/sweep.log" > "$OUT/sweep.log.xz"
echo "job wall_s=$(( $(date +%s) - t_start ))" >> "$summary"
tail -n 120 "$summary"
