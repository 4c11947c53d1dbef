#!/bin/sh
# Estimates the CPU time of a scale of the experiment files before running it
# (docs/running-at-scale.md, "How long it takes").
#
#   scripts/scale-cost.sh SCALE [STUDY.yaml ...]   (default: every file of
#                                                  experiments/configs)
#
# Every configuration the sweep would run is timed once (its first seed) on a
# tenth of its steps (1/DIVISOR with DIVISOR set in the environment, e.g.
# DIVISOR=100 for the long runs of the medium scale) without the gradient
# gate, steps-per-stage (unless auto), stage-min, stage-max and stage-window
# scaled alike so that the stage schedule is the same,
# and once for one step with the gate; a run costs ten (DIVISOR) times the
# first plus the second. A study's cost is the sum
# over its runs; a run an earlier study lists too (the same run directory) is
# counted there only. The final runs of a tuned group are not known before its
# sweep: they are counted as final-seeds runs at the mean cost of its
# candidates (groups of one method in a study are assumed to have as many
# candidates each, as in every file here), times final-steps/steps when the
# scale's final runs are longer.
#
# Prints one line per configuration (runs, CPU seconds per run, the ccn run
# arguments) and a total per study. Uses bin/ccn (make build; CCN overrides)
# and /usr/bin/time. Exits 2 on bad usage.
set -eu
if [ $# -lt 1 ]; then
	echo "usage: scripts/scale-cost.sh SCALE [STUDY.yaml ...]" >&2
	exit 2
fi
scale=$1
shift
repo=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || set -- "$repo"/experiments/configs/*.yaml
ccn=${CCN:-$repo/bin/ccn}
divisor=${DIVISOR:-10}
[ -x "$ccn" ] || { echo "scale-cost: $ccn is not built (make build)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/seen"
total=0
i=0
for f in "$@"; do
	i=$((i + 1))
	"$ccn" sweep "$f" --scale "$scale" --out "$tmp/plan$i" --emit-tasks "$tmp/tasks" >/dev/null
	plan=$(ls "$tmp/plan$i"/plans/*.json)
	finals=$(jq '.final_seeds | length' "$plan")
	# method, candidates and final/sweep steps per group, for the tuned groups only
	jq -r '.groups[] | select((.candidates | length) > 1) |
		"\(.candidates[0].config.method) \(.candidates | length) \((.candidates[0].final.steps // .candidates[0].config.steps) / .candidates[0].config.steps)"' "$plan" >"$tmp/tuned"
	# One line per configuration: runs, tuned-group candidates (0 if
	# untuned), the first task. Runs an earlier study listed are left out.
	awk -v seenfile="$tmp/seen" -v tunedfile="$tmp/tuned" '
	  FILENAME == tunedfile { cands[$1] = $2; ratio[$1] = $3; next }
	  FILENAME == seenfile { seen[$0] = 1; next }
	  { id = $NF; sub(/.*\//, "", id) } # the run directory
	  id in seen { next }
	  { print id >>seenfile
	    line = ""; method = ""
	    for (i = 1; i <= NF; i++) {
		if ($i == "--method") method = $(i + 1)
		if ($i == "--seed" || $i == "--out") { i++; continue }
		line = line " " $i }
	    n[line]++
	    if (!(line in first)) { first[line] = $0; c[line] = cands[method] + 0; r[line] = ratio[method] + 0; order[++k] = line } }
	  END { for (j = 1; j <= k; j++) print n[order[j]] "\t" c[order[j]] "\t" r[order[j]] "\t" first[order[j]] }' \
		"$tmp/tuned" "$tmp/seen" "$tmp/tasks" >"$tmp/configs"
	study=0
	while IFS="$(printf '\t')" read -r runs cands ratio cmd; do
		# The tasks name the binary that planned them; time $ccn's runs.
		short=$(echo "$cmd" | awk -v out="$tmp/run" -v d="$divisor" -v ccn="$ccn" '{ $1 = ccn; for (i = 1; i <= NF; i++) {
			if ($i == "--steps" || $i == "--steps-per-stage" || $i == "--stage-min" || $i == "--stage-max" || $i == "--stage-window") {
				if ($(i + 1) != "auto") $(i + 1) = int($(i + 1) / d)
				i++ }
			if ($i == "--out") { $(i + 1) = out; i++ } }
			print }')
		gate=$(echo "$cmd" | awk -v out="$tmp/gate" -v ccn="$ccn" '{ $1 = ccn; for (i = 1; i <= NF; i++) {
			if ($i == "--steps") { $(i + 1) = 1; i++ }
			if ($i == "--out") { $(i + 1) = out; i++ } }
			print }')
		rm -rf "$tmp/run" "$tmp/gate"
		# A run that fails has no cost to measure: stop, naming it and its error
		# (counting it as 0 CPU-s would understate the scale).
		for timed in "cpu:$short --no-gate" "cpu1:$gate"; do
			if ! /usr/bin/time -f "%U %S" -o "$tmp/${timed%%:*}" sh -c "${timed#*:} >/dev/null 2>$tmp/err"; then
				echo "scale-cost: this run failed ($(tail -n 1 "$tmp/err")): ${timed#*:}" >&2
				exit 1
			fi
		done
		per=$(cat "$tmp/cpu" "$tmp/cpu1" | awk -v d="$divisor" 'NR == 1 { s = d * ($1 + $2) } NR == 2 { s += $1 + $2 } END { printf "%.1f", s }')
		# a tuned candidate also stands for 1/cands of its group's final runs,
		# each ratio times as long
		extra=0
		[ "$cands" -gt 0 ] && extra=$(awk -v f="$finals" -v c="$cands" -v r="$ratio" 'BEGIN { print f / c * r }')
		study=$(awk -v s="$study" -v r="$runs" -v e="$extra" -v p="$per" 'BEGIN { printf "%.0f", s + (r + e) * p }')
		args=$(echo "$cmd" | sed 's/ --out .*//; s/^[^ ]* //')
		if [ "$cands" -gt 0 ]; then
			printf '%4d runs + %s finals (in runs of this length)  %7.1f CPU-s each  %s\n' "$runs" "$extra" "$per" "$args"
		else
			printf '%4d runs  %7.1f CPU-s each  %s\n' "$runs" "$per" "$args"
		fi
	done <"$tmp/configs"
	printf '%s: %d CPU-s\n' "$(basename "$f" .yaml)" "$study"
	total=$((total + study))
done
printf 'total at scale %s: %d CPU-s (%.1f CPU-hours)\n' "$scale" "$total" "$(awk -v t="$total" 'BEGIN { print t / 3600 }')"
