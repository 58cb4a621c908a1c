#!/usr/bin/env bash
# 2026-12-07: issue #33, items 1-4 in one device call: every kernel of the issue beside upstream's
# and cuBLAS (or the read-only kernel) in one run, with the profiles that explain the gaps.
#   0. the affine GPU tests -> gpu_tests.log, gpu_tests.xml;
#   1. bench/affine: affine.qmm hopper/fixed beside cuBLAS bf16 at M 8192, with the hopper GEMM's
#      other tiles and schedules (bench/affine/hopper_configs.hpp) (item 1); qmv at M 1
#      (hopper's qmv_stream) beside the read-only kernel over the same bytes (item 2); M 1-512
#      hopper/fixed beside cuBLAS, L2 flushed (item 3) -> affine.json, affine.txt; then qmv at M 1,
#      this build against the build before its qmv_stream change, in turn -> qmv-ab.jsonl;
#   2. bench/mlx: MLX's qmv/qmm_sm80 as MLX dispatches them beside affine.qmm fixed and hopper and
#      cuBLAS, M 1-512 and 8192 (item 3's "no slower than MLX's") -> mlx.json, mlx.txt;
#   3. bench/gguf: the decode MoE GEMV shapes, fixed, by_expert and vLLM's kernel, 1-64 tokens,
#      with the copy rate (item 4's share of the read rate) -> gguf.json, gguf.txt;
#   4. item 4's odd block count: gguf.moe_vec fixed/zchunk/by_expert and vllm.moe_vec upstream at
#      q4_0, 64 tokens, top_k 8, cols 384256 and 384288 (12008 and 12009 blocks), timed by
#      `gridfuzz run --timing` (L2 flushed, 20 samples, oracle on) -> odd.csv;
#   5. Nsight Compute (clocks left alone) on one launch each: hopper's CUTLASS kernel and cuBLAS at
#      8192 x 14336 x 4096, qmv_stream at the LM head, by_expert's GEMV at Qwen3 gate/up 64 tokens
#      -> ncu.txt (SpeedOfLight, MemoryWorkloadAnalysis, Occupancy, LaunchStats);
#   6. oracle sweeps of affine.qmm hopper and gguf.moe_vec by_expert (their boundary plans,
#      cheapest first) for the time left -> sweeps.tar.xz;
# then a summary, printed last ($OUT/summary.txt); everything else in $OUT/results.tar.xz.
#
# The binaries come packed in .gf-carry/ (ignored by git): gridfuzz, gridfuzz_affine_gpu_tests, the
# three benches (the affine one built with -DGRIDFUZZ_HOPPER_CONFIGS=ON), gridfuzz_affine_bench_old
# (the affine bench of the commit before this job's qmv_stream change) and the
# libbenchmark.so.1debian they were linked with, each as NAME.xz. Unpack, then run from the
# repository root:
#   mkdir -p /tmp/gfb && for f in .gf-carry/*.xz; do xz -dc "$f" > "/tmp/gfb/$(basename "$f" .xz)"; done && chmod +x /tmp/gfb/gridfuzz*
#   GRIDFUZZ_PREBUILT=/tmp/gfb OUT=$OUT bash evidence/2026-12-07-h100-kernels-33/job.sh
# GRIDFUZZ_TOTAL_S (default 540): the job's wall budget; the sweeps get what the rest leaves.
set -u
source "$(dirname "$0")/../lib.sh"
run_dir=${GRIDFUZZ_RUN_DIR:-/tmp/gf-run-33}
mkdir -p "$run_dir"
t_start=$(date +%s)
total=${GRIDFUZZ_TOTAL_S:-540}
# Everything but the summary is written under $run_dir/out and packed into $OUT/results.tar.xz at
# the end (the device tool returns at most 8 files).
final=$OUT
OUT=$run_dir/out
rm -rf "$OUT" && mkdir -p "$OUT"
summary="$final/summary.txt"
{ nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader; date -u; nproc; "$gf" --version | head -2; } >> "$summary" 2>&1
step() { echo "$1: rc=$2 wall_s=$(( $(date +%s) - $3 ))" >> "$summary"; }

