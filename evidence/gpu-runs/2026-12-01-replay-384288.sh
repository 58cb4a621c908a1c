#!/usr/bin/env bash
# 2026-12-01, nvidia-h200: the gate's SLOWER cases of evidence/gpu-runs/2026-12-01-sweep-gate.txt
# again, in three separate processes (is the time of one process reproducible?), with the even
# neighbours cols 384256 and 384320. From the tree (evidence/lib.sh: this checkout's build, or
# GRIDFUZZ_PREBUILT's binaries; the run used the build of d1f0211).
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../lib.sh"
O=$OUT
for rep in 1 2 3; do
  timeout 100 "$gf" run gguf.moe_vec --variant fixed --variant zchunk --variant rows_x --variant pairs_x --set tokens=64 --set top_k=8 \
    --set cols=384256,384288,384320 --timing --csv "$O/rep$rep.csv" > "$O/rep$rep.txt" 2>&1
  echo "rep $rep rc=$?"
done
python3 - "$O" <<'PY'
import csv, sys, glob
rows = {}
for f in sorted(glob.glob(sys.argv[1] + "/rep*.csv")):
    for r in csv.DictReader(open(f)):
        rows.setdefault((r["variant"], r["cols"]), []).append(r["time_ms_median"] + "/" + r["verdict"])
for k, v in sorted(rows.items()): print(k, v)
PY
