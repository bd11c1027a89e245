package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// sourceIndex reads the Go source of the packages the types come from, for what reflection cannot
// see: the comment markers (+listType=map …), doc comments, and the constants of +enum types.
type sourceIndex struct {
	packages map[string]*packageSource
}

type packageSource struct {
	typeDocs  map[string][]string            // type → doc comment lines
	fieldDocs map[string]map[string][]string // type → Go field → doc comment lines
	constants map[string][]enumConstant      // type → its constants
}

type enumConstant struct {
	value string
	doc   string
}

func newSourceIndex() *sourceIndex { return &sourceIndex{packages: map[string]*packageSource{}} }

func (s *sourceIndex) pkg(path string) *packageSource {
	if p, ok := s.packages[path]; ok {
		return p
	}
	p := &packageSource{typeDocs: map[string][]string{}, fieldDocs: map[string]map[string][]string{}, constants: map[string][]enumConstant{}}
	s.packages[path] = p
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", path).Output()
	if err != nil {
		panic("go list " + path + ": " + err.Error())
	}
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, strings.TrimSpace(string(out)), func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, parser.ParseComments)
	if err != nil {
		panic(err)
	}
	for _, astPkg := range pkgs {
		for _, file := range astPkg.Files {
			for _, decl := range file.Decls {
				gen, ok := decl.(*ast.GenDecl)
				if !ok {
					continue
				}
				for _, spec := range gen.Specs {
					switch sp := spec.(type) {
					case *ast.TypeSpec:
						doc := sp.Doc
						if doc == nil {
							doc = gen.Doc
						}
						p.typeDocs[sp.Name.Name] = commentLines(doc)
						if st, ok := sp.Type.(*ast.StructType); ok {
							fields := map[string][]string{}
							for _, f := range st.Fields.List {
								for _, n := range f.Names {
									fields[n.Name] = commentLines(f.Doc)
								}
							}
							p.fieldDocs[sp.Name.Name] = fields
						}
					case *ast.ValueSpec:
						if gen.Tok != token.CONST || sp.Type == nil || len(sp.Values) != 1 {
							continue
						}
						ident, ok := sp.Type.(*ast.Ident)
						lit, isLit := sp.Values[0].(*ast.BasicLit)
						if !ok || !isLit || lit.Kind != token.STRING {
							continue
						}
						value, _ := strconv.Unquote(lit.Value)
						doc := strings.Join(prose(commentLines(sp.Doc)), " ")
						// "PullAlways means …" is listed as "`\"Always\"` means …".
						doc = strings.TrimPrefix(doc, sp.Names[0].Name+" ")
						p.constants[ident.Name] = append(p.constants[ident.Name], enumConstant{value: value, doc: doc})
					}
				}
			}
		}
	}
	for _, cs := range p.constants {
		sort.Slice(cs, func(i, j int) bool { return cs[i].value < cs[j].value })
	}
	return p
}

func commentLines(group *ast.CommentGroup) []string {
	if group == nil {
		return nil
	}
	lines := []string{}
	for _, c := range group.List {
		text := strings.TrimPrefix(c.Text, "//")
		text = strings.TrimPrefix(text, " ")
		lines = append(lines, text)
	}
	return lines
}

// prose drops marker lines and everything after a "---" line, as kube-openapi does.
func prose(lines []string) []string {
	out := []string{}
	for _, l := range lines {
		trimmed := strings.TrimSpace(l)
		if trimmed == "---" {
			break
		}
		if strings.HasPrefix(trimmed, "+") || strings.HasPrefix(trimmed, "TODO") {
			continue
		}
		out = append(out, trimmed)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// description joins doc lines the way kube-openapi does: lines of a paragraph with spaces,
// paragraphs with a blank line, list items on their own lines.
func description(lines []string) string {
	var b strings.Builder
	for i, l := range prose(lines) {
		switch {
		case i == 0:
		case l == "":
			b.WriteString("\n\n")
			continue
		case strings.HasPrefix(l, "-") || strings.HasPrefix(l, "*"):
			b.WriteString("\n")
		default:
			if s := b.String(); !strings.HasSuffix(s, "\n") {
				b.WriteString(" ")
			}
		}
		b.WriteString(l)
	}
	return strings.TrimSpace(b.String())
}

func markers(lines []string) map[string]string {
	m := map[string]string{}
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "+") {
			continue
		}
		key, value, _ := strings.Cut(l[1:], "=")
		if _, seen := m[key]; !seen {
			m[key] = value
		}
	}
	return m
}

func (s *sourceIndex) typeMarkers(t reflect.Type) map[string]string {
	return markers(s.pkg(t.PkgPath()).typeDocs[t.Name()])
}

func (s *sourceIndex) fieldMarkers(t reflect.Type, field string) map[string]string {
	return markers(s.pkg(t.PkgPath()).fieldDocs[t.Name()][field])
}

// fieldMarkerList is every value of a marker that may repeat (+listMapKey=a, +listMapKey=b).
func (s *sourceIndex) fieldMarkerList(t reflect.Type, field, key string) []string {
	values := []string{}
	for _, l := range s.pkg(t.PkgPath()).fieldDocs[t.Name()][field] {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "+"+key+"="); ok {
			values = append(values, v)
		}
	}
	return values
}

// commentDocs is SwaggerDoc's map built from the doc comments, for packages without SwaggerDoc.
func (s *sourceIndex) commentDocs(t reflect.Type) map[string]string {
	p := s.pkg(t.PkgPath())
	docs := map[string]string{"": description(p.typeDocs[t.Name()])}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		if d := description(p.fieldDocs[t.Name()][f.Name]); d != "" {
			docs[name] = d
		}
	}
	return docs
}

func (s *sourceIndex) isEnum(t reflect.Type) bool {
	_, ok := s.typeMarkers(t)["enum"]
	return ok
}

func (s *sourceIndex) enumConstants(t reflect.Type) []enumConstant {
	return s.pkg(t.PkgPath()).constants[t.Name()]
}
