package docs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// nameRE matches a backquoted Go name: package.Name or package.Type.Member.
var nameRE = regexp.MustCompile("`([a-z][a-z0-9]*)\\.([A-Za-z_][A-Za-z0-9_]*)(?:\\.([A-Za-z_][A-Za-z0-9_]*))?`")

// decls is what a package declares: top-level names and, per type, its
// methods and struct fields (or interface methods).
type decls struct {
	top     map[string]bool
	members map[string]map[string]bool
	// alias maps a type alias to the type it names (type A = B[float64]:
	// A's members are B's).
	alias map[string]string
}

// moduleDecls parses every non-test Go file under root and returns the
// declarations of each package, keyed by the package directory's base name.
func moduleDecls(t *testing.T, root string) map[string]*decls {
	t.Helper()
	pkgs := map[string]*decls{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		key := filepath.Base(filepath.Dir(path))
		p := pkgs[key]
		if p == nil {
			p = &decls{top: map[string]bool{}, members: map[string]map[string]bool{}, alias: map[string]string{}}
			pkgs[key] = p
		}
		member := func(typ, name string) {
			if p.members[typ] == nil {
				p.members[typ] = map[string]bool{}
			}
			p.members[typ][name] = true
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					p.top[d.Name.Name] = true
					continue
				}
				typ := d.Recv.List[0].Type
				if s, ok := typ.(*ast.StarExpr); ok {
					typ = s.X
				}
				if ix, ok := typ.(*ast.IndexExpr); ok {
					typ = ix.X
				}
				if id, ok := typ.(*ast.Ident); ok {
					member(id.Name, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.ValueSpec:
						for _, n := range s.Names {
							p.top[n.Name] = true
						}
					case *ast.TypeSpec:
						p.top[s.Name.Name] = true
						if s.Assign.IsValid() {
							target := s.Type
							if ix, ok := target.(*ast.IndexExpr); ok {
								target = ix.X
							}
							if id, ok := target.(*ast.Ident); ok {
								p.alias[s.Name.Name] = id.Name
							}
						}
						var fields *ast.FieldList
						switch tt := s.Type.(type) {
						case *ast.StructType:
							fields = tt.Fields
						case *ast.InterfaceType:
							fields = tt.Methods
						}
						if fields != nil {
							for _, fl := range fields.List {
								for _, n := range fl.Names {
									member(s.Name.Name, n.Name)
								}
							}
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// unknownNames returns the Go names in text that refer to a package of pkgs
// but do not exist in it, and how many names of known packages it checked.
// Backquoted words whose first part is not a package (curve.csv) are not
// names.
func unknownNames(text string, pkgs map[string]*decls) (bad []string, checked int) {
	for _, m := range nameRE.FindAllStringSubmatch(text, -1) {
		p, ok := pkgs[m[1]]
		if !ok {
			continue
		}
		checked++
		ok = p.top[m[2]]
		if ok && m[3] != "" {
			typ := m[2]
			if target, isAlias := p.alias[typ]; isAlias {
				typ = target
			}
			ok = p.members[typ][m[3]]
		}
		if !ok {
			bad = append(bad, strings.Trim(m[0], "`"))
		}
	}
	return bad, checked
}

// TestDocNamesExist checks every Go name in README.md, CONTRIBUTING.md and
// docs/*.md against the source.
func TestDocNamesExist(t *testing.T) {
	pkgs := moduleDecls(t, "..")
	total := 0
	for _, md := range pages(t) {
		b, err := os.ReadFile(md)
		if err != nil {
			t.Fatal(err)
		}
		bad, n := unknownNames(string(b), pkgs)
		total += n
		for _, name := range bad {
			t.Errorf("%s names %s, which does not exist in the source", md, name)
		}
	}
	// equations.md alone names dozens of functions: finding few means the
	// pattern stopped matching, not that the docs are right.
	if total < 100 {
		t.Errorf("checked only %d Go names in the docs, want at least 100", total)
	}
}

// TestUnknownNamesFixture proves the check has teeth: a fixture with
// misspelled and missing names must be caught, exactly those.
func TestUnknownNamesFixture(t *testing.T) {
	pkgs := moduleDecls(t, "..")
	b, err := os.ReadFile(filepath.Join("testdata", "names.md"))
	if err != nil {
		t.Fatal(err)
	}
	bad, checked := unknownNames(string(b), pkgs)
	want := []string{"forward.Column.Stepp", "forward.Colum", "td.Agent.Nope", "arch.Network.NoSuchField"}
	slices.Sort(bad)
	slices.Sort(want)
	if !slices.Equal(bad, want) {
		t.Errorf("unknown names in testdata/names.md: got %q, want %q", bad, want)
	}
	if checked != 8 {
		t.Errorf("checked %d names in testdata/names.md, want 8", checked)
	}
}
