#!/usr/bin/env bash
# 2026-12-04, nvidia-h200: the whole plan cheapest first (`sweep --order cost`), priced by every
# earlier H200 sweep in evidence/ (their case_ms), in calls of at most 10 minutes that resume one CSV.
#   GRIDFUZZ_PREBUILT=DIR OUT=DIR [GRIDFUZZ_RESUME_CSV=FILE] [GRIDFUZZ_BUDGET_S=540] \
#     bash evidence/2026-12-04-h200-cost-order/job.sh plan
# plan: `sweep --cases 0 --order cost --costs <each earlier CSV> --timeout 120 --workers-per-device 4
#       --time-budget GRIDFUZZ_BUDGET_S` (untimed, every oracle check on), resuming
#       GRIDFUZZ_RESUME_CSV when given (its rows price the cases too); rows.py phases over the CSV.
# check: the GPU suites of the merged work (engine: plugin defaults, no split reference, self-check;
#       watch: gridfuzz watch on watch_near_limits); the LM head at 16744 tokens x vocab 128256 for
#       affine.qmm and mlx.qmm (`sweep --where`, every tier); the failing rows of run1 replayed twice;
#       timing A/A: the speed tier of gguf.mmvq twice (raw samples, schema 1.7) and `diff` between
#       them; gridfuzz_gguf_bench (a filter, 5 repetitions) twice and `bench-diff` between them.
set -u
source "$(dirname "$0")/../lib.sh"
mode=${1:?mode: plan}
run_dir=${GRIDFUZZ_RUN_DIR:-/tmp/gf-run}
mkdir -p "$run_dir/costs"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; nproc; "$gf" --version | head -2; } >> "$OUT/summary.txt" 2>&1

