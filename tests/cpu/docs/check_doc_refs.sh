#!/usr/bin/env bash
# Keeps the repository's documentation self-contained (issue 12). Usage:
#   check_doc_refs.sh SOURCE_DIR   check the tree (its git-tracked files when it is a git checkout)
#   check_doc_refs.sh --self-test  plant each kind of bad reference in a scratch repository and
#                                  check that every one is reported and a clean tree passes
# Rules, each printed as file:line when broken:
#   1. The upstream facts and the bug catalogue live in docs/KERNELS.md and docs/BUG-CLASSES.md.
#      Outside docs/, a file names them with their docs/ prefix; everywhere, such a name must be a
#      file that exists (so a design document that is not in the repository cannot be cited).
#   2. Nothing refers to the shared folder outside the repository (dot-dot-slash shared, or its
#      absolute path).
#   3. A section citation of a document in docs/, `docs/FILE.md, "Heading"` (several:
#      `docs/FILE.md, "A", "B"`; inside docs/ also `FILE.md, "Heading"`), names a heading of that
#      file: the heading's text, or its start up to a non-word character ("The gate" cites
#      "## The gate: `gridfuzz diff`").
#   4. docs/ holds guides only (issue 27): no folder gpu-runs/, perf-runs/ or baselines/ in it, and
#      no raw file (*.log, *.csv, *.txt, *.sh, *.json, *.tgz). Dated runs, raw logs and job
#      scripts belong in evidence/, the gate's baselines in baselines/. The one exception is
#      docs/upstream/repro/*.sh: the reproductions' runner, which goes with the upstream findings
#      (a script that reproduces them, not a record of a run).
# This file itself is not checked: it has to spell the patterns out.
set -uo pipefail

self_path="tests/cpu/docs/check_doc_refs.sh"
doc_names='(KERNELS|BUG-CLASSES|DESIGN)'
# The folder name in pieces, so that this file does not itself name the path it looks for.
shared="sha""red"

# The files to check, NUL-separated, relative to the current directory (the source root).
list_files() {
  if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
    git ls-files -z
  else
    find . \( -name .git -o -path './build*' \) -prune -o -type f -printf '%P\0'
  fi
}

# The headings of Markdown file $1, one per line, without the leading #s.
headings() { sed -n 's/^#\{1,6\}[[:space:]]\{1,\}//p' "$1"; }

# Whether heading list $1 (lines) has a heading that name $2 cites.
cites_heading() {
  local h
  while IFS= read -r h; do
    [ "$h" = "$2" ] && return 0
    if [ "${h#"$2"}" != "$h" ]; then
      local rest="${h#"$2"}"
      [[ "${rest:0:1}" =~ [^A-Za-z0-9_] ]] && return 0
    fi
  done <<<"$1"
  return 1
}

