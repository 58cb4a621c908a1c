#!/usr/bin/env bash
# 2026-12-01, nvidia-h200: the regenerated baseline docs/baselines/nvidia-h200.csv (schema 1.3, the
# build with qmv_stream's weight ring): the default sweep as the nightly runs it (--timing, --devices
# all, the checkout's ledger) under a 300 s budget on one H200; then scripts/gpu-selftest for
# docs/bug-class-results.md. The report pictures are drawn here afterwards (gnuplot is not on the
# device). Binaries packed in gpu-lead/bin.tar.xz (carried): `bash docs/gpu-runs/2026-12-01-baseline.sh`.
set -u
O=${OUT:-/tmp/out}; mkdir -p "$O"
tar xJf gpu-lead/bin.tar.xz -C gpu-lead
B=$PWD/gpu-lead/bin
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$O/device.txt"
s=$SECONDS
"$B/gridfuzz" sweep --timing --devices all --time-budget 300 --ledger properties/known-failures.txt \
  --csv "$O/sweep.csv" > "$O/sweep.log" 2>&1
echo "sweep exit $? ($((SECONDS - s)) s)" >> "$O/device.txt"
s=$SECONDS
GRIDFUZZ_PREBUILT=$B timeout 150 bash scripts/gpu-selftest /tmp/selftest > "$O/selftest-console.log" 2>&1
echo "gpu-selftest exit $? ($((SECONDS - s)) s)" >> "$O/device.txt"
cp /tmp/selftest/bug-class-results.md "$O/" 2>/dev/null
cat "$O/device.txt"; tail -n 3 "$O/sweep.log"; tail -n 3 "$O/selftest-console.log"