case "$mode" in
  plan)
    # The earlier runs' rows, decompressed (the reader takes plain CSV).
    for f in $(find evidence -name '*.csv' -o -name '*.csv.xz' -o -name '*.csv.gz'); do
      case $f in *.xz) c=xzcat ;; *.gz) c=zcat ;; *) c=cat ;; esac
      $c "$f" | head -1 | grep -q case_ms || continue
      name=$(echo "$f" | tr / _); name=${name%.xz}; name=${name%.gz}
      $c "$f" > "$run_dir/costs/$name"
    done
    costs=()
    for f in "$run_dir"/costs/*.csv; do costs+=(--costs "$f"); done
    resume=()
    if [ -n "${GRIDFUZZ_RESUME_CSV:-}" ]; then
      case $GRIDFUZZ_RESUME_CSV in *.xz) xzcat "$GRIDFUZZ_RESUME_CSV" ;; *) cat "$GRIDFUZZ_RESUME_CSV" ;; esac > "$run_dir/plan.csv"
      cp "$run_dir/plan.csv" "$run_dir/costs-resumed.csv"
      resume=(--resume --costs "$run_dir/costs-resumed.csv")
    else
      rm -f "$run_dir/plan.csv"
    fi
    echo "costs: $(( ${#costs[@]} / 2 )) files" >> "$OUT/summary.txt"
    t0=$(date +%s)
    "$gf" sweep --cases 0 --order cost "${costs[@]}" "${resume[@]}" --timeout 120 --workers-per-device 4 \
      --time-budget "${GRIDFUZZ_BUDGET_S:-540}" --csv "$run_dir/plan.csv" > "$run_dir/plan.log" 2>&1
    echo "sweep rc=$? wall_s=$(( $(date +%s) - t0 ))" >> "$OUT/summary.txt"
    grep -E "^(sweep|time budget|note: (boundary|resuming))" "$run_dir/plan.log" >> "$OUT/summary.txt"
    python3 evidence/rows.py phases "$run_dir/plan.csv" >> "$OUT/summary.txt" 2>&1
    xz -T0 -f -k "$run_dir/plan.csv"  # -f: a warm machine keeps /tmp between calls
    cp "$run_dir/plan.csv.xz" "$OUT/"
    xz -T0 -c "$run_dir/plan.log" > "$OUT/plan.log.xz"
    ;;
  check)
    export GRIDFUZZ_BINARY="$gf" GRIDFUZZ_NEAR_LIMITS="$bin_dir/watch_near_limits"
    for t in engine watch; do
      "$bin_dir/gridfuzz_${t}_gpu_tests" > "$run_dir/$t-gpu-tests.log" 2>&1
      echo "$t GPU tests rc=$? $(grep -E '^\[  (PASSED|FAILED) ' "$run_dir/$t-gpu-tests.log" | tr '\n' ' ')" >> "$OUT/summary.txt"
      grep -E '^\[  FAILED  \]' "$run_dir/$t-gpu-tests.log" >> "$OUT/summary.txt"
    done
    t0=$(date +%s)
    "$gf" sweep affine.qmm mlx.qmm --where tokens=16744,vocab=128256 --cases 0 --timeout 120 --workers-per-device 4 \
      --csv "$run_dir/lmhead.csv" > "$run_dir/lmhead.log" 2>&1
    echo "lm head: rc=$? wall_s=$(( $(date +%s) - t0 )) $(grep '^sweep:' "$run_dir/lmhead.log")" >> "$OUT/summary.txt"
    xzcat evidence/2026-12-04-h200-cost-order/run1-plan/plan.csv.xz > "$run_dir/run1.csv"
    for i in 1 2; do
      "$gf" replay --failed "$run_dir/run1.csv" --csv "$run_dir/faults-$i.csv" > "$run_dir/faults-$i.log" 2>&1
      echo "failing rows of run1, replay $i: rc=$? $(grep -cE 'fail:' "$run_dir/faults-$i.log") failing lines" >> "$OUT/summary.txt"
    done
    for ab in a b; do
      "$gf" sweep gguf.mmvq --tiers speed --cases 0 --timing --time-budget 70 --csv "$run_dir/speed-$ab.csv" \
        > "$run_dir/speed-$ab.log" 2>&1
      echo "speed $ab: rc=$? $(grep '^sweep:' "$run_dir/speed-$ab.log")" >> "$OUT/summary.txt"
    done
    "$gf" diff "$run_dir/speed-a.csv" "$run_dir/speed-b.csv" > "$run_dir/speed-diff.txt" 2>&1
    echo "speed diff a b: rc=$?" >> "$OUT/summary.txt"
    grep -iE "timing|SLOWER|FASTER|UNSURE|SAME" "$run_dir/speed-diff.txt" | head -8 >> "$OUT/summary.txt"
    bench="$bin_dir/gridfuzz_gguf_bench"
    for ab in a b; do
      LD_LIBRARY_PATH="$bin_dir:/usr/local/cuda/lib64" "$bench" --benchmark_format=json --benchmark_repetitions=5 \
        --benchmark_report_aggregates_only=false --benchmark_filter='moe_vec/q4_0/(fixed|legacy)/tokens:(1|64)/' \
        > "$run_dir/bench-$ab.json" 2> "$run_dir/bench-$ab.log"
      echo "bench $ab: rc=$?" >> "$OUT/summary.txt"
    done
    "$gf" bench-diff "$run_dir/bench-a.json" "$run_dir/bench-b.json" > "$run_dir/bench-diff.txt" 2>&1
    echo "bench-diff a b: rc=$?" >> "$OUT/summary.txt"
    tail -n 8 "$run_dir/bench-diff.txt" >> "$OUT/summary.txt"
    (cd "$run_dir" && tar cJf "$OUT/check.tar.xz" ./*-gpu-tests.log lmhead.csv lmhead.log faults-*.csv faults-*.log \
      speed-*.csv speed-*.log speed-diff.txt bench-*.json bench-*.log bench-diff.txt)
    ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
tail -n 40 "$OUT/summary.txt"
