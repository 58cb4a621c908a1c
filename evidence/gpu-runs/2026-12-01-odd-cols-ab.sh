#!/usr/bin/env bash
# 2026-12-01, nvidia-h200: is the gate's SLOWER at gguf.moe_vec cols=384288 (an odd number of q4_0
# blocks per row) a change of our code or of the machine? The build the baseline was made from
# (de11582, built without MLX) and today's build run the same cases in turn, twice each, on one
# GPU: tokens 64, top_k 8, cols 384256/384288. From the tree (evidence/lib.sh): "new" is this
# checkout's build or GRIDFUZZ_PREBUILT's binaries (the run: the build of d1f0211); "old" is
# GRIDFUZZ_OLD_PREBUILT's gridfuzz, else built here from commit de11582.
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../lib.sh"
O=$OUT
old_gf="$(evidence_old de11582 gridfuzz -DGRIDFUZZ_MLX_DIR=)" || exit 3
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/device.txt"
for rep in 1 2; do
  for build in old new; do
    bin="$gf"; [ $build = old ] && bin="$old_gf"
    timeout 120 "$bin" run gguf.moe_vec --variant fixed --variant zchunk --variant rows_x --set tokens=64 --set top_k=8 \
      --set cols=384256,384288 --timing --csv "$O/$build-$rep.csv" > "$O/$build-$rep.txt" 2>&1
    echo "$build rep $rep rc=$?" >> "$O/device.txt"
  done
done
cat "$O/device.txt"
python3 - "$O" <<'PY'
import csv, sys, glob, os
rows = {}
for f in sorted(glob.glob(sys.argv[1] + "/*-[12].csv")):
    build = os.path.basename(f).split("-")[0]
    for r in csv.DictReader(open(f)):
        rows.setdefault((r["variant"], r["cols"], build), []).append(f'{float(r["time_ms_median"]):.2f}/{r["verdict"]}')
for k, v in sorted(rows.items()): print(k, v)
PY