# 0. The affine GPU tests (qmv_stream, qmm_small and the CUTLASS path against the split and float64
#    CPU references; killed at 110 s) -> gpu_tests.log, gpu_tests.xml.
tests=$(gridfuzz_built gridfuzz_affine_gpu_tests) || exit 3
t0=$(date +%s)
timeout -s KILL 110 "$tests" --gtest_output="xml:$OUT/gpu_tests.xml" > "$OUT/gpu_tests.log" 2>&1
step "gridfuzz_affine_gpu_tests $(grep -E '^\[  (PASSED|FAILED)  \]' "$OUT/gpu_tests.log" | head -1)" $? "$t0"
grep -E '^\[  FAILED  \]|^\[  SKIPPED \]' "$OUT/gpu_tests.log" | sort -u | head -20 >> "$summary"

# 1. bench/affine (killed at 150 s), with the hopper GEMM's other configurations where built.
bench=$(gridfuzz_built gridfuzz_affine_bench) || exit 3
t0=$(date +%s)
timeout -s KILL 150 "$bench" \
  --benchmark_filter='^BM_(affine_dense/(fixed|hopper)|cublas_bf16|hopper_config/[a-z_0-9x]+)/(8192|128|129|256|512|1024|2048)/|^BM_affine_dense/hopper/1/|^BM_qmv_stream/1/|^BM_read_weight|^BM_(small_m|cublas_bf16_flushed)/' \
  --benchmark_repetitions=3 --benchmark_report_aggregates_only=true --benchmark_counters_tabular=true \
  --benchmark_out="$OUT/affine.json" --benchmark_out_format=json > "$OUT/affine.txt" 2>&1
step gridfuzz_affine_bench $? "$t0"

# 1b. qmv at M 1, this build's qmv_stream (its first items in flight before the token row is
#     staged) against the build before it (gridfuzz_affine_bench_old beside the binaries), in
#     turn, twice each -> qmv-ab.json (one file per run, concatenated as JSON lines).
old_bench="$bin_dir/gridfuzz_affine_bench_old"
if [ -x "$old_bench" ]; then
  t0=$(date +%s)
  for rep in 1 2; do
    for b in new old; do
      exe="$bench"; [ $b = old ] && exe="$old_bench"
      timeout -s KILL 40 "$exe" --benchmark_filter='^BM_affine_dense/hopper/1/|^BM_qmv_stream/1/[0-9]+/4096/3/|^BM_read_weight' \
        --benchmark_min_time=0.05 --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
        --benchmark_out="$run_dir/qmv-$b-$rep.json" --benchmark_out_format=json > /dev/null 2>&1
      python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['build']=sys.argv[2]; d['rep']=int(sys.argv[3]); print(json.dumps(d))" \
        "$run_dir/qmv-$b-$rep.json" "$b" "$rep" >> "$OUT/qmv-ab.jsonl" 2>/dev/null
    done
  done
  step "qmv A/B (new, old, new, old)" 0 "$t0"
fi

# 2. bench/mlx (killed at 120 s; about 16 s for the 36 entries of 2026-11-30).
bench=$(gridfuzz_built gridfuzz_mlx_bench) || exit 3
t0=$(date +%s)
timeout -s KILL 120 "$bench" --benchmark_counters_tabular=true \
  --benchmark_out="$OUT/mlx.json" --benchmark_out_format=json > "$OUT/mlx.txt" 2>&1
step gridfuzz_mlx_bench $? "$t0"

# 3. bench/gguf decode shapes (killed at 100 s).
bench=$(gridfuzz_built gridfuzz_gguf_bench) || exit 3
t0=$(date +%s)
timeout -s KILL 100 "$bench" --benchmark_filter='^(copy_d2d_1GiB|moe_vec_decode/)' \
  --benchmark_out="$OUT/gguf.json" --benchmark_out_format=json > "$OUT/gguf.txt" 2>&1
step gridfuzz_gguf_bench $? "$t0"

# 4. The odd block count, timed through the runner (each case in its own worker).
t0=$(date +%s)
rm -f "$run_dir/odd.csv"
for k in "gguf.moe_vec --variant fixed --variant zchunk --variant by_expert" "vllm.moe_vec --variant upstream"; do
  # shellcheck disable=SC2086  # $k is a kernel and its options
  timeout -s KILL 60 "$gf" run $k --set tokens=64 --set top_k=8 --set cols=384256,384288 \
    --timing --csv "$run_dir/odd.csv" >> "$run_dir/odd.txt" 2>&1
  step "odd cols: $k" $? "$t0"
done
cp "$run_dir/odd.csv" "$OUT/" 2>/dev/null

