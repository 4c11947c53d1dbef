package main

import (
	"bytes"
	"regexp"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ccn-go/ccn/internal/lanes"
)

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 0, run(args, &stdout, &stderr), "%v", args)
		assert.Empty(t, stderr.String())
		// A test binary is a source build: version (devel); the revision
		// is stamped only into binaries built by go build in a checkout.
		assert.Regexp(t, `^ccn \S+, revision \S+, `+regexp.QuoteMeta(runtime.Version())+", numerics "+regexp.QuoteMeta(lanes.Numerics())+"\n$", stdout.String())
	}
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, run([]string{"version", "extra"}, &stdout, &stderr))
}
