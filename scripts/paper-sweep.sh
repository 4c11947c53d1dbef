#!/bin/sh
# The paper-scale trace-patterning studies (SCALE=paper, the default) or the
# Atari medium scale (SCALE=medium), run in the background on a small machine
# and committed as they complete into results/SCALE (docs/running-at-scale.md,
# "Paper-scale results in the repository").
#
#   scripts/paper-sweep.sh run [WORK]      run or resume the sweep in WORK
#   scripts/paper-sweep.sh commit [WORK]   copy WORK's finished runs into
#                                          results/SCALE, draw figures/SCALE, write
#                                          the claims tables (paper: docs/results.md,
#                                          medium: docs/atari.md), commit
#   scripts/paper-sweep.sh status [WORK]   how far each study's runs in WORK have
#                                          come and the time left (ccn sweep --status)
#
# WORK (default $HOME/ccn-SCALE, outside the repository) is an ordinary results
# directory (DIR/runs/ID, package sweep). `run` first copies the committed runs
# of results/SCALE into WORK (a fresh machine resumes from the repository), then
# recomputes the complete runs that a build of other numerics made
# (scripts/rerun-mismatched.sh), then runs JOBS workers under nice 19 that
# take runs one at a time from a list of the next CHUNK runnable ones (likely
# step sizes first, then by seed: see plan), planned again when it is empty
# (ccn sweep --emit-tasks of every study; a complete run is never listed),
# until nothing is runnable and no worker runs. T-BPTT runs are left out
# unless TBPTT=1.
#
# The committed form of a run is summary.json (complete run, final error) and
# curve.csv (100 points at log-every 100000), what `ccn collect`, `ccn plot` and
# a resumed sweep need; predictions.csv is kept only for Figure 10 (final seed
# 100 of CCN and T-BPTT k=15 H=4). About 3.7 kB per run.
#
# Environment: SCALE (paper; medium for the Atari files; smoke tries the script
# in a minute, with WORK and a scratch clone), JOBS (2), CHUNK (16: runs
# planned at a time), TBPTT (run
# T-BPTT groups too: 0 at paper scale, 1 at medium, where T-BPTT is every
# game's reference), STUDIES (the six trace-patterning files; the three Atari
# files at medium), ALPHAS (the order in which step sizes run: 3e-4 first, at
# medium the authors' 1e-4), FINALS (run only the first FINALS final seeds of
# each group, 100 to 100+FINALS-1; default all), CCN (the binary that runs and
# answers status; default a build of this repository, the lane build for run),
# CONFIGS (the directory of the study files; default experiments/configs).
set -eu

cmd=${1:-}
SCALE=${SCALE:-paper}
work=${2:-${HOME:-/tmp}/ccn-$SCALE}
repo=$(cd "$(dirname "$0")/.." && pwd)
ccn="$work/ccn" # built by run: the whole sweep uses one binary
committed="$repo/results/$SCALE"
JOBS=${JOBS:-2}
CHUNK=${CHUNK:-16}
configs=${CONFIGS:-$repo/experiments/configs}
FINALS=${FINALS:-1000000}
if [ "$SCALE" = medium ]; then
	TBPTT=${TBPTT:-1}
	STUDIES=${STUDIES:-"atari-main-comparison atari-normalization-ablation atari-tbptt-capacity"}
	ALPHAS=${ALPHAS:-"0.0001 0.0003 3e-05 0.001 0.003 0.01"}
else
	TBPTT=${TBPTT:-0}
	STUDIES=${STUDIES:-"main-comparison normalization-ablation ccn-features-per-stage ccn-steps-per-stage compute-matched-tbptt truncation-h10"}
	ALPHAS=${ALPHAS:-"0.0003 0.001 0.0001 0.003 3e-05 0.01"}
fi

# keep_predictions DIR: whether a run's predictions.csv is committed.
keep_predictions() {
	if [ "$SCALE" = medium ]; then
		jq -e '.config.seed == 100 and ((.config.method == "ccn" and .config.features == 15) or
			(.config.method == "tbptt" and .config.steps > 10000000))' "$1/summary.json" >/dev/null
		return
	fi
	jq -e '.config.seed == 100 and (
		(.config.method == "ccn" and .config.features == 16 and .config["features-per-stage"] == 4 and (.config["no-norm"] | not)) or
		(.config.method == "tbptt" and .config.hidden == 4 and .config.truncation == 15 and
			((.config["fan-in-init"] or .config["full-output-step"] or .config["no-out-bias"]) | not)))' "$1/summary.json" >/dev/null
}

