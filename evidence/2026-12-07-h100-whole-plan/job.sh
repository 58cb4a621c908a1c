#!/usr/bin/env bash
# 2026-12-07: the whole static plan from nothing on one GPU (asked for an H200), as the nightly sweeps it (untimed, every
# oracle check on, cheapest first priced by the baseline), in as many device calls as it needs (a
# call lasts at most 600 s): each `resume` continues the CSV the call before left on the same warm
# machine (it took three on an H100). `speed`, the speed tier timed, was not run that day.
#   GRIDFUZZ_PREBUILT=DIR OUT=DIR [GRIDFUZZ_BUDGET_S=520] job.sh plan     # from nothing
#   GRIDFUZZ_PREBUILT=DIR OUT=DIR [GRIDFUZZ_BUDGET_S=400] job.sh resume   # continue /tmp/gf-run/plan.csv
#   GRIDFUZZ_PREBUILT=DIR OUT=DIR job.sh speed                            # the speed tier, one worker, timed
# GRIDFUZZ_COSTS=FILE[.xz] prices the cases too (an earlier run's rows of this device; the baseline
# has only the H200's).
# Each mode writes its CSV (xz) and log to $OUT and a summary; the time table, the tiers' rates and
# the comparison with the baseline are made from the CSV on the CPU machine (gridfuzz report, rows.py).
set -u
source "$(dirname "$0")/../lib.sh"
mode=${1:?mode: plan, resume or speed}
run_dir=${GRIDFUZZ_RUN_DIR:-/tmp/gf-run}
mkdir -p "$run_dir"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; nproc; "$gf" --version | head -2; } >> "$OUT/summary.txt" 2>&1
baseline=baselines/nvidia-h200.csv
budget=${GRIDFUZZ_BUDGET_S:-520}
costs=(--costs "$baseline")
if [ -n "${GRIDFUZZ_COSTS:-}" ]; then
  case $GRIDFUZZ_COSTS in *.xz) xzcat "$GRIDFUZZ_COSTS" ;; *) cat "$GRIDFUZZ_COSTS" ;; esac > "$run_dir/costs-given.csv"
  costs+=(--costs "$run_dir/costs-given.csv")
fi
# The sweep stops starting cases at its budget; a case already running may take up to --timeout, so
# the call's own limit is kept by a TERM (the CSV keeps every finished row; --resume continues it).
sweep_plan() {  # sweep_plan EXTRA_ARGS...
  local t0=$(date +%s)
  timeout --signal=TERM --kill-after=15 $(( budget + ${GRIDFUZZ_GRACE_S:-40} )) \
    "$gf" sweep --cases 0 --order cost "${costs[@]}" "$@" --timeout 300 --workers-per-device 4 \
    --ledger properties/known-failures.txt --time-budget "$budget" --csv "$run_dir/plan.csv" >> "$run_dir/plan.log" 2>&1
  echo "plan.csv ($mode): sweep rc=$? wall_s=$(( $(date +%s) - t0 )) rows=$(( $(wc -l < "$run_dir/plan.csv") - 1 ))" >> "$OUT/summary.txt"
  grep -E "^(sweep:|time budget|note: (resuming|boundary cases|[0-9]+ repeated))" "$run_dir/plan.log" | tail -n 8 >> "$OUT/summary.txt"
  grep -E "^FAIL" "$run_dir/plan.log" | head -40 >> "$OUT/summary.txt"
  xz -T0 -1 -c "$run_dir/plan.csv" > "$OUT/plan-$mode.csv.xz"
  xz -T0 -1 -c "$run_dir/plan.log" > "$OUT/plan-$mode.log.xz"
}

case "$mode" in
  plan) rm -f "$run_dir/plan.csv" "$run_dir/plan.log"; sweep_plan ;;
  resume)
    [ -s "$run_dir/plan.csv" ] || { echo "resume: no $run_dir/plan.csv (a cold machine?)" >> "$OUT/summary.txt"; exit 3; }
    cp "$run_dir/plan.csv" "$run_dir/costs-resumed.csv"
    sweep_plan --resume --costs "$run_dir/costs-resumed.csv" ;;
  speed)
    t0=$(date +%s)
    timeout --signal=TERM --kill-after=15 "${GRIDFUZZ_SPEED_S:-170}" \
      "$gf" sweep --tiers speed --cases 0 --timing --ledger properties/known-failures.txt \
      --csv "$run_dir/speed.csv" > "$run_dir/speed.log" 2>&1
    echo "speed.csv: sweep rc=$? wall_s=$(( $(date +%s) - t0 )) rows=$(( $(wc -l < "$run_dir/speed.csv") - 1 ))" >> "$OUT/summary.txt"
    tail -n 3 "$run_dir/speed.log" >> "$OUT/summary.txt"
    xz -T0 -c "$run_dir/speed.csv" > "$OUT/speed.csv.xz"
    xz -T0 -c "$run_dir/speed.log" > "$OUT/speed.log.xz" ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
tail -n 40 "$OUT/summary.txt"