# The file a citation's path $1 means, written in file $2; empty when it cannot be resolved.
resolve() {
  local path=$1 from_dir
  from_dir=$(dirname "$2")
  if [[ "$path" == */* ]]; then
    [ -f "$path" ] && { echo "$path"; return; }
    [ -f "$from_dir/$path" ] && { echo "$from_dir/$path"; return; }
    return
  fi
  [ -f "$from_dir/$path" ] && { echo "$from_dir/$path"; return; }
  local matches
  matches=$(printf '%s\n' "${files[@]}" | grep -E "(^|/)${path//./\\.}\$")
  [ "$(printf '%s\n' "$matches" | grep -c .)" = 1 ] && echo "$matches"
}

check_tree() {
  cd "$1" || { echo "check_doc_refs: cannot enter $1"; return 2; }
  mapfile -d '' all < <(list_files)
  files=()
  local f
  for f in "${all[@]}"; do
    [ "$f" = "$self_path" ] && continue
    [ -f "$f" ] && files+=("$f")
  done
  [ ${#files[@]} -gt 0 ] || { echo "check_doc_refs: no files found under $1"; return 2; }
  local bad=0 file line token path

  # Rule 1.
  while IFS=: read -r file line token; do
    path=$token
    case "$file" in
      docs/*) [[ "$path" != */* ]] && path="docs/$path" ;;
      *) if [[ "$path" != docs/* && "$path" != */docs/* ]]; then
           echo "$file:$line: '$token' must be named with its docs/ prefix (docs/${token##*/})"
           bad=1
           continue
         fi ;;
    esac
    path="docs/${path##*docs/}"
    if [ ! -f "$path" ]; then
      echo "$file:$line: '$token' names $path, which is not in the repository"
      bad=1
    fi
  done < <(grep -HnIoE "[A-Za-z0-9_./-]*${doc_names}\\.md" -- "${files[@]}")

  # Rule 2.
  while IFS= read -r hit; do
    echo "$hit: refers to the shared folder outside the repository"
    bad=1
  done < <(grep -HnIE "\\.\\./${shared}([^A-Za-z0-9_]|\$)|/work/${shared}" -- "${files[@]}" | cut -c1-200)

  # Rule 3.
  local cite name target heads
  while IFS=: read -r file line cite; do
    path=${cite%%.md*}.md
    target=$(resolve "$path" "$file")
    # Only documents in docs/; rule 1 has already reported a catalogue name that does not resolve.
    [[ "$target" == docs/* ]] || continue
    heads=$(headings "$target")
    while IFS= read -r name; do
      name=${name#\"}
      name=${name%\"}
      if ! cites_heading "$heads" "$name"; then
        echo "$file:$line: $path has no heading \"$name\""
        bad=1
      fi
    done < <(printf '%s\n' "${cite#*.md}" | grep -oE '"[^"]+"')
  done < <(grep -HnIoE '[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md,? "[^"]+"(, "[^"]+")*' -- "${files[@]}")

  # Rule 4.
  for file in "${files[@]}"; do
    [[ "$file" == docs/* ]] || continue
    [[ "$file" =~ ^docs/upstream/repro/[^/]+\.sh$ ]] && continue
    if [[ "/$file" =~ /(gpu-runs|perf-runs|baselines)/ || "$file" =~ \.(log|csv|txt|sh|json|tgz)$ ]]; then
      echo "$file: docs/ holds guides only: dated runs, raw logs and job scripts go to evidence/, baselines to baselines/"
      bad=1
    fi
  done

  return $bad
}

self_test() {
  local status=0
  scratch=$(mktemp -d) || return 2
  trap 'rm -rf "$scratch"' EXIT
  make_repo() {  # a clean tree with both documents and one good citation of each kind
    rm -rf "$scratch/repo" && mkdir -p "$scratch/repo/docs" "$scratch/repo/src" || return 1
    printf '# Facts\n\n## vLLM moe_vec\n\n## The gate: `diff`\n' >"$scratch/repo/docs/KERNELS.md"
    printf '# Bugs\n\n## B.1: Flat index\n\n## B.10: Later\n' >"$scratch/repo/docs/BUG-CLASSES.md"
    printf 'See KERNELS.md, "vLLM moe_vec" and BUG-CLASSES.md, "B.10".\n' >"$scratch/repo/docs/guide.md"
    printf '// docs/KERNELS.md, "vLLM moe_vec", "The gate"; docs/BUG-CLASSES.md, "B.1"\n' \
      >"$scratch/repo/src/a.cpp"
    git -C "$scratch/repo" init -q && git -C "$scratch/repo" add -A
  }
  expect() {  # expect WANT(pass|fail) LINE FILE: plant LINE into FILE (tracked) and run the check
    local want=$1 text=$2 file=$3 out rc
    make_repo || { echo "self-test: cannot make a scratch repository"; status=1; return; }
    if [ -n "$text" ]; then
      mkdir -p "$(dirname "$scratch/repo/$file")" &&
        printf '%s\n' "$text" >>"$scratch/repo/$file" && git -C "$scratch/repo" add -A
    fi
    out=$( (check_tree "$scratch/repo") 2>&1 ) && rc=0 || rc=$?
    if { [ "$want" = pass ] && [ $rc -ne 0 ]; } || { [ "$want" = fail ] && [ $rc -ne 1 ]; }; then
      echo "self-test: expected $want for '$text' in $file, got exit $rc:"
      echo "$out"
      status=1
    fi
  }
  expect pass '' ''
  expect fail '// see KERNELS.md 3.3' src/b.cpp
  expect fail '# BUG-CLASSES.md section B' src/CMakeLists.txt
  expect fail 'as DESIGN.md says' README.md
  expect fail "as ../${shared}/DESIGN.md says" README.md
  expect fail 'see docs/DESIGN.md' src/b.cpp
  expect fail 'from DESIGN.md' docs/guide.md
  expect fail "read ../${shared}/upstream/README.md" src/b.cpp
  expect fail "under /work/${shared}/upstream" src/b.cpp
  expect fail '// docs/KERNELS.md, "vLLM moe_vek"' src/b.cpp
  expect fail '// docs/KERNELS.md, "vLLM moe_vec", "No such"' src/b.cpp
  expect fail '// docs/BUG-CLASSES.md, "B.2"' src/b.cpp
  expect fail '// docs/KERNELS.md, "vLLM moe"' src/b.cpp
  expect pass '// docs/KERNELS.md, "vLLM"' src/b.cpp
  expect pass '// docs/KERNELS.md and docs/BUG-CLASSES.md, "B.1"' src/b.cpp
  expect pass 'see ../docs/KERNELS.md' src/b.cpp
  expect pass "a ../${shared}_utils.h include" src/b.cpp
  expect fail '# 2026-12-01, nvidia-h200' docs/gpu-runs/2026-12-01-run.md
  expect fail 'rows' docs/perf-runs/run1/notes.md
  expect fail 'schema,run_id' docs/baselines/nvidia-h200.csv
  expect fail 'schema,run_id' docs/sweep.csv
  expect fail '[  PASSED  ] 7 tests.' docs/gpu-tests.log
  expect fail 'NVIDIA H200, 580.159.04' docs/upstream/device.txt
  expect fail '#!/usr/bin/env bash' docs/job.sh
  expect fail '{}' docs/bench.json
  expect fail 'packed' docs/outputs.tgz
  expect pass '[  PASSED  ] 7 tests.' evidence/gpu-runs/2026-12-01-run.log
  expect pass 'schema,run_id' baselines/nvidia-h200.csv
  expect pass 'png' docs/report-example/summary.png
  [ $status -eq 0 ] && echo "self-test: every planted reference was reported; the clean tree passes"
  return $status
}

if [ "${1:-}" = --self-test ]; then
  self_test
  exit $?
fi
[ $# -eq 1 ] || { echo "usage: $0 SOURCE_DIR | --self-test"; exit 2; }
check_tree "$1"
rc=$?
[ $rc -eq 0 ] && echo "check_doc_refs: the documentation references are self-contained"
exit $rc
