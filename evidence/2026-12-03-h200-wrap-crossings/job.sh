#!/usr/bin/env bash
# 2026-12-03, nvidia-h200: crossings with a wrap among their points at their cheaper shapes
# (2384954), checked against the shapes the plan ran them at before; and the vLLM plugin's
# reproductions without gridfuzz (docs/upstream/repro/).
#   GRIDFUZZ_PREBUILT=DIR OUT=DIR bash evidence/2026-12-03-h200-wrap-crossings/job.sh wrap|tiers|flips
# wrap:  every row of new-shapes.csv (the wrapping variant at its cheaper shape, static rows of
#        2384954's plan) and of old-shapes.csv (the same crossing point at the shape of 53fb6eb's
#        plan, paired line by line in pairs.tsv) replayed (`replay --timeout 60`, one worker),
#        the old shapes cheapest first under GRIDFUZZ_OLD_BUDGET_S (default 300); the verdicts side
#        by side per pair. Then each docs/upstream/repro/vllm_*.py with the plugin's package and
#        gguf-py from GRIDFUZZ_PY (a folder on PYTHONPATH), GRIDFUZZ_REPRO_TIMEOUT_S (default 60) each.
# tiers: `sweep --cases 0 --timeout 120 --workers-per-device 4 --tiers defaults` whole, then the
#        profiles' tier for GRIDFUZZ_PROFILES_BUDGET_S (default 200), into one CSV; rows.py phases.
# flips: `sweep --tiers default-sizes` from its start twice, GRIDFUZZ_FLIPS_BUDGET_S (default 150)
#        each, into two CSVs, and the verdicts of the cases both reached side by side; then
#        `replay` of GRIDFUZZ_FLIPS_REPLAY (a replay string) five times.
set -u
source "$(dirname "$0")/../lib.sh"
mode=${1:?mode: wrap or tiers}
here=evidence/2026-12-03-h200-wrap-crossings
run_dir=${GRIDFUZZ_RUN_DIR:-/tmp/gf-run}
mkdir -p "$run_dir"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; nproc; "$gf" --version | head -2; } >> "$OUT/summary.txt" 2>&1

case "$mode" in
  wrap)
    t0=$(date +%s)
    "$gf" replay "$here/new-shapes.csv" --timeout 60 --csv "$run_dir/new-run.csv" > "$run_dir/new-run.log" 2>&1
    echo "new shapes: replay rc=$? wall_s=$(( $(date +%s) - t0 ))" >> "$OUT/summary.txt"
    t0=$(date +%s)
    timeout "${GRIDFUZZ_OLD_BUDGET_S:-300}" "$gf" replay "$here/old-shapes.csv" --timeout 60 --csv "$run_dir/old-run.csv" \
      > "$run_dir/old-run.log" 2>&1
    echo "old shapes: replay rc=$? wall_s=$(( $(date +%s) - t0 ))" >> "$OUT/summary.txt"
    python3 - "$here/pairs.tsv" "$run_dir/new-run.csv" "$run_dir/old-run.csv" > "$run_dir/side-by-side.tsv" 2>> "$OUT/summary.txt" <<'EOF'
import csv, sys
pairs = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
def rows(path):
    try:
        return {r["case_id"]: r for r in csv.DictReader(open(path))}
    except FileNotFoundError:
        return {}
new, old = rows(sys.argv[2]), rows(sys.argv[3])
print("kernel\tvariant\tpredicted\tindex_wrap\tnew_verdict\tnew_observed\tnew_case_ms\told_verdict\told_observed\told_case_ms\tsame\tnew_replay\told_replay")
same = differ = unrun = 0
for p in pairs:
    n, o = new.get(p["new_case_id"]), old.get(p["old_case_id"])
    if not n or not o:
        unrun += 1
        flag = "unrun"
    else:
        flag = "same" if n["verdict"] == o["verdict"] else "DIFFER"
        same += flag == "same"
        differ += flag == "DIFFER"
    g = lambda r, k: r[k] if r else ""
    print("\t".join([p["kernel"], p["variant"], p["predicted"], p["index_wrap"], g(n, "verdict"), g(n, "observed"), g(n, "case_ms"),
                     g(o, "verdict"), g(o, "observed"), g(o, "case_ms"), flag, p["new_replay"], p["old_replay"]]))
new_ms = sum(float(new[p["new_case_id"]]["case_ms"] or 0) for p in pairs if p["new_case_id"] in new and p["old_case_id"] in old)
old_ms = sum(float(old[p["old_case_id"]]["case_ms"] or 0) for p in pairs if p["new_case_id"] in new and p["old_case_id"] in old)
print(f"pairs {len(pairs)}: same verdict {same}, different {differ}, not run both ways {unrun}; "
      f"case-seconds of the pairs run both ways: cheaper shapes {new_ms/1000:.1f}, old shapes {old_ms/1000:.1f}", file=sys.stderr)
