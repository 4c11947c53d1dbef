package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ccn-go/ccn/compare"
	"github.com/ccn-go/ccn/internal/lanes"
)

func TestVerifySmallSuite(t *testing.T) {
	code, stdout, stderr := runCLI("verify", "--trajectories", "1", "--length", "6", "--network-length", "4", "--seed", "3")
	assert.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	assert.True(t, strings.HasPrefix(lines[0], "engine"), lines[0])
	rows := 0
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "forward") || strings.HasPrefix(l, "backward") {
			rows++
			assert.True(t, strings.HasSuffix(l, "PASS"), l)
		}
	}
	assert.Greater(t, rows, 100, "one row per case")
	for _, cell := range []string{" column ", " dense ", " dense+b_out ", " rtu ", " rtu-linear ", " columnar ", " constructive ", " ccn "} {
		assert.Contains(t, stdout, cell)
	}
	for _, col := range []string{" 0->1 ", " 1->2 ", " 2->3 ", " fast ", " floor ", " run ", " 275 "} {
		assert.Contains(t, stdout, col, "stage changes, moving and run normalization, Atari inputs")
	}
	assert.Contains(t, lines[len(lines)-1], "0 failed")
	// The float32 engine's rows against the float64 engine (compare.Float32Suite).
	assert.Contains(t, stdout, "float32 engine against the float64 engine")
	assert.Contains(t, stdout, "ccn15x5/m275")
	assert.Contains(t, stdout, fmt.Sprintf("%d float32 rows, 0 failed", len(compare.Float32NetCases)+len(compare.Float32TBPTTCases)))
	assert.True(t, strings.HasSuffix(lines[len(lines)-1], "kernels: "+lanes.Path()), lines[len(lines)-1])

	// An auto CCN row (stages 4, 4, 4, 2 on 12 inputs) shows the whole
	// network's parameters and the range of its stages' learnable vectors
	// (compare.TestCaseParamsChecked has the arithmetic).
	assert.Contains(t, lines[0], " params  checked ")
	auto := 0
	for _, l := range lines {
		if f := strings.Fields(l); len(f) > 9 && f[1] == "ccn" && f[4] == "auto" {
			assert.Equal(t, []string{"1087", "223-365"}, f[8:10], l)
			auto++
		}
	}
	assert.Positive(t, auto, "auto CCN rows")
}

// With a mistake injected, the cases whose engine makes it FAIL and verify
// exits 1; the others still pass.
func TestVerifyInject(t *testing.T) {
	code, stdout, stderr := runCLI("verify", "--inject", "drop-forget-path", "--suite", "cells", "--trajectories", "1", "--length", "6")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "disagree with the reference (with drop-forget-path injected)")
	assert.Contains(t, stdout, "injected: drop-forget-path")
	fails, passes := 0, 0
	for _, l := range strings.Split(stdout, "\n") {
		switch {
		case strings.HasPrefix(l, "backward") && strings.Contains(l, "FAIL"):
			fails++
		case strings.HasPrefix(l, "forward"):
			assert.True(t, strings.HasSuffix(l, "PASS"), "forward engines have no forget path to drop: %s", l)
			passes++
		}
	}
	assert.Positive(t, fails, "T-BPTT rows fail")
	assert.Positive(t, passes)

	code, stdout, stderr = runCLI("verify", "--inject", "nonsense")
	assert.Equal(t, 2, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "drop-recurrent-term")
}

func TestVerifyBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"verify", "--suite", "everything"},
		{"verify", "--length", "0"},
		{"verify", "--trajectories", "x"},
		{"verify", "extra"},
	} {
		code, stdout, stderr := runCLI(args...)
		assert.Equal(t, 2, code, "%v", args)
		assert.Empty(t, stdout, "%v", args)
		assert.NotEmpty(t, stderr, "%v", args)
	}
}
