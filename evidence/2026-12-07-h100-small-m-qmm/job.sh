#!/usr/bin/env bash
# 2026-12-07: issue #33 item 3, qmm_small (affine.qmm's "hopper" variant at 2-64 tokens, 4-bit
# weights; docs/KERNELS.md, "Ours: qmm_small"). One device call, under 300 s of wall time:
#   1. the affine GPU tests (gridfuzz_affine_gpu_tests: every suite; QmmSmall.* runs the new path
#      through the runner at 2, 8, 16, 33 and 64 tokens against the split and float64 CPU references
#      and against the fixed path) -> $OUT/gpu_tests.log, gpu_tests.xml;
#   2. the small-M bench: M 1, 2, 4, ..., 512 at 14336 x 4096 and 128256 x 4096 (bf16, 4-bit, group
#      64), hopper, fixed and cuBLAS bf16 side by side in one process, the L2 flushed before each
#      sample, and qmm_small with 2 and 4 K parts at 2-32 tokens (BM_qmm_small_parts)
#      -> $OUT/bench.json (Google Benchmark JSON), bench.txt (console). MLX's own kernels are
#      not in this bench (bench/mlx); their M 16 times are in docs/PERFORMANCE.md;
#   3. an oracle sweep of affine.qmm hopper's plan, cheapest first (`sweep affine.qmm --variant hopper --cases 0 --order cost`:
#      every boundary tier, every check on) with a kill timer -> $OUT/sweep.csv.xz, sweep.log.xz;
# then a summary (tests, the bench table with hopper / cuBLAS and the issue's M 16 targets, the
# sweep's verdicts), printed last.
#
# The binaries come packed in .gf-smallm/ (ignored by git): gridfuzz, gridfuzz_affine_gpu_tests,
# gridfuzz_affine_bench and the libbenchmark.so.1debian they were linked with, each as NAME.xz.
# Unpack, then run from the repository root:
#   mkdir -p /tmp/gf-sm && for f in .gf-smallm/*.xz; do xz -dc "$f" > "/tmp/gf-sm/$(basename "$f" .xz)"; done && chmod +x /tmp/gf-sm/gridfuzz*
#   GRIDFUZZ_PREBUILT=/tmp/gf-sm OUT=$OUT bash evidence/2026-12-07-h100-small-m-qmm/job.sh
# GRIDFUZZ_TOTAL_S (default 285): the whole job's wall budget; the sweep gets what the tests and
# the bench leave (at least 30 s), and is killed 10 s after its budget so its rows so far stay.
set -u
source "$(dirname "$0")/../lib.sh"
run_dir=${GRIDFUZZ_RUN_DIR:-/tmp/gf-run-smallm}
mkdir -p "$run_dir"
t_start=$(date +%s)
total=${GRIDFUZZ_TOTAL_S:-285}
summary="$OUT/summary.txt"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; nproc; "$gf" --version | head -2; } >> "$summary" 2>&1

# 1. GPU tests.
tests=$(gridfuzz_built gridfuzz_affine_gpu_tests) || exit 3
t0=$(date +%s)
timeout -s KILL 110 "$tests" --gtest_output="xml:$OUT/gpu_tests.xml" > "$OUT/gpu_tests.log" 2>&1
rc=$?
echo "gridfuzz_affine_gpu_tests: rc=$rc wall_s=$(( $(date +%s) - t0 )) $(grep -E '^\[  (PASSED|FAILED)  \]' "$OUT/gpu_tests.log" | head -1)" >> "$summary"
grep -E '^\[  FAILED  \]|^\[  SKIPPED \]' "$OUT/gpu_tests.log" | sort -u | head -20 >> "$summary"
grep -E '^\[affine\] affine.qmm/hopper/' "$OUT/gpu_tests.log" | grep -v 'verdict pass' | head -10 >> "$summary"
grep -E 'Failure|first at' "$OUT/gpu_tests.log" | head -10 >> "$summary"

# 2. Bench.
bench=$(gridfuzz_built gridfuzz_affine_bench) || exit 3
t0=$(date +%s)
timeout -s KILL 110 "$bench" --benchmark_filter='^BM_(small_m|cublas_bf16_flushed|qmm_small_parts)/' --benchmark_counters_tabular=true \
  --benchmark_out="$OUT/bench.json" --benchmark_out_format=json > "$OUT/bench.txt" 2>&1
