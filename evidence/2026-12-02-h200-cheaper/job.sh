#!/usr/bin/env bash
# 2026-12-02 (second session), nvidia-h200: the whole static plan of sm_90 with big crossings at
# their cheaper shapes (harness/search/cheaper_crossing.hpp) and cases side by side that rerun
# alone when they do not pass (worker_pool.hpp); then the same rows one case per process.
#   GRIDFUZZ_PREBUILT=DIR OUT=DIR bash evidence/2026-12-02-h200-cheaper/job.sh plan|resume|equality|proofs
# plan: `sweep --cases 0` (the whole static plan, untimed, every oracle check on) with
#   GRIDFUZZ_WORKERS workers per GPU (default 4) under GRIDFUZZ_PLAN_BUDGET_S (default 520) into
#   $GRIDFUZZ_RUN_DIR/plan.csv (default /tmp/gf-run, kept while the machine stays warm);
#   resume: the same, --resume'd; equality: up to 600 of the plan's rows spread over kernel x
#   variant x tier (those under 1.5 s), replayed one case per process with one worker, compared
#   column by column except times; proofs: the GPU tests named in GRIDFUZZ_PROOFS.
set -u
source "$(dirname "$0")/../lib.sh"
mode=${1:?mode: plan, resume, equality or proofs}
run_dir=${GRIDFUZZ_RUN_DIR:-/tmp/gf-run}
mkdir -p "$run_dir"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; nproc; } >> "$OUT/summary.txt" 2>&1
budget=${GRIDFUZZ_PLAN_BUDGET_S:-520}
workers=${GRIDFUZZ_WORKERS:-4}
plan_csv="$run_dir/plan.csv"

whole_plan() {  # whole_plan [--resume]
  local t0 rc
  t0=$(date +%s)
  "$gf" sweep --cases 0 --timeout 120 --workers-per-device "$workers" --csv "$plan_csv" --time-budget "$budget" --json "$@" \
    > "$run_dir/plan-$mode.json" 2> "$run_dir/plan-$mode.log"
  rc=$?
  echo "sweep --cases 0 --workers-per-device $workers $* rc=$rc wall_s=$(( $(date +%s) - t0 ))" >> "$OUT/summary.txt"
  python3 - "$run_dir/plan-$mode.json" "$plan_csv" >> "$OUT/summary.txt" <<'PY'
import csv, json, sys
j = json.load(open(sys.argv[1]))
print("ran", j["ran"], "reused", j["reused"], "wall_s", round(j["wall_s"], 1), "budget_hit", j["budget_hit"],
      "worker_restarts", j["worker_restarts"], "verdicts", j["verdicts"])
tiers = {}
for r in csv.DictReader(open(sys.argv[2], newline="")):
    t = tiers.setdefault(r["tier"], [0, 0.0])
    t[0] += 1; t[1] += float(r["case_ms"] or 0) / 1000
print("rows per tier (case seconds summed):", {k: (v[0], round(v[1], 1)) for k, v in tiers.items()})
PY
  "$gf" report "$plan_csv" --out "$run_dir/report-$mode" > /dev/null 2>> "$OUT/summary.txt"
  cp "$run_dir/plan-$mode.json" "$OUT/"
  grep -v '^PASS' "$run_dir/plan-$mode.log" | tail -n 40 > "$OUT/plan-$mode.log.tail"
  sed -n '/## Where the time went/,/^## [^W]/p' "$run_dir/report-$mode/report.md" > "$OUT/phases-$mode.md"
  xz -T0 -c "$plan_csv" > "$OUT/plan.csv.xz"
}

case "$mode" in
  plan) rm -f "$plan_csv"; whole_plan ;;
  resume) whole_plan --resume ;;
  equality)
    # The plan's rows from an earlier call (the run folder does not outlive the machine).
    [ -n "${GRIDFUZZ_PLAN_CSV_XZ:-}" ] && xz -dc "$GRIDFUZZ_PLAN_CSV_XZ" > "$plan_csv"
    python3 - "$plan_csv" "$run_dir/sample.csv" "${GRIDFUZZ_SAMPLE:-600}" >> "$OUT/summary.txt" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
