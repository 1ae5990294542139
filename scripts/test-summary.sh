#!/usr/bin/env bash
# Runs a `swift test` command, keeps its output in LOG, and ends with the
# plain "N passed, N failed" line CI systems read. Exits with the test status.
# Usage: scripts/test-summary.sh LOG swift test ARGS...
set -o pipefail
log=$1
shift
"$@" 2>&1 | tee "$log"
status=$?
summary=$(grep -E "Executed [0-9]+ tests?, with [0-9]+ failures?" "$log" | tail -1)
if [ -n "$summary" ]; then
  total=$(echo "$summary" | sed -E 's/.*Executed ([0-9]+) tests?.*/\1/')
  failed=$(echo "$summary" | sed -E 's/.*with ([0-9]+) failures?.*/\1/')
  echo "$((total - failed)) passed, $failed failed"
fi
exit $status