echo "gridfuzz_affine_bench: rc=$? wall_s=$(( $(date +%s) - t0 ))" >> "$summary"
python3 - "$OUT/bench.json" >> "$summary" 2>&1 <<'PY'
# Per shape and M: hopper's time (and the kernel that ran), fixed's, cuBLAS bf16's, hopper / cuBLAS,
# hopper's weight read rate; then the issue's M 16 targets (hopper <= 0.5 x cuBLAS at both shapes).
import json, re, sys
try:
    runs = json.load(open(sys.argv[1]))["benchmarks"]
except Exception as e:
    print("bench.json unreadable:", e); sys.exit(0)
t = {}
for r in runs:
    m = re.match(r"BM_(small_m/(hopper|fixed)|cublas_bf16_flushed)/(\d+)/(\d+)/4096", r["name"])
    if not m: continue
    who = m.group(2) or "cublas"
    if r.get("error_occurred"):
        t[(int(m.group(4)), int(m.group(3)), who)] = (None, r.get("error_message", "error"), 0)
        continue
    t[(int(m.group(4)), int(m.group(3)), who)] = (r["real_time"], r.get("label", ""), r.get("weight_GB/s", 0) / 1e9)
print("N M: hopper_us (kernel) fixed_us cublas_us hopper/cublas hopper/fixed hopper_weight_GBps")
for n in (14336, 128256):
    for mm in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512):
        h, f, c = (t.get((n, mm, w)) for w in ("hopper", "fixed", "cublas"))
        if not h or not f or not c or None in (h[0], f[0], c[0]):
            print(n, mm, "missing or error:", h, f, c); continue
        print(f"{n} {mm}: {h[0]:.1f} ({h[1]}) {f[0]:.1f} {c[0]:.1f} {h[0]/c[0]:.2f} {h[0]/f[0]:.2f} {h[2]:.0f}")
print("qmm_small K parts (N M parts: us weight_GBps):")
for r in runs:
    m = re.match(r"BM_qmm_small_parts/(\d+)/(\d+)/4096/(\d)", r["name"])
    if m and not r.get("error_occurred"):
        print(f"  {m.group(2)} {m.group(1)} {m.group(3)}: {r['real_time']:.1f} {r.get('GB/s', 0) / 1e9:.0f}")
for n in (14336, 128256):
    h, c = t.get((n, 16, "hopper")), t.get((n, 16, "cublas"))
    if h and c and h[0] and c[0]:
        print(f"target M 16 N {n}: hopper/cublas {h[0]/c[0]:.2f} (<= 0.50: {'met' if h[0] <= 0.5 * c[0] else 'NOT met'})")
PY

# 3. Oracle sweep of hopper's planned cases.
left=$(( total - ($(date +%s) - t_start) - 15 ))
budget=$(( left > 30 ? left : 30 ))
t0=$(date +%s)
rm -f "$run_dir/sweep.csv"
timeout -s KILL $((budget + 10)) "$gf" sweep affine.qmm --variant hopper --cases 0 --timeout 60 \
  --order cost --time-budget "$budget" --csv "$run_dir/sweep.csv" > "$run_dir/sweep.log" 2>&1
rc=$?
echo "sweep (budget ${budget} s): rc=$rc wall_s=$(( $(date +%s) - t0 ))" >> "$summary"
grep -E "^(sweep:|time budget)" "$run_dir/sweep.log" >> "$summary"
grep -E "^FAIL" "$run_dir/sweep.log" | head -20 >> "$summary"
python3 - "$run_dir/sweep.csv" >> "$summary" 2>&1 <<'PY'
# Verdicts of the sweep's rows by token range: 2-64 tokens (qmm_small where eligible), 1, 65 and more.
import csv, collections, sys
try:
    rows = list(csv.DictReader(open(sys.argv[1])))
except Exception as e:
    print("sweep.csv unreadable:", e); sys.exit(0)
by = collections.defaultdict(collections.Counter)
for r in rows:
    try: t = int(r["tokens"])
    except (KeyError, ValueError): continue
    by["1 token" if t == 1 else "2-64 tokens" if t <= 64 else "65+ tokens"][r.get("verdict", "?")] += 1
for k in sorted(by): print(f"sweep {k}: " + " ".join(f"{v}={n}" for v, n in sorted(by[k].items())))
PY
xz -T0 -f -k "$run_dir/sweep.csv" 2>/dev/null && cp "$run_dir/sweep.csv.xz" "$OUT/"
xz -T0 -c "$run_dir/sweep.log" > "$OUT/sweep.log.xz"
echo "job wall_s=$(( $(date +%s) - t_start ))" >> "$summary"
tail -n 80 "$summary"
