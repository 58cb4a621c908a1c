#!/usr/bin/env bash
# 2026-12-06 (asked for nvidia-h200, ran on an H100 80GB): the whole plan (repeated crossings planned once), as the
# nightly sweeps it: `sweep --cases 0 --order cost --costs baselines/nvidia-h200.csv --timeout 300
# --workers-per-device 4 --time-budget S`, untimed, every oracle check on.
#   GRIDFUZZ_PREBUILT=DIR OUT=DIR [GRIDFUZZ_RESUME_CSV=FILE] [GRIDFUZZ_BUDGET_S=560] job.sh plan
# plan: the whole plan for GRIDFUZZ_BUDGET_S, resuming GRIDFUZZ_RESUME_CSV (.xz or not) when given;
#     the sweep's own summary, rows.py busy and phases, and rows.py same against the baseline.
set -u
source "$(dirname "$0")/../lib.sh"
mode=${1:?mode: plan}
run_dir=${GRIDFUZZ_RUN_DIR:-/tmp/gf-run}
mkdir -p "$run_dir"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; nproc; "$gf" --version | head -2; } >> "$OUT/summary.txt" 2>&1
baseline=baselines/nvidia-h200.csv

case "$mode" in
  plan)
    resume=()
    if [ -n "${GRIDFUZZ_RESUME_CSV:-}" ]; then
      case $GRIDFUZZ_RESUME_CSV in *.xz) xzcat "$GRIDFUZZ_RESUME_CSV" ;; *) cat "$GRIDFUZZ_RESUME_CSV" ;; esac > "$run_dir/plan.csv"
      cp "$run_dir/plan.csv" "$run_dir/costs-resumed.csv"
      resume=(--resume --costs "$run_dir/costs-resumed.csv")
    else
      rm -f "$run_dir/plan.csv"
    fi
    t0=$(date +%s)
    "$gf" sweep --cases 0 --order cost --costs "$baseline" "${resume[@]}" --timeout 300 --workers-per-device 4 \
      --time-budget "${GRIDFUZZ_BUDGET_S:-560}" --csv "$run_dir/plan.csv" > "$run_dir/plan.log" 2>&1
    rc=$?
    echo "plan.csv: sweep rc=$rc wall_s=$(( $(date +%s) - t0 ))" >> "$OUT/summary.txt"
    grep -E "^(sweep:|time budget|note: (resuming|boundary cases|[0-9]+ repeated))" "$run_dir/plan.log" >> "$OUT/summary.txt"
    grep -E "^FAIL" "$run_dir/plan.log" | head -40 >> "$OUT/summary.txt"
    python3 evidence/rows.py busy "$run_dir/plan.csv" >> "$OUT/summary.txt" 2>&1
    python3 evidence/rows.py phases "$run_dir/plan.csv" >> "$OUT/summary.txt" 2>&1
    python3 evidence/rows.py same "$run_dir/plan.csv" "$baseline" --ignore commit,driver,schema,driver_release,time_samples_ms >> "$OUT/summary.txt" 2>&1
    xz -T0 -f -k "$run_dir/plan.csv"  # -f: a warm machine keeps /tmp between calls
    cp "$run_dir/plan.csv.xz" "$OUT/"
    xz -T0 -c "$run_dir/plan.log" > "$OUT/plan.log.xz"
    ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
tail -n 60 "$OUT/summary.txt"
