package docs

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// quoteRE matches a quote marker and the fenced Go block after it:
//
//	<!-- quote FILE -->                 the file after its imports
//	<!-- quote FILE func NAME -->       a function or method declaration
//	<!-- quote FILE row KEY -->         the row of experiments.Settings with Key KEY
var quoteRE = regexp.MustCompile("(?s)<!-- quote (\\S+)(?: (func|row) (\\S+))? -->\\n```go\\n(.*?)```")

// quotes returns, for every marker of doc, the quoted text and what the source
// says, or an error naming a marker whose source cannot be found.
func quotes(root, doc string) (got, want []string, err error) {
	for _, m := range quoteRE.FindAllStringSubmatch(doc, -1) {
		src, err := os.ReadFile(filepath.Join(root, m[1]))
		if err != nil {
			return nil, nil, err
		}
		w, err := quoted(src, m[2], m[3])
		if err != nil {
			return nil, nil, fmt.Errorf("%s %s %s: %w", m[1], m[2], m[3], err)
		}
		got, want = append(got, m[4]), append(want, w)
	}
	return got, want, nil
}

// quoted returns the part of a Go source file that a marker names, as whole
// lines with their common indentation removed and a final newline.
func quoted(src []byte, kind, name string) (string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return "", err
	}
	var from, to token.Pos
	switch kind {
	case "":
		if len(f.Imports) == 0 {
			return "", fmt.Errorf("no imports")
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				from = g.End() + 1
			}
		}
		to = token.Pos(fset.File(f.Pos()).Base() + len(src))
	case "func":
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == name {
				from, to = fd.Pos(), fd.End()
			}
		}
	case "row":
		ast.Inspect(f, func(n ast.Node) bool {
			cl, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			for _, e := range cl.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Key" {
						if v, ok := kv.Value.(*ast.BasicLit); ok && v.Value == strconv.Quote(name) {
							from, to = cl.Pos(), cl.End()+1 // with the row's comma
						}
					}
				}
			}
			return true
		})
	}
	if !from.IsValid() {
		return "", fmt.Errorf("not found")
	}
	base := fset.File(f.Pos()).Base()
	start, end := int(from)-base, int(to)-base
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	lines := strings.Split(strings.Trim(string(src[start:end]), "\n"), "\n")
	indent := ""
	for _, r := range lines[0] {
		if r != '\t' {
			break
		}
		indent += "\t"
	}
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, indent)
	}
	return strings.Join(lines, "\n") + "\n", nil
}

// The code docs/extending.md quotes is the code of the Example tests and the
// settings table, character for character, so the two cannot drift. After
// changing the quoted code, UPDATE_DOCS=1 go test ./docs rewrites the quotes.
func TestExtendingQuotesTheSource(t *testing.T) {
	doc, err := os.ReadFile("extending.md")
	require.NoError(t, err)
	if os.Getenv("UPDATE_DOCS") != "" {
		doc = []byte(quoteRE.ReplaceAllStringFunc(string(doc), func(block string) string {
			m := quoteRE.FindStringSubmatch(block)
			src, err := os.ReadFile(filepath.Join("..", m[1]))
			require.NoError(t, err)
			w, err := quoted(src, m[2], m[3])
			require.NoError(t, err)
			return strings.Replace(block, "```go\n"+m[4]+"```", "```go\n"+w+"```", 1)
		}))
		require.NoError(t, os.WriteFile("extending.md", doc, 0o644))
	}
	got, want, err := quotes("..", string(doc))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(got), 5, "the quotes of docs/extending.md")
	for i := range got {
		assert.Equal(t, want[i], got[i], "quote %d of docs/extending.md", i+1)
	}

	// Teeth: a changed line in a quote, or a marker naming nothing, fails.
	changed := bytes.Replace(doc, []byte("dst[len(l.x)] = 1"), []byte("dst[len(l.x)] = 2"), 1)
	require.NotEqual(t, doc, changed)
	got, want, err = quotes("..", string(changed))
	require.NoError(t, err)
	differ := false
	for i := range got {
		differ = differ || got[i] != want[i]
	}
	assert.True(t, differ)
	_, _, err = quotes("..", "<!-- quote experiments/settings.go row no-such-key -->\n```go\nx\n```")
	assert.Error(t, err)
}
