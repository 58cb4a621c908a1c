#!/usr/bin/env bash
# 2026-12-03, nvidia-h200: one split reference per shape (BoundCase::reference_same_for_every_variant),
# against a fresh reference for every case (--fresh-reference), on the same cases in one call; then
# the whole static plan of sm_90 resumed from there, in calls of at most 10 minutes.
#   GRIDFUZZ_PREBUILT=DIR OUT=DIR bash evidence/2026-12-03-h200-shared-reference/job.sh ab|rest|sizes
# ab: the engine's GPU tests (gridfuzz_engine_gpu_tests: the shared-reference tests among them);
#   then the profiles' tier resumed from the 1437 rows of evidence/2026-12-02-h200-two-points/run3-rest
#   (its biggest cases are what is left), once with the reference shared and once fresh, for
#   GRIDFUZZ_AB_BUDGET_S (default 220) each: `sweep --tiers profiles --cases 0 --workers-per-device 4
#   --resume`; rows.py compares the rows both ran and sums their phases.
# rest: the whole plan (`sweep --cases 0 --workers-per-device 4 --resume`, reference shared) over
#   GRIDFUZZ_PLAN_CSV_XZ (carried in the tree) for GRIDFUZZ_PLAN_BUDGET_S (default 540).
# sizes: the two size tiers, each from its start, for GRIDFUZZ_SIZES_BUDGET_S (default 180) each.
set -u
source "$(dirname "$0")/../lib.sh"
mode=${1:?mode: ab, rest or sizes}
here=evidence/2026-12-03-h200-shared-reference
run_dir=${GRIDFUZZ_RUN_DIR:-/tmp/gf-run}
mkdir -p "$run_dir"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; nproc; } >> "$OUT/summary.txt" 2>&1

# sweep NAME CSV EXTRA...: the sweep into CSV (resumed), its summary line and its new rows' phases.
sweep() {
  local name=$1 csv=$2 t0
  shift 2
  cp "$csv" "$run_dir/before-$name.csv"
  t0=$(date +%s)
  "$gf" sweep --cases 0 --timeout 120 --workers-per-device 4 --csv "$csv" --resume --json "$@" \
    > "$run_dir/$name.json" 2> "$run_dir/$name.log"
  echo "$name: sweep --cases 0 --workers-per-device 4 --resume $* rc=$? wall_s=$(( $(date +%s) - t0 ))" >> "$OUT/summary.txt"
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print("  ran", j["ran"], "reused", j["reused"], "wall_s", round(j["wall_s"], 1), "budget_hit", j["budget_hit"], "worker_restarts", j["worker_restarts"], "verdicts", j["verdicts"])' \
    "$run_dir/$name.json" >> "$OUT/summary.txt"
  python3 evidence/rows.py phases "$csv" --exclude "$run_dir/before-$name.csv" | sed 's/^/  /' >> "$OUT/summary.txt"
  grep -v '^PASS' "$run_dir/$name.log" | tail -n 30 > "$run_dir/$name.log.tail"
}

case "$mode" in
  ab)
    tests=$(gridfuzz_built gridfuzz_engine_gpu_tests) && {
      "$tests" > "$run_dir/engine-gpu-tests.log" 2>&1
      echo "gridfuzz_engine_gpu_tests rc=$?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$run_dir/engine-gpu-tests.log" | tr '\n' ' ')" >> "$OUT/summary.txt"
    }
    xz -dc evidence/2026-12-02-h200-two-points/run3-rest/plan.csv.xz > "$run_dir/run3.csv"
    for how in shared fresh; do
      cp "$run_dir/run3.csv" "$run_dir/ab-$how.csv"
      extra=()
      [ "$how" = fresh ] && extra=(--fresh-reference)
      sweep "ab-$how" "$run_dir/ab-$how.csv" --tiers profiles --time-budget "${GRIDFUZZ_AB_BUDGET_S:-220}" "${extra[@]}"
    done
    python3 evidence/rows.py same "$run_dir/ab-shared.csv" "$run_dir/ab-fresh.csv" --exclude "$run_dir/run3.csv" >> "$OUT/summary.txt"
    xz -T0 -c "$run_dir/ab-shared.csv" > "$OUT/plan.csv.xz"
    (cd "$run_dir" && tar cJf "$OUT/ab.tar.xz" ab-shared.csv ab-fresh.csv ab-shared.json ab-fresh.json ./*.log.tail engine-gpu-tests.log)
    ;;
  rest)
    xz -dc "${GRIDFUZZ_PLAN_CSV_XZ:?the plan CSV so far, xz}" > "$run_dir/plan.csv"
    sweep rest "$run_dir/plan.csv" --time-budget "${GRIDFUZZ_PLAN_BUDGET_S:-540}"
    "$gf" report "$run_dir/plan.csv" --out "$run_dir/report" > /dev/null 2>> "$OUT/summary.txt"
    sed -n '/## Where the time went/,/^## [^W]/p' "$run_dir/report/report.md" > "$OUT/phases-rest.md"
    cp "$run_dir/rest.json" "$run_dir/rest.log.tail" "$OUT/"
    xz -T0 -c "$run_dir/plan.csv" > "$OUT/plan.csv.xz"
    ;;
  sizes)
    # The two size tiers, each from its start (its smallest cases first) for
    # GRIDFUZZ_SIZES_BUDGET_S (default 180), reference shared.
    for tier in default-sizes profile-sizes; do
      rm -f "$run_dir/$tier.csv"
      t0=$(date +%s)
      "$gf" sweep --cases 0 --timeout 120 --workers-per-device 4 --tiers "$tier" --csv "$run_dir/$tier.csv" --json \
        --time-budget "${GRIDFUZZ_SIZES_BUDGET_S:-180}" > "$run_dir/$tier.json" 2> "$run_dir/$tier.log"
      echo "$tier: sweep --cases 0 --workers-per-device 4 --tiers $tier rc=$? wall_s=$(( $(date +%s) - t0 ))" >> "$OUT/summary.txt"
      python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print("  ran", j["ran"], "wall_s", round(j["wall_s"], 1), "budget_hit", j["budget_hit"], "worker_restarts", j["worker_restarts"], "verdicts", j["verdicts"])' \
        "$run_dir/$tier.json" >> "$OUT/summary.txt"
      python3 evidence/rows.py phases "$run_dir/$tier.csv" | sed 's/^/  /' >> "$OUT/summary.txt"
      grep -v '^PASS' "$run_dir/$tier.log" | tail -n 30 > "$run_dir/$tier.log.tail"
    done
    (cd "$run_dir" && tar cJf "$OUT/sizes.tar.xz" ./*-sizes.csv ./*-sizes.json ./*-sizes.log.tail)
    ;;
  *) echo "mode: ab, rest or sizes" >&2; exit 2 ;;
esac
echo "$here $mode done" >> "$OUT/summary.txt"
tail -n 25 "$OUT/summary.txt"