run() {
	mkdir -p "$work/runs" # a results directory from the start, even with nothing committed yet
	# The lane build, like make build (summary.json records "kernels": "simd" and,
	# with -buildvcs=auto whatever GOFLAGS says, the revision).
	# A new file renamed into place: runs still using the old binary keep it.
	if [ -n "${CCN:-}" ]; then
		ccn=$CCN
	else
		(cd "$repo" && GOEXPERIMENT=simd go build -buildvcs=auto -o "$ccn.new" ./cmd/ccn) && mv "$ccn.new" "$ccn"
	fi
	if [ -d "$committed/runs" ]; then
		cp -Rn "$committed/runs" "$work/" # never overwrite a run computed here
	fi
	# One build per results directory: runs of other numerics than this
	# binary's are recomputed first (ccn sweep refuses to resume over them).
	CCN="$ccn" JOBS="$JOBS" "$repo/scripts/rerun-mismatched.sh" "$work"
	# JOBS workers take the runs one at a time, in order, from a list that
	# holds the next CHUNK runnable runs (planned again, under a lock, when
	# it is empty): no core waits behind another's batch. A worker that finds
	# nothing runnable waits while another still runs (whose run may complete
	# a group's sweep and so make its final runs runnable) and stops when none
	# does.
	claims="$work/claims" # a file per worker: the run directory it computes
	rm -rf "$claims" "$work/tasks.next"
	mkdir -p "$claims"
	pids=
	i=1
	while [ "$i" -le "$JOBS" ]; do
		worker "$i" &
		pids="$pids $!"
		i=$((i + 1))
	done
	failed=0
	for p in $pids; do
		wait "$p" || failed=1
	done
	return $failed
}