fields = list(rows[0].keys())
groups = {}
for r in rows:
    if float(r["case_ms"] or 0) < 1500: groups.setdefault((r["kernel"], r["variant"], r["tier"]), []).append(r)
want = int(sys.argv[3])
# Every failure first (the verdicts side by side could change), then a spread of the rest.
picked = [r for rs in groups.values() for r in rs if r["verdict"].startswith("fail:")]
for rs in groups.values(): rs[:] = [r for r in rs if not r["verdict"].startswith("fail:")]
per = -(-want // len(groups))
for rs in groups.values():
    step = max(1, len(rs) // per)
    picked += rs[::step][:per]
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), fieldnames=fields, lineterminator="\n")
w.writeheader(); w.writerows(picked)
print(f"sample: {len(picked)} rows over {len(groups)} kernel x variant x tier groups")
PY
    t0=$(date +%s)
    timeout "${GRIDFUZZ_ISOLATED_LIMIT_S:-420}" "$gf" replay "$run_dir/sample.csv" --process-per-case --workers-per-device 1 \
      --timeout 120 --csv "$run_dir/isolated.csv" > "$run_dir/isolated.log" 2>&1
    echo "one case per process: rc=$? in $(( $(date +%s) - t0 )) s" >> "$OUT/summary.txt"
    python3 - "$run_dir/isolated.csv" "$run_dir/sample.csv" >> "$OUT/summary.txt" <<'PY'
import csv, sys
a = {r["case_id"]: r for r in csv.DictReader(open(sys.argv[1], newline=""))}
b = {r["case_id"]: r for r in csv.DictReader(open(sys.argv[2], newline=""))}
skip = {"run_id", "tier", "time_ms_median", "time_ms_min", "time_ms_max", "samples", "gbps", "kernel_ms_median",
        "kernel_ms_min", "kernel_ms_max", "kernels_per_call", "plan_ms", "alloc_ms", "fill_ms", "call_ms",
        "reference_ms", "compare_ms", "cpu_ms", "timing_ms", "case_ms", "worker_ms"}
common = sorted(set(a) & set(b))
diff = [(i, c) for i in common for c in a[i] if c not in skip and a[i][c] != b[i].get(c)]
print(f"equality: {len(a)} rows one case per process, {len(b)} side by side, {len(common)} in common,"
      f" {len({i for i, _ in diff})} differing (columns except times), over {len({a[i]['kernel'] for i in common})} kernels,"
      f" {len({(a[i]['kernel'], a[i]['variant']) for i in common})} kernel x variant, {len({a[i]['tier'] for i in common})} tiers")
verdicts = {}
for i in common: verdicts[a[i]["verdict"]] = verdicts.get(a[i]["verdict"], 0) + 1
print("verdicts:", verdicts)
for i, c in diff[:20]: print("  differs:", a[i]["replay"], c, repr(a[i][c]), "vs", repr(b[i].get(c)))
PY
    (cd "$run_dir" && tar cJf "$OUT/equality.tar.xz" sample.csv isolated.csv isolated.log) ;;
  proofs)
    for t in ${GRIDFUZZ_PROOFS:-}; do
      bin=$(gridfuzz_built "$t") || continue
      t0=$(date +%s)
      "$bin" > "$run_dir/$t.log" 2>&1
      echo "$t rc=$? in $(( $(date +%s) - t0 )) s: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$run_dir/$t.log" | tr '\n' ' ')" >> "$OUT/summary.txt"
    done
    (cd "$run_dir" && tar cJf "$OUT/proofs.tar.xz" ./*.log) ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
cat "$OUT/summary.txt"