# 5. Nsight Compute, one launch each (killed at 60 s each).
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
if [ -n "$ncu" ]; then
  profile() {  # NAME KERNEL_REGEX BENCH FILTER
    local t0; t0=$(date +%s)
    echo "=== $1 ($2; $4)" >> "$OUT/ncu.txt"
    timeout -s KILL 60 "$ncu" --clock-control none -k "regex:$2" -c 1 \
      --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
      "$(gridfuzz_built "$3")" --benchmark_filter="$4" --benchmark_min_time=0.01 >> "$OUT/ncu.txt" 2>&1
    step "ncu $1" $? "$t0"
  }
  profile hopper_qmm_8192x14336 'device_kernel|cutlass' gridfuzz_affine_bench '^BM_affine_dense/hopper/8192/14336/'
  profile cublas_8192x14336 'gemm|nvjet|xmma' gridfuzz_affine_bench '^BM_cublas_bf16/8192/14336/'
  profile qmv_stream_lm_head 'qmv_stream' gridfuzz_affine_bench '^BM_affine_dense/hopper/1/128256/'
  profile read_only_lm_head 'read_only' gridfuzz_affine_bench '^BM_read_weight_bytes/1/128256/4096/8/'
  profile by_expert_qwen3_64 'gemv_by_expert' gridfuzz_gguf_bench '^moe_vec_decode/qwen3_235b_gate_up/q4_0/gguf.by_expert/tokens:64'
else
  echo "ncu: not found" >> "$summary"
fi

# 6. Oracle sweeps for the time left, half each.
left=$(( total - ($(date +%s) - t_start) - 25 ))
budget=$(( left > 40 ? left / 2 : 20 ))
for k in "affine.qmm --variant hopper" "gguf.moe_vec --variant by_expert"; do
  t0=$(date +%s)
  name=$(echo "$k" | awk '{print $1 "-" $3}')
  # shellcheck disable=SC2086
  timeout -s KILL $((budget + 10)) "$gf" sweep $k --cases 0 --timeout 60 --order cost --time-budget "$budget" \
    --csv "$run_dir/sweep-$name.csv" > "$run_dir/sweep-$name.log" 2>&1
  step "sweep $k (budget ${budget} s)" $? "$t0"
  grep -E "^(sweep:|time budget)" "$run_dir/sweep-$name.log" >> "$summary"
  grep -E "^FAIL" "$run_dir/sweep-$name.log" | head -10 >> "$summary"
done
(cd "$run_dir" && tar -cJf "$OUT/sweeps.tar.xz" sweep-* odd.txt 2>/dev/null)

# Summary.
python3 - "$OUT" >> "$summary" 2>&1 <<'PY'
import csv, json, re, sys, collections
out = sys.argv[1]
def load(name):
    try: return json.load(open(f"{out}/{name}"))["benchmarks"]
    except Exception as e: print(name, "unreadable:", e); return []
# 1 and 2: affine (medians of 3 repetitions where aggregated).
a = {}
for r in load("affine.json"):
    if r.get("error_occurred"): print("affine error:", r["name"], r.get("error_message")); continue
    if r.get("run_type") == "aggregate" and r.get("aggregate_name") != "median": continue
    a[r.get("run_name", r["name"])] = r
def t(prefix):
    m = [v for k, v in a.items() if k.startswith(prefix)]
    return (m[0]["real_time"], m[0].get("time_unit", "")) if m else (None, "")
print("item 1, M 8192 (ms): N hopper fixed cublas hopper/cublas")
for n in (4096, 14336):
    h, f, c = (t(f"BM_{w}/8192/{n}/4096")[0] for w in ("affine_dense/hopper", "affine_dense/fixed", "cublas_bf16"))
    if h and c: print(f"  {n}: {h:.3f} {f or 0:.3f} {c:.3f} {h / c:.2f}")
print("item 2, M 1 (us): N hopper qmv_stream(1,2,3/SM) read-only best hopper/read-only")
for n in (4096, 14336, 128256):
    h = t(f"BM_affine_dense/hopper/1/{n}/4096")[0]
    s = [t(f"BM_qmv_stream/1/{n}/4096/{b}")[0] for b in (1, 2, 3)]
    ro = [x for x in (t(f"BM_read_weight_bytes/1/{n}/4096/{b}")[0] for b in (4, 8, 16, 32)) if x]
    if h and ro: print(f"  {n}: {h:.1f} {s} {min(ro):.1f} {min(ro) / h:.2f}")
