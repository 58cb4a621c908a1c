#!/usr/bin/env bash
# 2026-12-02, nvidia-h200: the whole static plan of sm_90 (issue 28), untimed, every oracle check
# on, with the default workers per GPU; split over calls of at most 10 minutes by --resume.
#   GRIDFUZZ_PREBUILT=DIR OUT=DIR bash evidence/2026-12-02-h200/whole-plan.sh plan|resume|speed|equality
# plan: a smoke sweep with 8 workers, then `sweep --cases 0` under a budget (GRIDFUZZ_PLAN_BUDGET_S,
#   default 500 s) into $GRIDFUZZ_RUN_DIR/plan.csv (default /tmp/gf-run; kept while the machine
#   stays warm, and copied to $OUT); resume: the same sweep --resume'd from that CSV, or from
#   GRIDFUZZ_PLAN_CSV (a copy carried back); speed: the speed tier, timed; equality: 500 cases of
#   the static plan, spread over every kernel, variant and tier, run one case per process (one
#   worker) and on the fast path (the default workers), rows compared except times.
set -u
source "$(dirname "$0")/../lib.sh"
mode=${1:?mode: plan, resume, speed or equality}
run_dir=${GRIDFUZZ_RUN_DIR:-/tmp/gf-run}
mkdir -p "$run_dir"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; nproc; "$gf" --version 2>/dev/null; } \
  > "$OUT/summary.txt" 2>&1
budget=${GRIDFUZZ_PLAN_BUDGET_S:-500}
plan_csv="$run_dir/plan.csv"

whole_plan() {  # whole_plan [--resume]: the sweep, its report, what it took
  local t0 rc
  t0=$(date +%s)
  "$gf" sweep --cases 0 --timeout 120 --csv "$plan_csv" --time-budget "$budget" --json "$@" \
    > "$run_dir/plan-$mode.json" 2> "$run_dir/plan-$mode.log"
  rc=$?
  echo "sweep --cases 0 $* rc=$rc wall_s=$(( $(date +%s) - t0 ))" >> "$OUT/summary.txt"
  python3 - "$run_dir/plan-$mode.json" >> "$OUT/summary.txt" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print("ran", j["ran"], "reused", j["reused"], "wall_s", round(j["wall_s"], 1), "budget_hit", j["budget_hit"],
      "worker_restarts", j["worker_restarts"], "verdicts", j["verdicts"])
PY
  "$gf" report "$plan_csv" --out "$run_dir/report-$mode" > /dev/null 2>> "$OUT/summary.txt"
  cp "$run_dir/plan-$mode.json" "$OUT/"
  tail -n 30 "$run_dir/plan-$mode.log" > "$OUT/plan-$mode.log.tail"
  sed -n '/## Where the time went/,/^## [^W]/p' "$run_dir/report-$mode/report.md" > "$OUT/phases-$mode.md"
  xz -T0 -c "$plan_csv" > "$OUT/plan.csv.xz"
}

case "$mode" in
  plan)
    rm -f "$plan_csv"
    "$gf" sweep gguf.quantize_q8_1 --tiers defaults --cases 0 --workers-per-device 8 --csv "$run_dir/smoke.csv" --json \
      > "$run_dir/smoke.json" 2> "$run_dir/smoke.log"
    echo "smoke rc=$? $(head -c 300 "$run_dir/smoke.json")" >> "$OUT/summary.txt"
    whole_plan ;;
  resume)
    if [ ! -s "$plan_csv" ]; then
      [ -n "${GRIDFUZZ_PLAN_CSV:-}" ] || { echo "no $plan_csv and no GRIDFUZZ_PLAN_CSV" >> "$OUT/summary.txt"; cat "$OUT/summary.txt"; exit 3; }
      case "$GRIDFUZZ_PLAN_CSV" in *.xz) xz -dc "$GRIDFUZZ_PLAN_CSV" > "$plan_csv" ;; *) cp "$GRIDFUZZ_PLAN_CSV" "$plan_csv" ;; esac
      echo "resumed from the carried $GRIDFUZZ_PLAN_CSV" >> "$OUT/summary.txt"
    fi
    whole_plan --resume ;;
  speed)
    t0=$(date +%s)
    "$gf" sweep --tiers speed --cases 0 --timing --csv "$run_dir/speed.csv" --json > "$run_dir/speed.json" 2> "$run_dir/speed.log"
    echo "speed tier rc=$? in $(( $(date +%s) - t0 )) s: $(head -c 400 "$run_dir/speed.json")" >> "$OUT/summary.txt"
    "$gf" report "$run_dir/speed.csv" --out "$run_dir/report-speed" > /dev/null 2>> "$OUT/summary.txt"
    sed -n '/## Where the time went/,/^## [^W]/p' "$run_dir/report-speed/report.md" > "$OUT/phases-speed.md"
    xz -T0 -c "$run_dir/speed.csv" > "$OUT/speed.csv.xz" ;;
  equality)
    # The sample: the static plan on this device, 500 rows spread evenly over kernel x variant x
    # tier (evenly spaced within each: the plan lists a tier's cases smallest first).
    "$gf" sweep --static --cases 0 --csv "$run_dir/static.csv" > /dev/null 2>&1
    python3 - "$run_dir/static.csv" "$run_dir/sample.csv" 500 <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
