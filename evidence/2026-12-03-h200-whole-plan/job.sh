#!/usr/bin/env bash
# 2026-12-03, nvidia-h200: the whole static plan of sm_90 (every tier but speed, no random cases,
# every oracle check on, untimed, 4 workers), in calls of at most 10 minutes, each resuming the CSV
# of the one before; then a sample of its rows run again one case per process with a fresh
# reference, to compare verdicts.
#   GRIDFUZZ_PREBUILT=DIR OUT=DIR bash evidence/2026-12-03-h200-whole-plan/job.sh tiers|plan|equal|check
# tiers: the core and engine GPU tests; then each boundary tier from its start for its own budget
#        (GRIDFUZZ_TIER_BUDGETS, default "defaults:220 profiles:110 default-sizes:55
#        profile-sizes:55"; each includes the plan, about 25 s), into one CSV (--resume).
# plan:  `sweep --cases 0 --timeout 120 --workers-per-device 4 --json --time-budget B [--resume]`
#        into GRIDFUZZ_PLAN_CSV_XZ (carried in the tree; absent: from the start), B =
#        GRIDFUZZ_PLAN_BUDGET_S (default 540). The phases per tier (rows.py) and the report's time
#        table of the CSV so far.
# equal: the plan's failing rows replayed twice (`replay --failing`, each case's second call
#        compared with its first); then rows.py picks GRIDFUZZ_EQUAL_PER (default 3) rows of every kernel x variant x tier of
#        GRIDFUZZ_PLAN_CSV_XZ (those under GRIDFUZZ_EQUAL_MAX_MS, default 3000 ms a case) and
#        `replay`s them `--process-per-case --fresh-reference --self-check-share 0.02`; rows.py
#        compares the two (every column but the times).
# check: the engine's GPU tests; the failing rows of GRIDFUZZ_PLAN_CSV_XZ replayed three times;
#        then `sweep --tiers default-sizes` from its start for GRIDFUZZ_CHECK_BUDGET_S (default 55),
#        as in `tiers`, to see whether its failures come again.
set -u
source "$(dirname "$0")/../lib.sh"
mode=${1:?mode: tiers, plan, equal or check}
here=evidence/2026-12-03-h200-whole-plan
run_dir=${GRIDFUZZ_RUN_DIR:-/tmp/gf-run}
mkdir -p "$run_dir"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; nproc; } >> "$OUT/summary.txt" 2>&1

