#!/usr/bin/env bash
# Runs an XCTest bundle's tests in JOBS processes at once and ends with the
# plain "N passed, N failed" line CI systems read. Exits 0 only when every
# test ran and passed.
#
# Usage: scripts/test-parallel.sh LOG JOBS BUNDLE [REGEX]
#   LOG     every test's output, in the order of the list, once all ran
#   JOBS    processes at once (the machine's cores)
#   BUNDLE  the built test bundle (.build/debug/RulebenchPackageTests.xctest)
#   REGEX   only the tests whose name (Module.Class/test) matches (grep -E)
#
# What it keeps: tests of one class run in one process, in their order, as
# `swift test` runs them; only classes run side by side. The tests listed
# in Tests/slow-tests.txt start first, each in a process of its own, so the
# longest ones do not end the run alone. That list orders the work and
# nothing else: a test missing from it still runs (the run then names the
# tests over 10 s that it does not list), and a name in it that is no
# longer a test is ignored.
#
# A process that dies without XCTest's summary (a sanitizer's abort, a
# crash) fails the run, naming the tests it held.
#
# SKIP_LIST (an environment variable, optional): a file of tests
# (Module.Class/test, one a line, # comments) not to run; the run says how
# many it left out. `make test-asan` gives Tests/asan-skip.txt: the tests
# whose code paths the rest of the suite already runs under the sanitizer.
set -uo pipefail
log=$1 jobs=$2 bundle=$3 regex=${4:-.}
root=$(cd "$(dirname "$0")/.." && pwd)
slow_list="$root/Tests/slow-tests.txt"
work="$log.d"
rm -rf "$work" && mkdir -p "$work"

# Every test, then the work items: one line each, a comma-separated
# list of XCTest specifiers (a test alone, or a class's other tests).
"$bundle" --list-tests 2>/dev/null | grep -E '^[A-Za-z0-9_]+\.[A-Za-z0-9_]+/[A-Za-z0-9_]+$' \
  | grep -E -- "$regex" > "$work/tests" || true
if [ -n "${SKIP_LIST:-}" ]; then
  grep -vE '^\s*(#|$)' "$SKIP_LIST" | sed -E 's/\s+#.*$//' > "$work/skip" || true
  before=$(wc -l < "$work/tests")
  grep -vFx -f "$work/skip" "$work/tests" > "$work/kept" || true
  mv "$work/kept" "$work/tests"
  echo "test-parallel: $((before - $(wc -l < "$work/tests"))) tests left out by $SKIP_LIST"
fi
if [ ! -s "$work/tests" ]; then
  echo "test-parallel: no test of $bundle matches '$regex'" >&2
  exit 1
fi
slow=$(grep -vE '^\s*(#|$)' "$slow_list" 2>/dev/null | grep -Fxf "$work/tests" || true)
{
  [ -n "$slow" ] && printf '%s\n' "$slow"
  grep -vFx -f <(printf '%s\n' "$slow") "$work/tests" \
    | awk -F/ '{ if ($1 != class) { if (line != "") print line; class = $1; line = $0 } else line = line "," $0 }
               END { if (line != "") print line }'
} > "$work/items"
items=$(wc -l < "$work/items")

# One item: its output in item-N.log, then one progress line.
run_item() {
  local index=$1 item=$2 out="$work/item-$1.log" begun=$SECONDS
  "$bundle" "$item" > "$out" 2>&1
  local status=$?
  local name=${item%%,*}
  case "$item" in *,*) name="${name%%/*}";; esac
  local summary
  summary=$(grep -E "Executed [0-9]+ tests?, with" "$out" | tail -1 | sed -E 's/^\s+//; s/ \(.*//')
  echo "[$index/$ITEMS] ${name#*.}: ${summary:-no summary, exit $status} ($((SECONDS - begun)) s)"
  [ "$status" -eq 0 ] || grep -E "error: |: Fatal error|ERROR: \w+Sanitizer" "$out" | head -20
  echo "$status" > "$work/item-$index.rc"
}
export -f run_item
export work bundle ITEMS=$items
nl -nln -w1 -s: "$work/items" \
  | xargs -P "$jobs" -d '\n' -n 1 bash -c 'run_item "${0%%:*}" "${0#*:}"'

# The log in the list's order, and the totals from each process's summary.
passed=0 failed=0 skipped=0 broken=0
: > "$log"
for index in $(seq 1 "$items"); do
  out="$work/item-$index.log"
  cat "$out" >> "$log" 2>/dev/null
  summary=$(grep -E "Executed [0-9]+ tests?, with" "$out" 2>/dev/null | tail -1)
  rc=$(cat "$work/item-$index.rc" 2>/dev/null || echo 1)
  if [ -z "$summary" ]; then
    held=$(sed -n "${index}p" "$work/items" | tr ',' '\n' | wc -l)
    echo "test-parallel: the process of item $index ended (exit $rc) before its summary; its $held tests count as failed: $(sed -n "${index}p" "$work/items" | cut -c1-200)"
    failed=$((failed + held)); broken=$((broken + 1))
    continue
  fi
  total=$(echo "$summary" | sed -E 's/.*Executed ([0-9]+) tests?.*/\1/')
  fails=$(echo "$summary" | sed -E 's/.* ([0-9]+) failures?.*/\1/')
  skips=0
  echo "$summary" | grep -qE "[0-9]+ tests? skipped" && skips=$(echo "$summary" | sed -E 's/.*with ([0-9]+) tests? skipped.*/\1/')
  [ "$rc" -ne 0 ] && [ "$fails" -eq 0 ] && { fails=1; broken=$((broken + 1)); }
  passed=$((passed + total - fails - skips)); failed=$((failed + fails)); skipped=$((skipped + skips))
done

# The slow tests the list does not name, so it can be kept up to date.
unlisted=$(grep -oE "Test Case '[^']+' passed \([0-9.]+ seconds\)" "$log" \
  | sed -E "s/Test Case '([^.]+)\.([^']+)' passed \(([0-9.]+) seconds\)/\3 \1\/\2/" \
  | awk '$1 >= 10 { print $2 }' | while read -r name; do
      grep -qE "\.$name\$" <(printf '%s\n' "$slow") || echo "$name"; done)
[ -n "$unlisted" ] && echo "test-parallel: over 10 s and not in Tests/slow-tests.txt (it orders the work only):" $unlisted

if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ] && [ "$broken" -eq 0 ]
