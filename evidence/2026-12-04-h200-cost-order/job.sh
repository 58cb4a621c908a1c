#!/usr/bin/env bash
# 2026-12-04, nvidia-h200: the whole plan cheapest first (`sweep --order cost`), priced by every
# earlier H200 sweep in evidence/ (their case_ms), in calls of at most 10 minutes that resume one CSV.
#   GRIDFUZZ_PREBUILT=DIR OUT=DIR [GRIDFUZZ_RESUME_CSV=FILE] [GRIDFUZZ_BUDGET_S=540] \
#     bash evidence/2026-12-04-h200-cost-order/job.sh plan
# plan: `sweep --cases 0 --order cost --costs <each earlier CSV> --timeout 120 --workers-per-device 4
#       --time-budget GRIDFUZZ_BUDGET_S` (untimed, every oracle check on), resuming
#       GRIDFUZZ_RESUME_CSV when given (its rows price the cases too); rows.py phases over the CSV.
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
    echo "costs: ${#costs[@]} files" >> "$OUT/summary.txt"
    t0=$(date +%s)
    "$gf" sweep --cases 0 --order cost "${costs[@]}" "${resume[@]}" --timeout 120 --workers-per-device 4 \
      --time-budget "${GRIDFUZZ_BUDGET_S:-540}" --csv "$run_dir/plan.csv" > "$run_dir/plan.log" 2>&1
    echo "sweep rc=$? wall_s=$(( $(date +%s) - t0 ))" >> "$OUT/summary.txt"
    grep -E "^(sweep|time budget|note: (boundary|resuming))" "$run_dir/plan.log" >> "$OUT/summary.txt"
    python3 evidence/rows.py phases "$run_dir/plan.csv" >> "$OUT/summary.txt" 2>&1
    xz -T0 -k "$run_dir/plan.csv"
    cp "$run_dir/plan.csv.xz" "$OUT/"
    xz -T0 -c "$run_dir/plan.log" > "$OUT/plan.log.xz"
    ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
tail -n 40 "$OUT/summary.txt"
