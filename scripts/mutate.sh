#!/usr/bin/env bash
# Mutation run: plants each bug of scripts/mutations.txt, one at a time, in a throw-away copy of HEAD (a
# detached git worktree; the caller's working tree is never touched), rebuilds incrementally, runs the
# tests meant to catch it and prints, per bug, whether a test failed (caught) or not (MISSED).
#
# Usage: scripts/mutate.sh [--list] [--only ID[,ID...]] [--keep] [--build-dir DIR] [--timeout S]
#                          [--jobs N] [--no-baseline] [--mutations FILE]
#   --list           print the mutations (checking that each anchor applies exactly once to HEAD) and stop
#   --only IDS       plant only these (comma-separated ids)
#   --keep           keep the copy, its build and the logs afterwards (their folder is printed)
#   --build-dir DIR  keep the copy and its build in DIR (DIR/repo, DIR/repo/build) and reuse them on the
#                    next run: the copy is moved to the new HEAD, so only what changed is rebuilt
#   --timeout S      ctest's per-test timeout (default 600 s); a timeout counts as caught
#   --jobs N         parallel build jobs and tests (default: nproc)
#   --no-baseline    skip the unmutated run of each test selection (faster; a test that already fails on
#                    HEAD would then make every mutation look caught)
# Exit code: 0 every mutation caught, 1 some MISSED, 2 the list does not apply, the baseline fails, a
# mutant does not compile or any other error.
set -euo pipefail
# No locale is forced here: ccache hashes LANG / LC_ALL, and the caller's objects are to be reused.

repo=$(cd "$(dirname "$0")/.." && pwd)
mutations_file="$repo/scripts/mutations.txt"
list_only=0 keep=0 baseline=1 only="" build_dir="" timeout=600 jobs=$(nproc)

die() {
  echo "mutate.sh: $*" >&2
  exit 2
}
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
    --list) list_only=1 ;;
    --only) only=${2:?--only needs ids}; shift ;;
    --only=*) only=${1#*=} ;;
    --keep) keep=1 ;;
    --build-dir) build_dir=${2:?--build-dir needs a folder}; shift ;;
    --build-dir=*) build_dir=${1#*=} ;;
    --timeout) timeout=${2:?--timeout needs seconds}; shift ;;
    --timeout=*) timeout=${1#*=} ;;
    --jobs | -j) jobs=${2:?--jobs needs a number}; shift ;;
    --jobs=*) jobs=${1#*=} ;;
    --no-baseline) baseline=0 ;;
    --mutations) mutations_file=$(realpath "${2:?--mutations needs a file}"); shift ;;
    -h | --help) usage && exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done
[[ "$timeout" =~ ^[0-9]+$ && "$jobs" =~ ^[1-9][0-9]*$ ]] || die "--timeout and --jobs take whole numbers"
[ -f "$mutations_file" ] || die "no mutation list at $mutations_file"

