#!/usr/bin/env bash
# 2026-12-06. suites: every GPU test binary and the example plugins (ran on one H100, README.md).
# plan: the whole plan (a size crossing once, launches compared by name) on one H200, as the
# nightly sweeps it: `sweep --cases 0 --order cost --costs baselines/nvidia-h200.csv --timeout 300
# --workers-per-device 4 --time-budget S`, untimed, every oracle check on.
#   GRIDFUZZ_PREBUILT=DIR OUT=DIR [GRIDFUZZ_RESUME_CSV=FILE] [GRIDFUZZ_BUDGET_S=560] [GRIDFUZZ_KILL_S=S] job.sh plan
# suites: every GPU test binary beside gridfuzz, then the example plugins in GRIDFUZZ_PLUGINS swept.
# plan: the whole plan for GRIDFUZZ_BUDGET_S, resuming GRIDFUZZ_RESUME_CSV (.xz or not) when given;
#     the sweep's own summary, rows.py busy and phases, and rows.py same against the baseline.
set -u
source "$(dirname "$0")/../lib.sh"
mode=${1:?mode: plan or suites}
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
    # GRIDFUZZ_KILL_S: a case started just before the budget ends may run on for a minute; the
    # device call's own limit must not take the rows with it (a killed sweep's CSV resumes).
    timeout --signal=TERM "${GRIDFUZZ_KILL_S:-86400}" "$gf" sweep --cases 0 --order cost --costs "$baseline" "${resume[@]}" --timeout 300 --workers-per-device 4 \
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
  suites)
    # Every *_gpu_tests binary beside $gf, then the example plugins (built out of tree against the
    # installed package, as .ci/run builds them; GRIDFUZZ_PLUGINS=DIR holds their .so) swept on the
    # GPU: the GGUF example is the formats library's first run on a device.
    # As scripts/nightly runs prebuilt tests: gridfuzz, the self-test plugin and the watch's
    # planted program from beside the binaries, not from their build paths.
    export GRIDFUZZ_BINARY="$gf" GRIDFUZZ_SELFTEST_PLUGIN="$bin_dir/libgridfuzz_selftest.so"
    [ -x "$bin_dir/watch_near_limits" ] && export GRIDFUZZ_NEAR_LIMITS="$bin_dir/watch_near_limits"
    for t in "$bin_dir"/${GRIDFUZZ_SUITES:-*}_gpu_tests; do
      name=$(basename "$t")
      t0=$(date +%s)
      timeout "${GRIDFUZZ_SUITE_TIMEOUT_S:-240}" "$t" --gtest_brief=1 > "$run_dir/$name.log" 2>&1
      rc=$?
      echo "$name: rc=$rc $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$run_dir/$name.log" | tr '\n' ' ') $(( $(date +%s) - t0 )) s" >> "$OUT/summary.txt"
    done
    for so in "${GRIDFUZZ_PLUGINS:?}"/libmy*.so; do
      [ -e "$so" ] || continue
      name=$(basename "$so" .so)
      "$gf" --plugin "$so" sweep 'my.*' --cases 50 --workers-per-device 2 --csv "$run_dir/$name.csv" > "$run_dir/$name.log" 2>&1
      echo "$name sweep: rc=$? $(grep -E '^sweep:' "$run_dir/$name.log")" >> "$OUT/summary.txt"
      grep -E "^FAIL" "$run_dir/$name.log" | head -10 >> "$OUT/summary.txt"
    done
    tar cf - -C "$run_dir" $(cd "$run_dir" && ls *.log *.csv 2>/dev/null) | xz -T0 > "$OUT/suites.tar.xz"
    ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
tail -n 60 "$OUT/summary.txt"
