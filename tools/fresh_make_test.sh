#!/usr/bin/env bash
# Fresh-clone check of issue 17: clone HEAD N times (default 3) into a temporary folder, run
# `make test` in each clone (virtual environment included) and print the wall time and result of each.
# Usage: tools/fresh_make_test.sh [N]        Exit code: the number of red runs (0 = all green).
set -uo pipefail
runs=${1:-3}
repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
work=$(mktemp -d)
red=0
for i in $(seq 1 "$runs"); do
    git clone -q "$repo" "$work/run$i"
    start=$(date +%s)
    if make -C "$work/run$i" test > "$work/run$i.log" 2>&1; then result=green; else result=RED; red=$((red + 1)); fi
    end=$(date +%s)
    summary=$(grep -E "[0-9]+ (passed|failed)" "$work/run$i.log" | tail -1)
    printf 'run %d: %s in %d s (%s; load %s)\n' "$i" "$result" $((end - start)) "$summary" "$(cut -d' ' -f1-3 /proc/loadavg)"
    [ "$result" = green ] && rm -rf "$work/run$i" "$work/run$i.log"
done
[ "$red" -gt 0 ] && echo "logs of red runs: $work"
exit "$red"
