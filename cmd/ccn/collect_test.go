package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/report"
	"github.com/ccn-go/ccn/sweep"
)

// TestCollectMarkdown: ccn collect --markdown rewrites the generated block of
// a page from the committed results, leaves the rest of the page alone, and
// refuses a page without markers (exit 2, unchanged).
func TestCollectMarkdown(t *testing.T) {
	dir := t.TempDir()
	bare := filepath.Join(dir, "bare.md")
	require.NoError(t, os.WriteFile(bare, []byte("# no block\n"), 0o644))
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, run([]string{"collect", committedResults, "--markdown", bare}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "no generated block")
	assert.Equal(t, "# no block\n", string(mustRead(t, bare)))

	page := filepath.Join(dir, "page.md")
	require.NoError(t, os.WriteFile(page, []byte("before\n<!-- generated:claims:start -->\nstale\n<!-- generated:claims:end -->\nafter\n"), 0o644))
	stdout.Reset()
	require.Equal(t, 0, run([]string{"collect", committedResults, "--markdown", page}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "1 generated blocks rewritten")
	text := string(mustRead(t, page))
	assert.True(t, strings.HasPrefix(text, "before\n") && strings.HasSuffix(text, "<!-- generated:claims:end -->\nafter\n"), text)
	got, err := report.Generated(text, report.ClaimsBlock)
	require.NoError(t, err)
	res, err := sweep.Collect(committedResults)
	require.NoError(t, err)
	var want strings.Builder
	require.NoError(t, report.WriteClaims(&want, res))
	assert.Equal(t, want.String(), got)
	assert.NotContains(t, text, "stale")

	stdout.Reset()
	require.Equal(t, 0, run([]string{"collect", committedResults, "--markdown", page}, &stdout, &stderr))
	assert.Contains(t, stdout.String(), "up to date")
}

// TestCollectMarkdownAtari: the Atari blocks of docs/atari.md read the
// medium scale; results without it fail (exit 1) and leave the page as it
// was.
func TestCollectMarkdownAtari(t *testing.T) {
	page := filepath.Join(t.TempDir(), "atari.md")
	text := "<!-- generated:atari-claims:start -->\nold\n<!-- generated:atari-claims:end -->\n"
	require.NoError(t, os.WriteFile(page, []byte(text), 0o644))
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 1, run([]string{"collect", committedResults, "--markdown", page}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "no plan of atari-main-comparison at scale medium")
	assert.Equal(t, text, string(mustRead(t, page)))
}
