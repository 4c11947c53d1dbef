#!/bin/sh
# The profile of the profile-guided build (docs/performance.md, "The
# profile-guided build"): CPU profiles of `ccn run` on the configurations
# whose speed the docs state (trace patterning's side-by-side three in both
# engines; at 275 inputs, breakout, every method of the Atari studies at the
# paper's Atari settings), merged into cmd/ccn/default.pgo, which `go build`
# and `make build` apply by default (-pgo=auto).
#
#   scripts/pgo-profile.sh      writes cmd/ccn/default.pgo (about a minute)
#
# The runs use a lane binary built without a profile (-pgo=off), so that a
# new profile does not depend on the old one. The profile changes which
# calls are inlined and how code is laid out, never a result: the runs of
# a build with and without it are bitwise the same (the check is in
# docs/performance.md).
set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$repo"
GOEXPERIMENT=simd go build -pgo=off -o "$tmp/ccn" ./cmd/ccn

tp="--env trace-patterning --steps 1000000"
col7="--method columnar --features 7 --features-per-stage 7 --step-size 3e-4 --epsilon 0.01 --norm-decay 0.99999"
ccn20="--method ccn --features 20 --features-per-stage 4 --steps-per-stage 200000 --step-size 3e-4 --epsilon 0.01 --norm-decay 0.99999"
tbptt4="--method tbptt --hidden 4 --truncation 15 --step-size 1e-3"
atari="--env breakout --steps 200000 --lambda 0.99 --gamma 0.98 --step-size 1e-4"
norm="--epsilon 0.001 --norm-decay 0.999998"
i=0
while read -r args; do
	i=$((i + 1))
	echo "pgo-profile: ccn run $args" >&2
	# shellcheck disable=SC2086 # args are words
	"$tmp/ccn" run --no-gate --out "$tmp/run$i" --cpuprofile "$tmp/$i.prof" $args >/dev/null 2>"$tmp/$i.log" ||
		{ cat "$tmp/$i.log" >&2; exit 1; }
done <<LIST
$tp $col7 --float32
$tp $ccn20 --float32
$tp $tbptt4 --float32
$tp $col7
$tp $ccn20
$tp $tbptt4
$atari --method ccn --features 15 --features-per-stage 5 --steps-per-stage 66666 $norm
$atari --method columnar --features 6 --features-per-stage 6 $norm
$atari --method constructive --features 10 --features-per-stage 1 --steps-per-stage 20000 $norm
$atari --method tbptt --hidden 7 --truncation 5
$atari --method linear $norm
LIST
go tool pprof -proto "$tmp"/*.prof >"$tmp/default.pgo"
mv "$tmp/default.pgo" cmd/ccn/default.pgo
echo "pgo-profile: wrote cmd/ccn/default.pgo" >&2
