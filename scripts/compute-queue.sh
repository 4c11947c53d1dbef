#!/bin/sh
# The project's compute queue, one study after the other on this machine
# (docs/running-at-scale.md, "The compute queue"): each step is a
# scripts/paper-sweep.sh run that resumes from the committed results and
# returns when nothing of it is left to run, so the queue picks up where the
# last machine stopped and goes on to the next study by itself.
#
#   scripts/compute-queue.sh [WORKROOT]         run the queue (WORKROOT/medium, WORKROOT/paper)
#   scripts/compute-queue.sh status [WORKROOT]  how far each step has come, the time left
#   DRY=1 scripts/compute-queue.sh              print the steps, run nothing
#
# The order:
#   1. the Atari medium scale (its three files: check, finals, ablation, capacity),
#      then atari-sigma-floor and atari-authors-floor (the ablation's and the main
#      comparison's CCN with the σ floor of the authors' code, √0.001)
#   2. dependency-length (paper scale)
#   3. auto-freezing (paper scale), then auto-freezing-atari (medium scale)
#   4. rtu-comparison (paper scale), then rtu-atari (medium scale)
#   5. the paper's six trace-patterning studies: the remaining final seeds
#
# It commits nothing: `SCALE=... scripts/paper-sweep.sh commit WORK` does,
# from a session, as the studies' runs finish. Environment: JOBS, CHUNK as
# paper-sweep.sh.
set -eu

usage() {
	sed -n '/^#   scripts/,/^#   DRY/s/^# *//p' "$0"
}
mode=run
case "${1:-}" in
-h | --help)
	usage
	exit 0
	;;
-*)
	echo "compute-queue: unknown option $1 (usage: scripts/compute-queue.sh [status] [WORKROOT])" >&2
	exit 2
	;;
esac
if [ "${1:-}" = status ]; then
	mode=status
	shift
fi
root=${1:-${HOME:-/tmp}/ccn-queue}
repo=$(cd "$(dirname "$0")/.." && pwd)
if [ $mode = status ] && [ -z "${DRY:-}" ]; then
	# One binary for every step's status.
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	(cd "$repo" && go build -o "$tmp/ccn" ./cmd/ccn)
	export CCN="$tmp/ccn"
fi

# step SCALE [STUDIES]: one paper-sweep.sh run (T-BPTT groups included);
# without STUDIES, paper-sweep.sh's own list for SCALE.
step() {
	if [ -n "${DRY:-}" ]; then
		echo "SCALE=$1 STUDIES=\"${2:-}\" TBPTT=1 scripts/paper-sweep.sh run $root/$1"
		return
	fi
	if [ $mode = status ]; then
		SCALE=$1 STUDIES=${2:-} "$repo/scripts/paper-sweep.sh" status "$root/$1"
		return
	fi
	echo "compute-queue: $(date -u +%H:%M:%S) SCALE=$1 STUDIES=${2:-(default)}"
	SCALE=$1 STUDIES=${2:-} TBPTT=1 "$repo/scripts/paper-sweep.sh" run "$root/$1"
}

step medium
step medium "atari-sigma-floor atari-authors-floor"
step paper dependency-length
step paper auto-freezing
step medium auto-freezing-atari
step paper rtu-comparison
step medium rtu-atari
step paper
[ -n "${DRY:-}" ] || [ $mode = status ] || echo "compute-queue: $(date -u +%H:%M:%S) done"