EOF
    grep -c DIFFER "$run_dir/side-by-side.tsv" | sed 's/^/  rows that differ: /' >> "$OUT/summary.txt"
    grep DIFFER "$run_dir/side-by-side.tsv" | head -20 >> "$OUT/summary.txt"
    # The vLLM plugin's reproductions, each in a python of its own (a sticky fault ends the process).
    export PYTHONPATH="${GRIDFUZZ_PY:?GRIDFUZZ_PY: the folder with vllm_gguf_plugin and gguf}${PYTHONPATH:+:$PYTHONPATH}"
    python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda, torch.cuda.get_device_name(0))' >> "$OUT/summary.txt" 2>&1
    for script in docs/upstream/repro/vllm_*.py; do
      name=$(basename "$script" .py)
      t0=$(date +%s)
      (cd docs/upstream/repro && timeout "${GRIDFUZZ_REPRO_TIMEOUT_S:-60}" python3 "$(basename "$script")") > "$run_dir/$name.log" 2>&1
      echo "$name: rc=$? wall_s=$(( $(date +%s) - t0 ))" >> "$OUT/summary.txt"
      tail -n 6 "$run_dir/$name.log" | sed 's/^/    /' >> "$OUT/summary.txt"
    done
    (cd "$run_dir" && tar cJf "$OUT/wrap.tar.xz" new-run.csv old-run.csv side-by-side.tsv new-run.log old-run.log vllm_*.log)
    ;;
  tiers)
    rm -f "$run_dir/plan.csv"
    for spec in defaults:600 "profiles:${GRIDFUZZ_PROFILES_BUDGET_S:-200}"; do
      tier=${spec%%:*} budget=${spec#*:}
      resume=()
      [ -s "$run_dir/plan.csv" ] && resume=(--resume)
      t0=$(date +%s)
      "$gf" sweep --cases 0 --timeout 120 --workers-per-device 4 --tiers "$tier" --csv "$run_dir/plan.csv" "${resume[@]}" \
        --json --time-budget "$budget" > "$run_dir/$tier.json" 2> "$run_dir/$tier.log"
      echo "$tier: sweep --cases 0 --timeout 120 --workers-per-device 4 --tiers $tier ${resume[*]} --time-budget $budget rc=$? wall_s=$(( $(date +%s) - t0 ))" >> "$OUT/summary.txt"
      python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print("  ran", j["ran"], "wall_s", round(j["wall_s"], 1), "budget_hit", j["budget_hit"], "worker_restarts", j["worker_restarts"], "verdicts", j["verdicts"])' \
        "$run_dir/$tier.json" >> "$OUT/summary.txt"
      grep -v '^PASS' "$run_dir/$tier.log" | tail -n 30 > "$run_dir/$tier.log.tail"
    done
    python3 evidence/rows.py phases "$run_dir/plan.csv" | sed 's/^/  /' >> "$OUT/summary.txt"
    python3 -c 'import csv,sys; [print("  ", r["tier"], r["replay"], r["oracle"], r["verdict"], r["finding"]) for r in csv.DictReader(open(sys.argv[1])) if r["verdict"].startswith("fail")]' \
      "$run_dir/plan.csv" >> "$OUT/summary.txt"
    xz -T0 -c "$run_dir/plan.csv" > "$OUT/plan.csv.xz"
    (cd "$run_dir" && tar cJf "$OUT/tiers.tar.xz" ./*.json ./*.log.tail)
    ;;
  flips)
    for i in 1 2; do
      t0=$(date +%s)
      "$gf" sweep --cases 0 --timeout 120 --workers-per-device 4 --tiers default-sizes --csv "$run_dir/sizes-$i.csv" \
        --json --time-budget "${GRIDFUZZ_FLIPS_BUDGET_S:-150}" > "$run_dir/sizes-$i.json" 2> "$run_dir/sizes-$i.log"
      echo "default-sizes, run $i: rc=$? wall_s=$(( $(date +%s) - t0 ))" >> "$OUT/summary.txt"
      python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print("  ran", j["ran"], "wall_s", round(j["wall_s"], 1), "worker_restarts", j["worker_restarts"], "verdicts", j["verdicts"])' \
        "$run_dir/sizes-$i.json" >> "$OUT/summary.txt"
      grep -v '^PASS' "$run_dir/sizes-$i.log" | tail -n 30 > "$run_dir/sizes-$i.log.tail"
    done
    python3 - "$run_dir/sizes-1.csv" "$run_dir/sizes-2.csv" >> "$OUT/summary.txt" <<'EOF'
import csv, sys
a, b = ({r["case_id"]: r for r in csv.DictReader(open(p))} for p in sys.argv[1:3])
both = sorted(a.keys() & b.keys())
flips = [c for c in both if a[c]["verdict"] != b[c]["verdict"]]
print(f"  cases in both runs {len(both)}; verdicts that differ {len(flips)}")
for c in flips:
    print("   ", a[c]["replay"], a[c]["verdict"], a[c]["oracle"], "|", b[c]["verdict"], b[c]["oracle"])
for name, rows in (("run 1", a), ("run 2", b)):
    for r in rows.values():
        if r["verdict"].startswith("fail"):
            print(f"  failing in {name}:", r["replay"], r["oracle"], r["verdict"])
EOF
    if [ -n "${GRIDFUZZ_FLIPS_REPLAY:-}" ]; then
      for i in 1 2 3 4 5; do
        "$gf" replay "$GRIDFUZZ_FLIPS_REPLAY" --csv "$run_dir/replay.csv" > "$run_dir/replay-$i.log" 2>&1
        echo "replay $i: rc=$?" >> "$OUT/summary.txt"
      done
      python3 -c 'import csv,sys; [print("  ", r["oracle"], r["verdict"]) for r in csv.DictReader(open(sys.argv[1]))]' "$run_dir/replay.csv" >> "$OUT/summary.txt"
    fi
    (cd "$run_dir" && tar cJf "$OUT/flips.tar.xz" sizes-*.csv sizes-*.json sizes-*.log.tail replay*)
    ;;
  *) echo "job.sh: unknown mode '$mode' (wrap, tiers or flips)" >&2; exit 2 ;;
esac
cat "$OUT/summary.txt"