# --- the list -------------------------------------------------------------------------------------------
ids=() files=() whats=() tests=() builds=() froms=() tos=()
n=-1
section=""  # which of '-' / '+' the last text line belonged to (a block is '-' lines, then '+' lines)
line_no=0
while IFS= read -r line || [ -n "$line" ]; do
  line_no=$((line_no + 1))
  where="$mutations_file:$line_no"
  case "$line" in
    '#'* | '') continue ;;
    '['*']')
      n=$((n + 1))
      ids[n]=${line:1:${#line}-2}
      [[ "${ids[n]}" =~ ^[A-Za-z0-9-]+$ ]] || die "$where: bad id '${ids[n]}'"
      for ((i = 0; i < n; ++i)); do [ "${ids[i]}" != "${ids[n]}" ] || die "$where: id '${ids[n]}' twice"; done
      files[n]="" whats[n]="" tests[n]="" builds[n]="" froms[n]="" tos[n]="" section=""
      continue
      ;;
  esac
  [ "$n" -ge 0 ] || die "$where: text before the first [id]"
  case "$line" in
    'file: '*) files[n]=${line#file: } ;;
    'what: '*) whats[n]=${line#what: } ;;
    'tests: '*) tests[n]=${line#tests: } ;;
    'build: '*) builds[n]=${line#build: } ;;
    '- '* | '-')
      [ "$section" != "+" ] || die "$where: '-' line after the '+' lines of [${ids[n]}]"
      text=${line#-}
      text=${text# }
      if [ "$section" = "-" ]; then froms[n]+=$'\n'"$text"; else froms[n]=$text; fi
      section="-"
      ;;
    '+ '* | '+')
      [ "$section" != "" ] || die "$where: '+' line before any '-' line of [${ids[n]}]"
      text=${line#+}
      text=${text# }
      if [ "$section" = "+" ]; then tos[n]+=$'\n'"$text"; else tos[n]=$text; fi
      section="+"
      ;;
    *) die "$where: cannot read '$line'" ;;
  esac
done <"$mutations_file"
count=$((n + 1))
[ "$count" -gt 0 ] || die "$mutations_file holds no mutation"

# Targets to build for mutation i: its `build:` field, else every test of each `-L label`.
targets_of() {
  local i=$1 args label src out=()
  if [ -n "${builds[i]}" ]; then
    echo "${builds[i]}"
    return
  fi
  read -ra args <<<"${tests[i]}"
  for ((a = 0; a < ${#args[@]}; ++a)); do
    [ "${args[a]}" = "-L" ] || continue
    label=${args[a + 1]:-}
    for src in "$repo/tests/$label"/*.cpp; do
      [ -f "$src" ] && out+=("test_${label}_$(basename "$src" .cpp)")
    done
  done
  echo "${out[*]}"
}

for ((i = 0; i < count; ++i)); do
  where="[${ids[i]}] in $mutations_file"
  if [ -z "${files[i]}" ] || [ -z "${whats[i]}" ] || [ -z "${tests[i]}" ]; then
    die "$where: needs file, what and tests"
  fi
  [ -n "${froms[i]}" ] || die "$where: no '-' anchor"
  [ -n "$(targets_of "$i")" ] || die "$where: nothing to build (give 'build:' or a '-L label' with tests)"
done

selected=()
if [ -n "$only" ]; then
  IFS=',' read -ra wanted <<<"$only"
  for id in "${wanted[@]}"; do
    found=""
    for ((i = 0; i < count; ++i)); do [ "${ids[i]}" = "$id" ] && found=$i; done
    [ -n "$found" ] || die "--only: no mutation '$id' (--list shows them)"
    selected+=("$found")
  done
else
  for ((i = 0; i < count; ++i)); do selected+=("$i"); done
fi

# How often `needle` occurs in `haystack` (non-overlapping, literal).
occurrences() {
  local haystack=$1 needle=$2
  local rest=${haystack//"$needle"/}
  echo $(((${#haystack} - ${#rest}) / ${#needle}))
}


# Every selected anchor must occur exactly once in `source_of ID FILE`'s text.
check_anchors() {
  local bad=0 i text hits
  for i in "${selected[@]}"; do
    if ! text=$("$@" "${files[i]}" 2>/dev/null); then
      echo "mutate.sh: [${ids[i]}] ${files[i]}: no such file at HEAD" >&2
      bad=1
      continue
    fi
    hits=$(occurrences "$text" "${froms[i]}")
    if [ "$hits" -ne 1 ]; then
      echo "mutate.sh: [${ids[i]}] the anchor occurs $hits times in ${files[i]} (exactly 1 needed):" >&2
      printf '%s\n' "${froms[i]}" | sed 's/^/    | /' >&2
      bad=1
    fi
  done
  [ "$bad" -eq 0 ] || die "the mutation list does not apply to HEAD; update $mutations_file"
}
# shellcheck disable=SC2317  # called through check_anchors "$@"
head_file() { git -C "$repo" show "HEAD:$1"; }

if [ "$list_only" -eq 1 ]; then
  check_anchors head_file
  printf '%-26s %-44s %-20s %s\n' "id" "file" "tests" "what"
  for i in "${selected[@]}"; do
    printf '%-26s %-44s %-20s %s\n' "${ids[i]}" "${files[i]}" "${tests[i]}" "${whats[i]}"
  done
  echo "${#selected[@]} mutation(s); every anchor applies exactly once to HEAD ($(git -C "$repo" rev-parse --short HEAD))"
  exit 0
fi
check_anchors head_file

# --- the copy -------------------------------------------------------------------------------------------
head_sha=$(git -C "$repo" rev-parse HEAD)
if [ -n "$(git -C "$repo" status --porcelain --untracked-files=no)" ]; then
  echo "mutate.sh: note: uncommitted changes are not in the copy; the mutations apply to HEAD ${head_sha:0:10}" >&2
fi
if [ -n "$build_dir" ]; then
  case "$(realpath -m "$build_dir")/" in
    "$repo/"*) die "--build-dir $build_dir is inside the repository; the copy must live elsewhere" ;;
  esac
  mkdir -p "$build_dir"
  work=$(cd "$build_dir" && pwd)
  keep=1
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/mimic-mutate.XXXXXX")
fi
copy="$work/repo"
build="$copy/build"
logs="$work/logs"
mkdir -p "$logs"

current=-1           # the mutation planted right now (reverted on any exit)
original=""          # its file's text before planting
# shellcheck disable=SC2317  # the EXIT trap
cleanup() {
  local rc=$?
  if [ "$current" -ge 0 ] && [ -d "$copy" ]; then printf '%s' "$original" >"$copy/${files[current]}"; fi
  if [ "$keep" -eq 1 ]; then
    echo "mutate.sh: kept the copy and its build in $work (logs in $logs)" >&2
    [ -n "$build_dir" ] || echo "mutate.sh: remove with: git -C $repo worktree remove --force $copy && rm -rf $work" >&2
  else
    git -C "$repo" worktree remove --force "$copy" >/dev/null 2>&1 || true
    rm -rf "$work"
    git -C "$repo" worktree prune >/dev/null 2>&1 || true
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -e "$copy/.git" ] && git -C "$copy" rev-parse --git-dir >/dev/null 2>&1; then
  git -C "$copy" checkout --quiet --detach --force "$head_sha"  # touches only the files that changed
else
  [ ! -e "$copy" ] || die "$copy exists but is not a worktree of $repo"
  git -C "$repo" worktree prune
  git -C "$repo" worktree add --quiet --detach "$copy" "$head_sha"
fi

# The tests find the third-party data next to the repository (../shared), which the copy is not: point
# them at the caller's, next to this checkout or else next to the main worktree it belongs to.
if [ -z "${MIMIC_SHARED_DIR:-}" ]; then
  common=$(cd "$repo" && cd "$(git rev-parse --git-common-dir)" && pwd)
  for candidate in "$repo/../shared" "$common/../../shared"; do
    if [ -d "$candidate" ]; then
      MIMIC_SHARED_DIR=$(cd "$candidate" && pwd)
      export MIMIC_SHARED_DIR
      break
    fi
  done
fi

# ccache: with base_dir at the work folder, the copy compiles to the same relative paths (../src/...) as
# a build in <repository>/build whose base_dir contains the repository, so the caller's objects are reused.
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$work"
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f "$build/CMakeCache.txt" ]; then
  echo "mutate.sh: configuring $build" >&2
  cmake -S "$copy" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
    >"$logs/configure.log" 2>&1 || die "cmake failed; see $logs/configure.log"
fi

build_targets() {  # log, targets...
  local log=$1
  shift
  cmake --build "$build" --parallel "$jobs" --target "$@" >"$log" 2>&1
}

# Runs the selection `args` into `log`; sets ran_tests and first_failure ("" when every test passed).
run_tests() {  # log, args...
  local log=$1
  shift
  local rc=0
  ctest --test-dir "$build" "$@" --timeout "$timeout" --parallel "$jobs" --stop-on-failure \
    --no-tests=error --output-on-failure >"$log" 2>&1 || rc=$?
  ran_tests=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ' "$log" || true)
  # The first result line that is neither "Passed" nor "Skipped", as "name (Failed|Timeout|Exception...)".
  first_failure=$(grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ' "$log" | grep -vE ' Passed |\*\*\*Skipped' | head -1 |
    sed -E 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) .*\*\*\*([A-Za-z ]+[A-Za-z]).*$/\1 (\2)/; s/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) .*$/\1/' || true)
  if [ "$rc" -ne 0 ] && [ -z "$first_failure" ]; then first_failure="?"; fi
  return 0
}

# --- baseline: the unmutated copy must pass every selection used --------------------------------------
all_targets=()
selections=()
for i in "${selected[@]}"; do
  read -ra t <<<"$(targets_of "$i")"
  all_targets+=("${t[@]}")
  seen=0
  for s in "${selections[@]}"; do [ "$s" = "${tests[i]}" ] && seen=1; done
  [ "$seen" -eq 1 ] || selections+=("${tests[i]}")
done
mapfile -t all_targets < <(printf '%s\n' "${all_targets[@]}" | sort -u)
echo "mutate.sh: building the unmutated copy (${#all_targets[@]} targets) in $build" >&2
start=$SECONDS
build_targets "$logs/build-baseline.log" "${all_targets[@]}" || die "the unmutated copy does not build; see $logs/build-baseline.log"
echo "mutate.sh: built in $((SECONDS - start)) s" >&2
if [ "$baseline" -eq 1 ]; then
  for ((s = 0; s < ${#selections[@]}; ++s)); do
    read -ra args <<<"${selections[s]}"
    start=$SECONDS
    run_tests "$logs/baseline-$s.log" "${args[@]}"
    [ -z "$first_failure" ] ||
      die "baseline: '${selections[s]}' fails on HEAD without any mutation ($first_failure); see $logs/baseline-$s.log"
    [ "$ran_tests" -gt 0 ] || die "baseline: '${selections[s]}' selects no test"
    echo "mutate.sh: baseline '${selections[s]}': $ran_tests tests, none fails ($((SECONDS - start)) s)" >&2
  done
fi

# --- the mutants ----------------------------------------------------------------------------------------
results=()
missed=0 errors=0 k=0
for i in "${selected[@]}"; do
  k=$((k + 1))
  id=${ids[i]}
  path="$copy/${files[i]}"
  IFS= read -r -d '' original <"$path" || true  # the whole file, trailing newline included
  [ "$(occurrences "$original" "${froms[i]}")" -eq 1 ] || die "[$id] anchor not found exactly once in the copy"
  current=$i
  printf '%s' "${original/"${froms[i]}"/"${tos[i]}"}" >"$path"
  start=$SECONDS
  echo "mutate.sh: [$k/${#selected[@]}] $id: ${whats[i]}" >&2
  read -ra t <<<"$(targets_of "$i")"
  if ! build_targets "$logs/$id.build.log" "${t[@]}"; then
    result="BUILD-ERROR" failure="see $logs/$id.build.log"
    errors=$((errors + 1))
  else
    read -ra args <<<"${tests[i]}"
    run_tests "$logs/$id.test.log" "${args[@]}"
    if [ -z "$first_failure" ]; then
      result="MISSED" failure="-"
      missed=$((missed + 1))
    elif [ "$first_failure" = "?" ]; then
      result="ERROR" failure="ctest failed without a failing test; see $logs/$id.test.log"
      errors=$((errors + 1))
    else
      result="caught" failure=$first_failure
    fi
  fi
  seconds=$((SECONDS - start))
  printf '%s' "$original" >"$path"
  current=-1
  git -C "$copy" diff --quiet -- "${files[i]}" || die "[$id] ${files[i]} differs from HEAD after the revert"
  echo "mutate.sh:   -> $result ${failure} (${seconds} s)" >&2
  results+=("$id"$'\t'"${files[i]}"$'\t'"${whats[i]}"$'\t'"$result"$'\t'"$failure"$'\t'"$seconds")
done

# --- the table ------------------------------------------------------------------------------------------
echo
echo "Mutation run on ${head_sha:0:10} ($(date -u +%Y-%m-%dT%H:%MZ)), ${#selected[@]} mutation(s):"
{
  printf 'id\tfile\twhat\tresult\tfirst failing test\ts\n'
  printf '%s\n' "${results[@]}"
} | awk -F'\t' '{ for (c = 1; c <= NF; ++c) { cell[NR, c] = $c; if (length($c) > w[c]) w[c] = length($c) } n = NF }
  END { for (r = 1; r <= NR; ++r) { line = ""; for (c = 1; c <= n; ++c) line = line sprintf(c < n ? "%-" w[c] "s  " : "%s", cell[r, c]); print line } }'
echo
echo "caught $((${#selected[@]} - missed - errors)), MISSED $missed, errors $errors"
[ "$errors" -eq 0 ] || exit 2
[ "$missed" -eq 0 ] || exit 1
exit 0