case "$mode" in
  tiers)
    for name in gridfuzz_core_gpu_tests gridfuzz_engine_gpu_tests; do
      tests=$(gridfuzz_built "$name") || continue
      "$tests" > "$run_dir/$name.log" 2>&1
      echo "$name rc=$?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$run_dir/$name.log" | tr '\n' ' ')" >> "$OUT/summary.txt"
    done
    rm -f "$run_dir/plan.csv"
    for spec in ${GRIDFUZZ_TIER_BUDGETS:-defaults:220 profiles:110 default-sizes:55 profile-sizes:55}; do
      tier=${spec%%:*} budget=${spec#*:}
      resume=()
      [ -s "$run_dir/plan.csv" ] && resume=(--resume) && cp "$run_dir/plan.csv" "$run_dir/before.csv"
      t0=$(date +%s)
      "$gf" sweep --cases 0 --timeout 120 --workers-per-device 4 --tiers "$tier" --csv "$run_dir/plan.csv" "${resume[@]}" \
        --json --time-budget "$budget" > "$run_dir/$tier.json" 2> "$run_dir/$tier.log"
      echo "$tier: sweep --cases 0 --timeout 120 --workers-per-device 4 --tiers $tier ${resume[*]} --time-budget $budget rc=$? wall_s=$(( $(date +%s) - t0 ))" >> "$OUT/summary.txt"
      python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print("  ran", j["ran"], "wall_s", round(j["wall_s"], 1), "budget_hit", j["budget_hit"], "worker_restarts", j["worker_restarts"], "verdicts", j["verdicts"])' \
        "$run_dir/$tier.json" >> "$OUT/summary.txt"
      grep -v '^PASS' "$run_dir/$tier.log" | tail -n 30 > "$run_dir/$tier.log.tail"
    done
    python3 evidence/rows.py phases "$run_dir/plan.csv" | sed 's/^/  /' >> "$OUT/summary.txt"
    "$gf" report "$run_dir/plan.csv" --out "$run_dir/report" > /dev/null 2>> "$OUT/summary.txt"
    sed -n '/## Where the time went/,/^## [^W]/p' "$run_dir/report/report.md" > "$run_dir/phases.md"
    xz -T0 -c "$run_dir/plan.csv" > "$OUT/plan.csv.xz"
    (cd "$run_dir" && tar cJf "$OUT/tiers.tar.xz" ./*.json ./*.log.tail ./*gpu_tests.log phases.md)
    ;;
  plan)
    resume=()
    if [ -n "${GRIDFUZZ_PLAN_CSV_XZ:-}" ]; then
      xz -dc "$GRIDFUZZ_PLAN_CSV_XZ" > "$run_dir/plan.csv"
      resume=(--resume)
    else
      rm -f "$run_dir/plan.csv"
      : > "$run_dir/before.csv"
    fi
    [ -s "$run_dir/plan.csv" ] && cp "$run_dir/plan.csv" "$run_dir/before.csv"
    t0=$(date +%s)
    "$gf" sweep --cases 0 --timeout 120 --workers-per-device 4 --csv "$run_dir/plan.csv" "${resume[@]}" --json \
      --time-budget "${GRIDFUZZ_PLAN_BUDGET_S:-540}" > "$run_dir/plan.json" 2> "$run_dir/plan.log"
    echo "plan: sweep --cases 0 --timeout 120 --workers-per-device 4 ${resume[*]} --time-budget ${GRIDFUZZ_PLAN_BUDGET_S:-540} rc=$? wall_s=$(( $(date +%s) - t0 ))" >> "$OUT/summary.txt"
    python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print("  ran", j["ran"], "reused", j["reused"], "wall_s", round(j["wall_s"], 1), "budget_hit", j["budget_hit"], "worker_restarts", j["worker_restarts"], "verdicts", j["verdicts"])' \
      "$run_dir/plan.json" >> "$OUT/summary.txt"
    grep -m3 -E "boundary cases per tier|cases planned|planned" "$run_dir/plan.log" | sed 's/^/  /' >> "$OUT/summary.txt"
    echo "  this call's rows:" >> "$OUT/summary.txt"
    if [ -s "$run_dir/before.csv" ]; then
      python3 evidence/rows.py phases "$run_dir/plan.csv" --exclude "$run_dir/before.csv" | sed 's/^/    /' >> "$OUT/summary.txt"
    else
      python3 evidence/rows.py phases "$run_dir/plan.csv" | sed 's/^/    /' >> "$OUT/summary.txt"
    fi
    echo "  every row so far:" >> "$OUT/summary.txt"
    python3 evidence/rows.py phases "$run_dir/plan.csv" | sed 's/^/    /' >> "$OUT/summary.txt"
    "$gf" report "$run_dir/plan.csv" --out "$run_dir/report" > /dev/null 2>> "$OUT/summary.txt"
    sed -n '/## Where the time went/,/^## [^W]/p' "$run_dir/report/report.md" > "$OUT/phases.md"
    grep -v '^PASS' "$run_dir/plan.log" | tail -n 40 > "$OUT/plan.log.tail"
    cp "$run_dir/plan.json" "$OUT/"
    xz -T0 -c "$run_dir/plan.csv" > "$OUT/plan.csv.xz"
    ;;
  equal)
    xz -dc "${GRIDFUZZ_PLAN_CSV_XZ:?the plan CSV, xz}" > "$run_dir/plan.csv"
    for i in 1 2; do
      rm -f "$run_dir/failing-$i.csv"
      "$gf" replay "$run_dir/plan.csv" --failing --timeout 120 --csv "$run_dir/failing-$i.csv" > "$run_dir/failing-$i.log" 2>&1
      echo "failing, replay $i: rc=$?" >> "$OUT/summary.txt"
      python3 -c 'import csv,sys; [print("  ", r["replay"], r["oracle"], r["verdict"]) for r in csv.DictReader(open(sys.argv[1]))]' \
        "$run_dir/failing-$i.csv" >> "$OUT/summary.txt"
    done
    python3 evidence/rows.py pick "$run_dir/plan.csv" --per "${GRIDFUZZ_EQUAL_PER:-3}" \
      --max-case-ms "${GRIDFUZZ_EQUAL_MAX_MS:-3000}" --out "$run_dir/picked.csv" >> "$OUT/summary.txt"
    rm -f "$run_dir/alone.csv"
    t0=$(date +%s)
    "$gf" replay "$run_dir/picked.csv" --process-per-case --fresh-reference --self-check-share 0.02 --timeout 120 \
      --csv "$run_dir/alone.csv" > "$run_dir/alone.log" 2>&1
    echo "equal: replay picked.csv --process-per-case --fresh-reference --self-check-share 0.02 rc=$? wall_s=$(( $(date +%s) - t0 ))" >> "$OUT/summary.txt"
    python3 evidence/rows.py same "$run_dir/picked.csv" "$run_dir/alone.csv" >> "$OUT/summary.txt"
    tail -n 40 "$run_dir/alone.log" > "$run_dir/alone.log.tail"
    (cd "$run_dir" && tar cJf "$OUT/equal.tar.xz" picked.csv alone.csv alone.log.tail failing-*.csv failing-*.log)
    ;;
  check)
    tests=$(gridfuzz_built gridfuzz_engine_gpu_tests) && {
      "$tests" > "$run_dir/engine-gpu-tests.log" 2>&1
      echo "gridfuzz_engine_gpu_tests rc=$?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$run_dir/engine-gpu-tests.log" | tr '\n' ' ')" >> "$OUT/summary.txt"
    }
    xz -dc "${GRIDFUZZ_PLAN_CSV_XZ:?the plan CSV, xz}" > "$run_dir/plan.csv"
    for i in 1 2 3; do
      rm -f "$run_dir/failing-$i.csv"
      "$gf" replay "$run_dir/plan.csv" --failing --timeout 120 --csv "$run_dir/failing-$i.csv" > "$run_dir/failing-$i.log" 2>&1
      echo "failing, replay $i: rc=$?" >> "$OUT/summary.txt"
      python3 -c 'import csv,sys; [print("  ", r["replay"], r["oracle"], r["verdict"], r["finding"]) for r in csv.DictReader(open(sys.argv[1]))]' \
        "$run_dir/failing-$i.csv" >> "$OUT/summary.txt"
    done
    rm -f "$run_dir/sizes.csv"
    t0=$(date +%s)
    "$gf" sweep --cases 0 --timeout 120 --workers-per-device 4 --tiers default-sizes --csv "$run_dir/sizes.csv" --json \
      --time-budget "${GRIDFUZZ_CHECK_BUDGET_S:-55}" > "$run_dir/sizes.json" 2> "$run_dir/sizes.log"
    echo "default-sizes: sweep --cases 0 --timeout 120 --workers-per-device 4 --tiers default-sizes rc=$? wall_s=$(( $(date +%s) - t0 ))" >> "$OUT/summary.txt"
    python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print("  ran", j["ran"], "wall_s", round(j["wall_s"], 1), "verdicts", j["verdicts"])' \
      "$run_dir/sizes.json" >> "$OUT/summary.txt"
    python3 -c 'import csv,sys; [print("  ", r["replay"], r["oracle"], r["verdict"], r["finding"]) for r in csv.DictReader(open(sys.argv[1])) if r["verdict"].startswith("fail") or r["finding"].endswith("finding-6")]' \
      "$run_dir/sizes.csv" >> "$OUT/summary.txt"
    (cd "$run_dir" && tar cJf "$OUT/check.tar.xz" engine-gpu-tests.log failing-*.csv failing-*.log sizes.csv sizes.json)
    ;;
  *) echo "mode: tiers, plan, equal or check" >&2; exit 2 ;;
esac
echo "$here $mode done" >> "$OUT/summary.txt"
tail -n 30 "$OUT/summary.txt"
