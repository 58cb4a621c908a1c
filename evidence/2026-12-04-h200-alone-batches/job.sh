#!/usr/bin/env bash
# 2026-12-04, nvidia-h200: cases that must have the GPU alone, set aside and run in batches
# (harness/engine/worker_pool.cpp), against one at a time in their turn (the build before).
#   GRIDFUZZ_PREBUILT=NEW GRIDFUZZ_OLD_PREBUILT=OLD OUT=DIR [GRIDFUZZ_BUDGET_S=120] job.sh ab
#   GRIDFUZZ_PREBUILT=NEW OUT=DIR [GRIDFUZZ_RESUME_CSV=FILE] [GRIDFUZZ_BUDGET_S=540] job.sh plan
# Every sweep as the nightly's: `sweep --cases 0 --order cost --costs baselines/nvidia-h200.csv
#   --timeout 120 --workers-per-device 4 --time-budget S`, untimed, every oracle check on.
# ab: the old build, then the new one, each from nothing for GRIDFUZZ_BUDGET_S; rows.py busy and
#     phases of each, and rows.py same between them and against the baseline.
# plan: the new build over the whole plan for GRIDFUZZ_BUDGET_S, resuming GRIDFUZZ_RESUME_CSV when
#     given (its rows price the cases too); busy, phases, and same against the baseline.
set -u
source "$(dirname "$0")/../lib.sh"
mode=${1:?mode: ab or plan}
run_dir=${GRIDFUZZ_RUN_DIR:-/tmp/gf-run}
mkdir -p "$run_dir"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; nproc; "$gf" --version | head -2; } >> "$OUT/summary.txt" 2>&1
baseline=baselines/nvidia-h200.csv

sweep() {  # sweep BINARY CSV LOG [ARGS...]
  local bin=$1 csv=$2 log=$3 t0 rc
  shift 3
  t0=$(date +%s)
  "$bin" sweep --cases 0 --order cost --costs "$baseline" "$@" --timeout 120 --workers-per-device 4 \
    --time-budget "${GRIDFUZZ_BUDGET_S:-540}" --csv "$csv" > "$log" 2>&1
  rc=$?
  echo "$(basename "$csv"): $("$bin" --version | sed -n 2p) sweep rc=$rc wall_s=$(( $(date +%s) - t0 ))" >> "$OUT/summary.txt"
  grep -E "^(sweep:|time budget|note: resuming)" "$log" >> "$OUT/summary.txt"
  python3 evidence/rows.py busy "$csv" >> "$OUT/summary.txt" 2>&1
  python3 evidence/rows.py phases "$csv" >> "$OUT/summary.txt" 2>&1
  python3 evidence/rows.py same "$csv" "$baseline" --ignore commit,driver,schema,driver_release,time_samples_ms >> "$OUT/summary.txt" 2>&1
}

case "$mode" in
  ab)
    old="$GRIDFUZZ_OLD_PREBUILT/gridfuzz"
    rm -f "$run_dir/old.csv" "$run_dir/new.csv"
    sweep "$old" "$run_dir/old.csv" "$run_dir/old.log"
    sweep "$gf" "$run_dir/new.csv" "$run_dir/new.log"
    python3 evidence/rows.py same "$run_dir/old.csv" "$run_dir/new.csv" --ignore commit >> "$OUT/summary.txt" 2>&1
    (cd "$run_dir" && tar cJf "$OUT/ab.tar.xz" old.csv old.log new.csv new.log)
    ;;
  plan)
    resume=()
    if [ -n "${GRIDFUZZ_RESUME_CSV:-}" ]; then
      case $GRIDFUZZ_RESUME_CSV in *.xz) xzcat "$GRIDFUZZ_RESUME_CSV" ;; *) cat "$GRIDFUZZ_RESUME_CSV" ;; esac > "$run_dir/plan.csv"
      cp "$run_dir/plan.csv" "$run_dir/costs-resumed.csv"
      resume=(--resume --costs "$run_dir/costs-resumed.csv")
    else
      rm -f "$run_dir/plan.csv"
    fi
    sweep "$gf" "$run_dir/plan.csv" "$run_dir/plan.log" "${resume[@]}"
    xz -T0 -f -k "$run_dir/plan.csv"  # -f: a warm machine keeps /tmp between calls
    cp "$run_dir/plan.csv.xz" "$OUT/"
    xz -T0 -c "$run_dir/plan.log" > "$OUT/plan.log.xz"
    ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
tail -n 40 "$OUT/summary.txt"
