#!/usr/bin/env bash
# Keeps the house in floors (docs/ARCHITECTURE.md, "Floors"). Usage:
#   check_layout.sh SOURCE_DIR   check the tree
#   check_layout.sh --self-test  plant each kind of break in a scratch tree; every one must be
#                                reported, and the clean scratch tree must pass
# Rules, each broken one printed as file:line:
#   1. An include names only its own floor or one below. Floors: 0 harness/, properties/ and
#      formats/; 1 kernels/ and reports/ (neither includes the other); 2 app/ and bench/. The floor
#      of an include is that of the folder owning its prefix (gridfuzz/app/ and gridfuzz/reporters/:
#      app; gridfuzz/reports/: reports; gridfuzz/<family>/: kernels; gridfuzz/properties/:
#      properties; gridfuzz/formats/: formats; any other gridfuzz/...: harness).
#   2. formats/ is installed (gridfuzz::formats) and stands on what is installed beside it: it
#      includes only gridfuzz/formats/ and the plugin API's top-level headers (gridfuzz/NAME.hpp).
#   3. The folder table of docs/ARCHITECTURE.md (the rows of its section "Floors" whose first cell
#      is a `folder`) names folders that exist, and every folder holding C++ sources under harness/ (one level) and at
#      the top (app, kernels, reports, properties, formats, bench) is in it.
set -uo pipefail

families='affine|gguf|vllm|mlx|llamacpp|selftest'

