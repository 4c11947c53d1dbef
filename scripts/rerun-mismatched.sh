#!/bin/sh
# Recomputes, in place, every complete run of results directories that a build
# of other numerics than this checkout's lane build computed (docs/formats.md,
# summary.json "numerics"; a summary without it counts as "simd/1" if its
# kernels is "simd", else as "scalar"), each from its own summary:
#
#   ccn run --config DIR/runs/ID/summary.json --out DIR/runs/ID --force
#
# so that a sweep resumed by this build no longer refuses the directory and no
# group pools two builds. Only those runs are computed (a sweep resume with
# --recompute-mismatched would also compute every pending run).
#
#   scripts/rerun-mismatched.sh DIR ...    recompute them, JOBS at a time
#   LIST=1 scripts/rerun-mismatched.sh DIR ...   only list them
#
# A run that had no predictions.csv (results/paper keeps few) is left without
# one. An interrupted run is left without summary.json: pending, which a sweep
# or this script computes again. Environment: JOBS (2), CCN (a lane build of
# this checkout, built into a temporary file). Needs jq. Exit 2 on bad usage.
set -eu
if [ $# -lt 1 ]; then
	echo "usage: [LIST=1] [JOBS=N] scripts/rerun-mismatched.sh DIR ..." >&2
	exit 2
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
JOBS=${JOBS:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ccn=${CCN:-}
if [ -z "$ccn" ]; then
	ccn="$tmp/ccn"
	(cd "$repo" && GOEXPERIMENT=simd go build -buildvcs=auto -o "$ccn" ./cmd/ccn)
fi
want=$("$ccn" version | sed 's/.*, numerics //')
: >"$tmp/runs"
for dir in "$@"; do
	[ -d "$dir/runs" ] || { echo "rerun-mismatched: $dir is not a results directory (no runs/)" >&2; exit 2; }
	for s in "$dir"/runs/*/summary.json; do
		[ -f "$s" ] || continue
		have=$(jq -r 'if .numerics then .numerics elif .kernels == "simd" then "simd/1" else "scalar" end' "$s")
		if [ "$have" != "$want" ]; then
			printf '%s\t%s\t%s\n' "$(dirname "$s")" "$have" "$(jq -r '"\(.config.method) seed \(.seed), \(.config.steps) steps, final error \(.final_error)"' "$s")" >>"$tmp/runs"
		fi
	done
done
n=$(wc -l <"$tmp/runs")
echo "rerun-mismatched: $n runs of numerics other than $want"
if [ "${LIST:-0}" = 1 ]; then
	cat "$tmp/runs"
	exit 0
fi
[ "$n" -gt 0 ] || exit 0
# ccn run exits 3 for a diverged run (a result): keep going.
cut -f1 "$tmp/runs" | xargs -P "$JOBS" -I{} nice -n 19 sh -c '
	d=$1; ccn=$2
	[ -f "$d/predictions.csv" ] && keep=1 || keep=0
	"$ccn" run --config "$d/summary.json" --out "$d" --force >"$d.rerun.log" 2>&1
	rc=$?
	[ "$keep" = 1 ] || rm -f "$d/predictions.csv"
	if [ "$rc" -eq 0 ] || [ "$rc" -eq 3 ]; then rm -f "$d.rerun.log"; echo "$d: $(jq -r .final_error "$d/summary.json")"
	else echo "$d: failed (exit $rc), see $d.rerun.log" >&2; fi
' sh {} "$ccn"
