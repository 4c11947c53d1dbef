package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
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
	for _, cell := range []string{" column ", " dense ", " columnar ", " constructive ", " ccn "} {
		assert.Contains(t, stdout, cell)
	}
	assert.Contains(t, lines[len(lines)-1], "0 failed")
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
