#!/usr/bin/env bash
# 2026-12-02 (fourth session), nvidia-h200: the whole static plan of sm_90 with big crossings at two
# points (sweep_plan.cpp), in calls of at most 10 minutes (the second resumes the first's CSV), and
# the alone-window order of the worker pool (04fa3d2, reverted in cdfaa47) against the build before.
#   GRIDFUZZ_PREBUILT=DIR OUT=DIR bash evidence/2026-12-02-h200-two-points/job.sh first|rest|order
# first: `sweep --cases 0 --workers-per-device 4` (untimed, every oracle check on) under
#   GRIDFUZZ_PLAN_BUDGET_S (default 540) into plan.csv; rest: the same with --resume over the
#   first call's rows (GRIDFUZZ_PLAN_CSV_XZ, carried in the tree: run1-first/plan.csv.xz);
#   order: the profiles' tier as found (`--crossings-as-found`: the same plan in both builds) for
#   GRIDFUZZ_ORDER_BUDGET_S (default 90) each, with this build and GRIDFUZZ_OLD_PREBUILT's.
set -u
source "$(dirname "$0")/../lib.sh"
mode=${1:?mode: first, rest or order}
run_dir=${GRIDFUZZ_RUN_DIR:-/tmp/gf-run}
mkdir -p "$run_dir"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; nproc; } >> "$OUT/summary.txt" 2>&1
plan_csv="$run_dir/plan.csv"

# summarize JSON CSV: the sweep's summary, and each tier's rows, case seconds and first-to-last start.
summarize() {
  python3 - "$1" "$2" <<'PY'
import csv, json, sys
j = json.load(open(sys.argv[1]))
print("ran", j["ran"], "reused", j["reused"], "wall_s", round(j["wall_s"], 1), "budget_hit", j["budget_hit"],
      "worker_restarts", j["worker_restarts"], "verdicts", j["verdicts"])
tiers = {}
for r in csv.DictReader(open(sys.argv[2], newline="")):
    t = tiers.setdefault(r["tier"], [0, 0.0, r["started"], r["started"]])
    t[0] += 1; t[1] += float(r["case_ms"] or 0) / 1000
    t[2] = min(t[2], r["started"]); t[3] = max(t[3], r["started"])
for k, v in tiers.items():
    print(f"tier {k}: {v[0]} rows, case seconds {v[1]:.1f}, started {v[2]} .. {v[3]}")
PY
}

case "$mode" in
  first|rest)
    resume=()
    if [ "$mode" = rest ]; then
      xz -dc "${GRIDFUZZ_PLAN_CSV_XZ:?plan.csv.xz of the first call}" > "$plan_csv"
      resume=(--resume)
    else
      rm -f "$plan_csv"
    fi
    t0=$(date +%s)
    "$gf" sweep --cases 0 --timeout 120 --workers-per-device 4 --csv "$plan_csv" \
      --time-budget "${GRIDFUZZ_PLAN_BUDGET_S:-540}" --json "${resume[@]}" > "$run_dir/plan.json" 2> "$run_dir/plan.log"
    echo "$mode: sweep --cases 0 --workers-per-device 4 ${resume[*]} rc=$? wall_s=$(( $(date +%s) - t0 ))" >> "$OUT/summary.txt"
    summarize "$run_dir/plan.json" "$plan_csv" >> "$OUT/summary.txt"
    "$gf" report "$plan_csv" --out "$run_dir/report" > /dev/null 2>> "$OUT/summary.txt"
    cp "$run_dir/plan.json" "$OUT/plan-$mode.json"
    grep -v '^PASS' "$run_dir/plan.log" | tail -n 40 > "$OUT/plan-$mode.log.tail"
    sed -n '/## Where the time went/,/^## [^W]/p' "$run_dir/report/report.md" > "$OUT/phases-$mode.md"
    xz -T0 -c "$plan_csv" > "$OUT/plan.csv.xz"
    ;;
  order)
    old="${GRIDFUZZ_OLD_PREBUILT:?the build before the window order}/gridfuzz"
    for build in new old; do
      bin=$gf
      [ "$build" = old ] && bin=$old
      t0=$(date +%s)
      "$bin" sweep --tiers profiles --crossings-as-found --cases 0 --timeout 120 --workers-per-device 4 \
        --csv "$run_dir/order-$build.csv" --time-budget "${GRIDFUZZ_ORDER_BUDGET_S:-90}" --json \
        > "$run_dir/order-$build.json" 2> "$run_dir/order-$build.log"
      echo "order $build: rc=$? wall_s=$(( $(date +%s) - t0 ))" >> "$OUT/summary.txt"
      summarize "$run_dir/order-$build.json" "$run_dir/order-$build.csv" >> "$OUT/summary.txt"
    done
    tar -C "$run_dir" -cJf "$OUT/order.tar.xz" order-new.csv order-old.csv order-new.json order-old.json
    ;;
  *) echo "mode: first, rest or order" >&2; exit 2 ;;
esac
tail -n 12 "$OUT/summary.txt"