print("item 3 (us, L2 flushed): N M hopper fixed cublas hopper/cublas")
for n in (14336, 128256):
    for m in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512):
        h, f, c = (t(f"BM_{w}/{m}/{n}/4096")[0] for w in ("small_m/hopper", "small_m/fixed", "cublas_bf16_flushed"))
        if h and c: print(f"  {n} {m}: {h:.1f} {f or 0:.1f} {c:.1f} {h / c:.2f}")
print("item 1, the token tile rule at 14336 x 4096 (us): M production narrow-tile-alone")
for m in (128, 129, 256, 512, 1024, 2048):
    p, q = t(f"BM_affine_dense/hopper/{m}/14336/4096")[0], t(f"BM_hopper_config/coop_128x128x64/{m}/14336/4096")[0]
    if p and q: print(f"  {m}: {p:.1f} {q:.1f} {p / q:.2f}")
print("item 1, other configurations at M 8192 (ms): name N time /cublas")
for k, v in sorted(a.items()):
    m = re.match(r"BM_hopper_config/([a-z_0-9x]+)/8192/(\d+)/4096", k)
    if m:
        c = t(f"BM_cublas_bf16/8192/{m.group(2)}/4096")[0]
        print(f"  {m.group(1)} {m.group(2)}: {v['real_time']:.3f} {v['real_time'] / c if c else float('nan'):.2f}")
try:
    ab = collections.defaultdict(list)
    for line in open(f"{out}/qmv-ab.jsonl"):
        d = json.loads(line)
        for r in d["benchmarks"]:
            if r.get("aggregate_name") == "median":
                ab[(r["run_name"], d["build"])].append(round(r["real_time"], 2))
    print("item 2 A/B (us, median of 3 per run): benchmark new old")
    for name in sorted({k[0] for k in ab}):
        print(f"  {name}: {ab[(name, 'new')]} {ab[(name, 'old')]}")
except Exception as e: print("qmv-ab.jsonl unreadable:", e)
mlx = collections.defaultdict(dict)
for r in load("mlx.json"):
    m = re.match(r"([^/]+/[^/]+|cublas_bf16)/M:(\d+)/N:(\d+)/K:(\d+)", r["name"])
    if not m: continue
    mlx[(int(m.group(3)), int(m.group(2)))][m.group(1)] = None if r.get("error_occurred") else r.get("median_us")
print("item 3 vs MLX (us, median of 30): N M mlx fixed hopper cublas hopper/mlx")
for (n, m), d in sorted(mlx.items()):
    h, x = d.get("affine.qmm/hopper"), d.get("mlx.qmm/upstream")
    print(f"  {n} {m}: {x} {d.get('affine.qmm/fixed')} {h} {d.get('cublas_bf16')} {h / x if h and x else float('nan'):.2f}")
g = load("gguf.json")
copy = max([r.get("GBps_median", 0) for r in g if r["name"].startswith("copy_d2d")] or [0])
print(f"item 4 (us; share = distinct experts' bytes / call time / copy rate {copy:.0f} GB/s):")
for r in g:
    m = re.match(r"moe_vec_decode/([^/]+)/q4_0/([^/]+)/tokens:(\d+)", r["name"])
    if not m: continue
    if r.get("error_occurred"): print("  ", m.groups(), "ERROR", r.get("error_message")); continue
    sh = r.get("distinct_expert_GBps", 0) / copy if copy else 0
    print(f"  {m.group(1)} {m.group(3)} {m.group(2)}: {r['real_time']:.1f} share {sh:.2f}")
try:
    print("item 4, odd block count (ms median): kernel variant cols verdict")
    for r in csv.DictReader(open(f"{out}/odd.csv")):
        print(f"  {r['kernel']} {r['variant']} {r['cols']}: {r.get('time_ms_median')} {r['verdict']}")
except Exception as e: print("odd.csv unreadable:", e)
PY
grep -E "^=== |Duration|DRAM Throughput|Memory Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Registers Per|Theoretical Occupancy|==PROF==|==ERROR==" "$OUT/ncu.txt" 2>/dev/null | head -60 >> "$summary"
tar -C "$OUT" -cJf "$final/results.tar.xz" . && echo "packed: $(tar -tJf "$final/results.tar.xz" | tr '\n' ' ')" >> "$summary"
echo "job wall_s=$(( $(date +%s) - t_start ))" >> "$summary"
tail -n 150 "$summary"
