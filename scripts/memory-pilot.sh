#!/bin/sh
# The memory pilot of docs/atari.md: does predicting the pixel games' return
# need memory? On every game, the memoryless control (linear TD(λ) on the
# current observation) against Columnar 6 and T-BPTT 5:7, at the paper's
# Atari settings (α = 1e-4, ε = 0.001, λ = 0.99, γ = 0.98, the games'
# default; error over the final 500,000 steps), 3M steps, seeds 100 and 101.
#
#   scripts/memory-pilot.sh run [WORK]     the 30 runs, JOBS at a time under nice
#   scripts/memory-pilot.sh table [WORK]   the table of docs/atari.md from WORK
#
# WORK (default $HOME/ccn-memory-pilot, outside the repository) holds one run
# directory per game, method and seed (runs/GAME-METHOD-SEED); a complete run
# is not run again. The runs skip the gate (--no-gate): every engine's gate
# passes on these streams (ccn run without --no-gate). A run takes about 1-3
# CPU-minutes. The table's entries are final_error / return_variance of each
# run's summary.json (the error over the best constant's), the mean over the
# seeds with each seed's value in brackets, and the better recurrent
# learner's mean over the control's.
#
# Environment: CCN (bin/ccn), JOBS (2), STEPS (3000000), SEEDS ("100 101").
set -eu

cmd=${1:-}
work=${2:-${HOME:-/tmp}/ccn-memory-pilot}
repo=$(cd "$(dirname "$0")/.." && pwd)
ccn=${CCN:-$repo/bin/ccn}
games="breakout freeway asterix seaquest space-invaders"

case $cmd in
run)
	mkdir -p "$work/runs"
	for s in ${SEEDS:-100 101}; do
		for g in $games; do
			echo "$g-linear-$s --env $g --seed $s --method linear --epsilon 0.001"
			echo "$g-columnar-$s --env $g --seed $s --method columnar --features 6 --epsilon 0.001"
			echo "$g-tbptt-$s --env $g --seed $s --method tbptt --truncation 5 --hidden 7"
		done
	done | CCN=$ccn WORK=$work STEPS=${STEPS:-3000000} xargs -P "${JOBS:-2}" -L 1 sh -c '
		name=$0
		[ -f "$WORK/runs/$name/summary.json" ] && exit 0
		nice -n 10 "$CCN" run "$@" --step-size 1e-4 --lambda 0.99 --steps "$STEPS" --no-gate \
			--out "$WORK/runs/$name" >"$WORK/runs/$name.log" 2>&1'
	;;
table)
	for f in "$work"/runs/*/summary.json; do
		awk '
			{key = $1; gsub(/[",:]/, "", key); val = $2; gsub(/[",]/, "", val)}
			key == "env" {env = val} key == "method" {m = val} key == "seed" {seed = val}
			key == "final_error" {e = val} key == "return_variance" {v = val}
			END {printf "%s %s %s %.17g\n", env, m, seed, e / v}' "$f"
	done | sort | awk -v games="$games" '
		{k = $1 " " $2; n[k]++; sum[k] += $4; each[k] = each[k] (n[k] > 1 ? ", " : "") sprintf("%.3f", $4)}
		function cell(k) { return (k in n) ? sprintf("%.3f (%s)", sum[k] / n[k], each[k]) : "-" }
		END {
			print "| game | linear (control) | Columnar 6 | T-BPTT 5:7 | better recurrent / control |"
			print "|---|---|---|---|---|"
			split(games, g, " ")
			for (i = 1; i in g; i++) {
				l = g[i] " linear"; c = g[i] " columnar"; t = g[i] " tbptt"
				r = "-"
				if ((l in n) && (c in n) && (t in n)) {
					best = sum[c] / n[c]
					if (sum[t] / n[t] < best) best = sum[t] / n[t]
					r = sprintf("%.2f", best / (sum[l] / n[l]))
				}
				printf "| %s | %s | %s | %s | %s |\n", g[i], cell(l), cell(c), cell(t), r
			}
		}'
	;;
*)
	echo "usage: scripts/memory-pilot.sh run|table [WORK]" >&2
	exit 2
	;;
esac