# The folder a source path belongs to, as a floor name; empty for folders outside the floors.
folder_of_path() {
  case "$1" in
    harness/*) echo harness ;; properties/*) echo properties ;; formats/*) echo formats ;;
    kernels/*) echo kernels ;; reports/*) echo reports ;;
    app/*) echo app ;; bench/*) echo bench ;;
  esac
}
# The folder owning include path $1 (gridfuzz/...).
folder_of_include() {
  case "$1" in
    gridfuzz/app/*|gridfuzz/reporters/*) echo app ;;
    gridfuzz/reports/*) echo reports ;;
    gridfuzz/properties/*) echo properties ;;
    gridfuzz/formats/*) echo formats ;;
    gridfuzz/*/*) if [[ "$1" =~ ^gridfuzz/($families)/ ]]; then echo kernels; else echo harness; fi ;;
    gridfuzz/*) echo harness ;;
  esac
}
floor() {
  case "$1" in harness|properties|formats) echo 0 ;; kernels|reports) echo 1 ;; app|bench) echo 2 ;; esac
}

check_includes() {
  local bad=0 file line text inc from to
  while IFS= read -r -d '' file; do
    from=$(folder_of_path "$file")
    [ -n "$from" ] || continue
    while IFS=: read -r line text; do
      inc=$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]\(gridfuzz\/[^">]*\)[">].*/\1/p' <<<"$text")
      [ -n "$inc" ] || continue
      to=$(folder_of_include "$inc")
      if [ "$(floor "$to")" -gt "$(floor "$from")" ] ||
         { [ "$(floor "$to")" -eq "$(floor "$from")" ] && [ "$(floor "$from")" -eq 1 ] && [ "$to" != "$from" ]; }; then
        echo "$file:$line: $from/ includes $inc ($to/, floor $(floor "$to")); $from/ stands on floor $(floor "$from")"
        bad=1
      fi
      if [ "$from" = formats ] && [ "$to" != formats ] && [[ "$inc" == gridfuzz/*/* ]]; then
        echo "$file:$line: formats/ includes $inc; formats/ is installed and includes only gridfuzz/formats/ and the plugin API (gridfuzz/NAME.hpp)"
        bad=1
      fi
    done < <(grep -n '#[[:space:]]*include' "$file")
  done < <(find harness properties formats kernels reports app bench -type f \
             \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' -o -name '*.cuh' -o -name '*.h' \) -print0 2>/dev/null)
  return $bad
}

check_folder_table() {
  local doc=docs/ARCHITECTURE.md bad=0 line folder
  [ -f "$doc" ] || { echo "$doc: missing"; return 1; }
  local listed=()
  while IFS=: read -r line text; do
    folder=$(sed -n 's/^| `\([^`]*\)` |.*/\1/p' <<<"$text")
    folder=${folder%/}
    [ -n "$folder" ] || continue
    listed+=("$folder")
    [ -d "$folder" ] || { echo "$doc:$line: the folder table names $folder/, which does not exist"; bad=1; }
  done < <(awk '/^## /{in_floors = ($0 ~ /^## Floors/)} in_floors && /^\| `/{print NR ":" $0}' "$doc")
  local d
  for d in app kernels reports properties formats bench harness/*/; do
    d=${d%/}
    [ -d "$d" ] || continue
    [ -n "$(find "$d" -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' \) -print -quit)" ] || continue
    [[ " ${listed[*]} " == *" $d "* ]] || { echo "$doc: the folder table does not list $d/"; bad=1; }
  done
  return $bad
}

check_tree() {
  cd "$1" || return 2
  local bad=0
  check_includes || bad=1
  check_folder_table || bad=1
  return $bad
}

self_test() {
  local tmp status=0
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  mkdir -p "$tmp"/{harness/core,harness/engine,kernels/gguf,reports/src,app,bench,properties,formats/gguf,docs}
  printf '#include "gridfuzz/kernel.hpp"\n' >"$tmp/harness/core/a.cpp"
  printf '#include "gridfuzz/core/case.hpp"\n' >"$tmp/harness/engine/b.cpp"
  printf '#include "gridfuzz/engine/runner.hpp"\n' >"$tmp/kernels/gguf/c.cpp"
  printf '#include "gridfuzz/core/verdict.hpp"\n' >"$tmp/reports/src/d.cpp"
  printf '#include "gridfuzz/reports/csv_row.hpp"\n#include "gridfuzz/gguf/register.hpp"\n' >"$tmp/app/e.cpp"
  printf '#include "gridfuzz/app/session.hpp"\n' >"$tmp/bench/f.cpp"
  printf '#include "gridfuzz/core/case.hpp"\n' >"$tmp/properties/g.cpp"
  printf '#include "gridfuzz/formats/gguf/blocks.hpp"\n#include "gridfuzz/checked_math.hpp"\n' >"$tmp/formats/gguf/h.cpp"
  printf '#include "gridfuzz/formats/gguf/blocks.hpp"\n' >"$tmp/kernels/gguf/k.cpp"
  cat >"$tmp/docs/ARCHITECTURE.md" <<'MD'
## Floors
| folder | what |
|---|---|
| `harness/core` | x |
| `harness/engine` | x |
| `kernels/` | x |
| `reports/` | x |
| `properties/` | x |
| `formats/` | x |
| `app/` | x |
| `bench/` | x |
## Another section
| `cpu/` | a folder of every kernel family: not the folder table |
MD
  if ! out=$(check_tree "$tmp"); then echo "self-test: the clean tree was refused:"; echo "$out"; return 1; fi
  expect() {  # $1: what is planted (a command run in the scratch tree), $2: what must be reported
    local copy
    copy=$(mktemp -d)
    cp -r "$tmp/." "$copy"
    (cd "$copy" && eval "$1")
    if out=$(check_tree "$copy"); then
      echo "self-test: not reported: $1"; status=1
    elif ! grep -q -- "$2" <<<"$out"; then
      echo "self-test: '$1' reported without '$2':"; echo "$out"; status=1
    fi
    rm -rf "$copy"
  }
  expect "printf '#include \"gridfuzz/app/session.hpp\"\n' >>harness/engine/b.cpp" 'harness/engine/b.cpp:2: harness/ includes gridfuzz/app/session.hpp'
  expect "printf '#include \"gridfuzz/reporters/csv_reporter.hpp\"\n' >>reports/src/d.cpp" 'reports/src/d.cpp:2: reports/ includes'
  expect "printf '#include \"gridfuzz/reports/csv_row.hpp\"\n' >>harness/core/a.cpp" 'harness/core/a.cpp:2: harness/ includes gridfuzz/reports'
  expect "printf '#include \"gridfuzz/gguf/register.hpp\"\n' >>reports/src/d.cpp" 'reports/ includes gridfuzz/gguf/register.hpp (kernels/'
  expect "printf '#  include <gridfuzz/reports/junit.hpp>\n' >>kernels/gguf/c.cpp" 'kernels/gguf/c.cpp:2: kernels/ includes'
  expect "printf '#include \"gridfuzz/mlx/register.hpp\"\n' >>properties/g.cpp" 'properties/g.cpp:2'
  expect "printf '#include \"gridfuzz/core/case.hpp\"\n' >>formats/gguf/h.cpp" 'formats/gguf/h.cpp:3: formats/ includes gridfuzz/core/case.hpp; formats/ is installed'
  expect "printf '#include \"gridfuzz/gguf/register.hpp\"\n' >>formats/gguf/h.cpp" 'formats/gguf/h.cpp:3: formats/ includes gridfuzz/gguf/register.hpp (kernels/, floor 1)'
  expect "printf '#include \"gridfuzz/device/launcher.hpp\"\n' >>formats/gguf/h.cpp" 'formats/gguf/h.cpp:3: formats/ includes gridfuzz/device/launcher.hpp; formats/ is installed'
  expect "sed -i '/formats/d' docs/ARCHITECTURE.md" 'does not list formats/'
  expect "mkdir harness/search && printf '#include \"gridfuzz/kernel.hpp\"\n' >harness/search/s.cpp" 'does not list harness/search/'
  expect "sed -i 's/^|---|---|\$/&\\n| \`harness\/cli\` | gone |/' docs/ARCHITECTURE.md" 'names harness/cli/, which does not exist'
  [ $status -eq 0 ] && echo "self-test: every planted break reported, the clean tree passes"
  return $status
}

if [ "${1:-}" = "--self-test" ]; then self_test; exit $?; fi
[ $# -eq 1 ] || { echo "usage: check_layout.sh SOURCE_DIR | --self-test" >&2; exit 2; }
if check_tree "$1"; then echo "layout: every include stands on its floor or below; the folder table matches the tree"; exit 0; fi
exit 1