# worker N: take the list's first run and compute it, until nothing is
# runnable and no other worker computes.
worker() {
	list="$work/tasks.next"
	while :; do
		# flock(1): a worker that dies holding the lock closes the file and so frees it.
		{
			flock 9
			if [ ! -s "$list" ]; then
				plan "$list"
				[ ! -s "$list" ] || echo "paper-sweep: $(date -u +%H:%M:%S) planned $(wc -l <"$list") runs"
			fi
			task=$(head -n 1 "$list")
			if [ -n "$task" ]; then
				tail -n +2 "$list" >"$list.rest"
				mv "$list.rest" "$list"
				echo "$task" | awk '{ print $NF }' | tee "$claims/$1" | sed "s|^|paper-sweep: worker $1: |" >>"$work/runs.log"
			fi
			others=$(cat "$claims"/* 2>/dev/null | wc -l)
		} 9>"$work/plan.lock"
		if [ -z "$task" ]; then
			if [ "$others" -eq 0 ]; then
				echo "paper-sweep: worker $1: nothing runnable (TBPTT=$TBPTT)"
				return
			fi
			sleep 3 # on a core with nothing else to do
			continue
		fi
		# ccn run exits 3 for a diverged run (a result): keep going.
		# cpu.log: user and system CPU seconds, wall seconds, run directory.
		echo "$task" | xargs -L 1 nice -n 19 /usr/bin/time -a -o "$work/cpu.log" -f "%U %S %e %C" \
			>>"$work/runs.log" 2>&1 || true
		rm -f "$claims/$1"
	done
}

# plan FILE: the next CHUNK runnable runs of STUDIES, in order, that no
# process of this machine computes (a worker's included), as ccn run command
# lines (one per run directory).
plan() {
	# The runs in progress first, then the runnable ones: a run that ends
	# in between is then complete (not emitted) or was in progress (busy),
	# never emitted as pending and not busy.
	{
		echo -
		ps -eo args | awk '$2 == "run" { for (i = 3; i < NF; i++) if ($i == "--out") print $(i + 1) }'
		cat "$claims"/* 2>/dev/null || true
	} >"$work/busy"
	: >"$work/tasks.all"
	for s in $STUDIES; do
		"$ccn" sweep "$configs/$s.yaml" --scale "$SCALE" --out "$work" \
			--emit-tasks "$work/tasks.$s" >/dev/null
		cat "$work/tasks.$s" >>"$work/tasks.all"
	done
	# Order: sweep runs (seeds below 100) first, by step size in the order
	# ALPHAS (so that a partial sweep has whole candidates), ε 0.001 before 0.01, then seed; then final runs by seed,
	# so that the final seeds of all groups advance together. --seed is
	# omitted for seed 0.
	awk -v tbptt="$TBPTT" -v finals="$FINALS" -v alphas=" $ALPHAS " '
		FNR == NR { busy[$0] = 1; next }
		/--method tbptt/ && tbptt != 1 { next }
		{ seed = 0; alpha = ""; eps = ""
		  for (i = 1; i < NF; i++) {
			if ($i == "--seed") seed = $(i + 1)
			if ($i == "--step-size") alpha = $(i + 1)
			if ($i == "--epsilon") eps = $(i + 1)
		  }
		  p = index(alphas, " " alpha " ")
		  out = $NF; if (out in busy || out in seen) next
		  seen[out] = 1; pri = p * 2 + (eps == "0.01")
		  if (seed < 100) print 0 "\t" pri "\t" seed "\t" $0
		  else if (seed < 100 + finals) print 1 "\t" seed "\t" pri "\t" $0 }' "$work/busy" "$work/tasks.all" |
		sort -s -n -k1,1 -k2,2 -k3,3 | cut -f4- | head -n "$CHUNK" >"$1"
}

commit() {
	# The commit holds what this step writes and nothing else: changes of
	# one's own to the files it rewrites would go into it unnoticed.
	dirty=$(git -C "$repo" status --porcelain -- docs/results.md docs/atari.md "results/$SCALE" "figures/$SCALE" | head -n 3)
	if [ -n "$dirty" ]; then
		echo "paper-sweep: commit: uncommitted changes in files it rewrites; commit or stash them first: $(echo "$dirty" | tr '\n' ' ')" >&2
		exit 2
	fi
	# The tables and figures come from the repository's code, which may be newer
	# than the running sweep's binary (a setting it does not know).
	(cd "$repo" && GOEXPERIMENT=simd go build -o "$work/ccn-commit" ./cmd/ccn)
	ccn="$work/ccn-commit"
	mkdir -p "$committed/plans" "$committed/runs"
	cp "$work"/plans/*-"$SCALE".json "$committed/plans/"
	n=0
	for d in "$work"/runs/*/; do
		d=${d%/}
		[ -f "$d/summary.json" ] || continue
		id=$(basename "$d")
		dst="$committed/runs/$id"
		# A run recomputed in WORK (scripts/rerun-mismatched.sh) replaces its copy.
		[ -f "$dst/summary.json" ] && cmp -s "$d/summary.json" "$dst/summary.json" && continue
		mkdir -p "$dst"
		cp "$d/curve.csv" "$dst/"
		if keep_predictions "$d" && [ -f "$d/predictions.csv" ]; then
			cp "$d/predictions.csv" "$dst/"
		fi
		cp "$d/summary.json" "$dst/" # last: the summary marks the run complete
		n=$((n + 1))
	done
	"$ccn" collect "$committed" --to "$work/tables" >"$committed/selection.txt"
	cp "$work/tables/selection.csv" "$work/tables/candidates.csv" "$committed/"
	# The Atari tables (medium): normalized errors with bootstrap intervals, the selection across games.
	for f in normalized.csv across-envs.csv; do
		[ ! -f "$work/tables/$f" ] || cp "$work/tables/$f" "$committed/"
	done
	# The paper's figures, and the generic figures of the studies without
	# figures of their own (the RTU comparisons, T-BPTT set up like the
	# authors'), each in a folder of its own.
	"$ccn" plot --results "$committed" --scale "$SCALE" --out "$repo/figures/$SCALE" || true
	# The claims tables of docs/results.md come from the paper-scale runs, those
	# of docs/atari.md from the medium-scale runs (go test ./docs checks both).
	[ "$SCALE" != paper ] || "$ccn" collect "$committed" --markdown "$repo/docs/results.md"
	[ "$SCALE" != medium ] || "$ccn" collect "$committed" --markdown "$repo/docs/atari.md"
	runs=$(ls "$committed/runs" | wc -l)
	size=$(($(du -sb "$committed" | cut -f1) / 1024))
	cd "$repo"
	git add -f "results/$SCALE" "figures/$SCALE"/*.png "figures/$SCALE/captions.txt" 2>/dev/null || git add -f "results/$SCALE"
	# A study's folder: PNG and captions (its PDFs are not committed).
	git add -f "figures/$SCALE"/*/*.png "figures/$SCALE"/*/captions.txt 2>/dev/null || true
	# The Atari figures also as PDF at medium.
	[ "$SCALE" != medium ] || git add -f figures/medium/atari-*.pdf 2>/dev/null || true
	git add docs/results.md docs/atari.md
	git commit -q -m "results/$SCALE: $runs $SCALE-scale runs committed ($n new, ${size} kB)" || echo "paper-sweep: nothing new to commit"
}

status() {
	# WORK, or before its first run the committed runs that run starts from.
	dir=$work
	if [ ! -d "$work/runs" ]; then
		dir=$committed
		echo "paper-sweep: $work holds no runs yet; the committed runs of results/$SCALE:"
	fi
	# The repository's code, which may be newer than the running sweep's
	# binary: built here unless CCN names one (compute-queue.sh builds once).
	bin=${CCN:-}
	if [ -z "$bin" ]; then
		bin=$(mktemp -d)/ccn
		(cd "$repo" && go build -o "$bin" ./cmd/ccn)
	fi
	mkdir -p "$dir"
	for s in $STUDIES; do
		"$bin" sweep "$configs/$s.yaml" --scale "$SCALE" --out "$dir" --status -j "$JOBS"
	done
	[ -n "${CCN:-}" ] || rm -rf "$(dirname "$bin")"
}

case $cmd in
run) run ;;
commit) commit ;;
status) status ;;
*)
	echo "usage: scripts/paper-sweep.sh run|commit|status [WORK]" >&2
	exit 2
	;;
esac
