#!/usr/bin/env bash
# 2026-12-01, nvidia-h200: does the odd-block-count slow-down of gguf.moe_vec
# (evidence/performance-log.md, "A slow-down the gate found") show at model-sized rows too?
# q4_0 at cols 2816/2848 (88/89 blocks) and
# 4096/4128 (128/129 blocks), tokens 8 and 64, ours (fixed, zchunk) beside vLLM's kernel (upstream),
# timed. From the tree (evidence/lib.sh: this checkout's build, or GRIDFUZZ_PREBUILT's binaries;
# the run used the build of d1f0211).
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../lib.sh"
O=$OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$O/device.txt"
for k in "gguf.moe_vec --variant fixed --variant zchunk" "vllm.moe_vec --variant upstream"; do
  # shellcheck disable=SC2086  # $k is a kernel and its options
  timeout 120 "$gf" run $k --set tokens=8,64 --set top_k=8 --set cols=2816,2848,4096,4128 --timing \
    --csv "$O/odd-small.csv" >> "$O/odd-small.txt" 2>&1
  echo "$k rc=$?" >> "$O/device.txt"
done
cat "$O/device.txt"
python3 - "$O/odd-small.csv" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(f'{r["kernel"]:14s} {r["variant"]:9s} tokens {r["tokens"]:>3s} cols {r["cols"]:>5s} {float(r["time_ms_median"] or "nan"):8.4f} ms {r["verdict"]}')
PY
