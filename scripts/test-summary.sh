#!/usr/bin/env bash
# Runs a `swift test` command, keeps its output in LOG, and ends with the
# plain "N passed, N failed" line CI systems read. Exits with the test status.
# Usage: scripts/test-summary.sh LOG swift test ARGS...
set -o pipefail
log=$1
shift
"$@" 2>&1 | tee "$log"
status=$?
# XCTest says "Executed 9 tests, with 0 failures", or "with 2 tests skipped and
# 0 failures" when some skipped (a test whose tool is missing says why).
summary=$(grep -E "Executed [0-9]+ tests?, with ([0-9]+ tests? skipped and )?[0-9]+ failures?" "$log" | tail -1)
if [ -n "$summary" ]; then
  total=$(echo "$summary" | sed -E 's/.*Executed ([0-9]+) tests?.*/\1/')
  failed=$(echo "$summary" | sed -E 's/.* ([0-9]+) failures?.*/\1/')
  skipped=0
  if echo "$summary" | grep -qE "[0-9]+ tests? skipped"; then
    skipped=$(echo "$summary" | sed -E 's/.*with ([0-9]+) tests? skipped.*/\1/')
  fi
  if [ "$skipped" -gt 0 ]; then
    echo "$((total - failed - skipped)) passed, $failed failed, $skipped skipped"
  else
    echo "$((total - failed)) passed, $failed failed"
  fi
fi
exit $status
