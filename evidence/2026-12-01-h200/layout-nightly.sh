#!/usr/bin/env bash
# 2026-12-01, nvidia-h200: the build after the house redesign (app/ on top, harness/core, one
# vocabulary, evidence/ apart; issue 27) on the GPU: scripts/nightly (every GPU suite, a budgeted
# sweep, the report and the gate against baselines/nvidia-h200.csv), then the example plugin
# (examples/plugin, built out of tree against the installed package) loaded and bisected on the
# device. Prebuilt binaries: GRIDFUZZ_PREBUILT=DIR (scripts/pack-prebuilt, with libmyplugin.so).
#   GRIDFUZZ_PREBUILT=DIR OUT=DIR bash evidence/2026-12-01-h200/layout-nightly.sh
set -u
source "$(dirname "$0")/../lib.sh"
summary="$OUT/summary.txt"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; "$gf" --version; } > "$summary" 2>&1
t0=$(date +%s)
GRIDFUZZ_SWEEP_BUDGET_S="${GRIDFUZZ_SWEEP_BUDGET_S:-60}" timeout 330 bash scripts/nightly --artifacts "$OUT/nightly" --no-bench \
  > "$OUT/nightly-console.log" 2>&1
echo "nightly rc=$? in $(( $(date +%s) - t0 )) s" >> "$summary"
grep -E "GPU tests|gate|exit" "$OUT/nightly/nightly.log" >> "$summary"
grep -hE "^sweep:|^time budget" "$OUT/nightly/sweep.log" >> "$summary"
head -5 "$OUT/nightly/diff.txt" >> "$summary" 2>/dev/null
plugin="$bin_dir/libmyplugin.so"
if [ -f "$plugin" ]; then
  echo "example plugin, on the device:" >> "$summary"
  "$gf" --plugin "$plugin" bisect my.rms_norm --axis rows 2>&1 | tail -1 >> "$summary"
else
  echo "example plugin: no $plugin" >> "$summary"
fi
(cd "$OUT" && tar czf nightly.tgz nightly nightly-console.log && rm -rf nightly nightly-console.log)
cat "$summary"