header, body = rows[0], rows[1:]
k, v, t = header.index("kernel"), header.index("variant"), header.index("tier")
groups = {}
for r in body: groups.setdefault((r[k], r[v], r[t]), []).append(r)
want, picked = int(sys.argv[3]), []
per = -(-want // len(groups))
for rs in groups.values():
    step = max(1, len(rs) // per)
    picked += rs[::step][:per]
with open(sys.argv[2], "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n"); w.writerow(header); w.writerows(picked)
print(f"sample: {len(picked)} cases over {len(groups)} kernel x variant x tier groups")
PY
    # The fast path (the default workers side by side, CPU samples on threads), then the old way:
    # one worker, a fresh process per case, CPU samples on one thread.
    t0=$(date +%s)
    "$gf" replay "$run_dir/sample.csv" --timeout 120 --csv "$run_dir/fast.csv" > "$run_dir/fast.log" 2>&1
    echo "fast path: rc=$? in $(( $(date +%s) - t0 )) s" >> "$OUT/summary.txt"
    t0=$(date +%s)
    GRIDFUZZ_CPU_THREADS=1 timeout "${GRIDFUZZ_ISOLATED_LIMIT_S:-400}" "$gf" replay "$run_dir/sample.csv" --process-per-case \
      --workers-per-device 1 --timeout 120 --csv "$run_dir/isolated.csv" > "$run_dir/isolated.log" 2>&1
    echo "one case per process, one CPU thread: rc=$? in $(( $(date +%s) - t0 )) s" >> "$OUT/summary.txt"
    python3 - "$run_dir/isolated.csv" "$run_dir/fast.csv" >> "$OUT/summary.txt" <<'PY'
import csv, sys
a = {r["case_id"]: r for r in csv.DictReader(open(sys.argv[1], newline=""))}
b = {r["case_id"]: r for r in csv.DictReader(open(sys.argv[2], newline=""))}
skip = {"run_id", "tier", "time_ms_median", "time_ms_min", "time_ms_max", "samples", "gbps", "kernel_ms_median",
        "kernel_ms_min", "kernel_ms_max", "kernels_per_call", "plan_ms", "alloc_ms", "fill_ms", "call_ms",
        "reference_ms", "compare_ms", "cpu_ms", "timing_ms", "case_ms", "worker_ms"}
common = sorted(set(a) & set(b))
diff = [(i, c) for i in common for c in a[i] if c not in skip and a[i][c] != b[i].get(c)]
kernels = sorted({a[i]["kernel"] for i in common})
print(f"equality: {len(a)} rows one case per process, {len(b)} on the fast path, {len(common)} in common,"
      f" {len({i for i, _ in diff})} differing (columns except times), over {len(kernels)} kernels")
verdicts = {}
for i in common: verdicts[a[i]["verdict"]] = verdicts.get(a[i]["verdict"], 0) + 1
print("verdicts:", verdicts)
for i, c in diff[:20]: print("  differs:", a[i]["replay"], c, repr(a[i][c]), "vs", repr(b[i].get(c)))
PY
    (cd "$run_dir" && tar cJf "$OUT/equality.tar.xz" sample.csv isolated.csv fast.csv isolated.log fast.log) ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
cat "$OUT/summary.txt"
