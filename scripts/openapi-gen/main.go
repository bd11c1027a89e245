// Command openapi-gen writes the OpenAPI definitions of the built-in kinds the simulated cluster
// serves, the way kube-openapi names and shapes them (io.k8s.api.apps.v1.Deployment …), from the
// Go types of k8s.io/api, k8s.io/apimachinery and k8s.io/apiextensions-apiserver:
//
//   - the shape (properties, types, required) by reflection over the structs and their json tags;
//   - descriptions from each type's SwaggerDoc() (types_swagger_doc_generated.go), or from the Go
//     doc comments where a package has none (apiextensions);
//   - x-kubernetes-patch-strategy / -patch-merge-key from the struct tags, and the markers that
//     only live in comments (+listType, +listMapKey, +mapType, +structType, +enum, +default,
//     +optional) from the package source, read with go/parser.
//
// Output: JSON on stdout, {version, definitions (Swagger 2.0), v3 (what differs in OpenAPI v3)}.
// Run through `npm run generate:openapi`, which compresses it into src/sim/openapi/.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
)

// Definition is one schema under #/definitions, kept as an ordered-by-marshal map.
type Definition = map[string]any

type generator struct {
	definitions map[string]Definition
	// v3: what OpenAPI v3 documents say differently: oneOf types of special scalars, and the
	// zero defaults kube-openapi writes for required non-pointer fields and struct fields.
	v3OneOf    map[string][]string
	v3Defaults map[string]map[string]any
	sources    *sourceIndex
}

func main() {
	g := &generator{
		definitions: map[string]Definition{},
		v3OneOf:     map[string][]string{},
		v3Defaults:  map[string]map[string]any{},
		sources:     newSourceIndex(),
	}
	allGroupVersions := []map[string]string{}
	seenGV := map[string]bool{}
	for _, root := range readRoots() {
		name := g.define(root.typ)
		gvk := map[string]string{"group": root.group, "version": root.version, "kind": root.kind}
		g.definitions[name]["x-kubernetes-group-version-kind"] = []map[string]string{gvk}
		if !seenGV[root.group+"/"+root.version] {
			seenGV[root.group+"/"+root.version] = true
			allGroupVersions = append(allGroupVersions, map[string]string{"group": root.group, "version": root.version})
		}
	}
	for _, t := range untagged {
		g.define(t)
	}
	// DeleteOptions and WatchEvent are sent to every group version, as kube-apiserver lists them.
	sort.Slice(allGroupVersions, func(i, j int) bool {
		a, b := allGroupVersions[i], allGroupVersions[j]
		if a["group"] != b["group"] {
			return a["group"] < b["group"]
		}
		return a["version"] < b["version"]
	})
	for _, kind := range []string{"DeleteOptions", "WatchEvent"} {
		gvks := []map[string]string{}
		for _, gv := range allGroupVersions {
			gvks = append(gvks, map[string]string{"group": gv["group"], "version": gv["version"], "kind": kind})
		}
		g.definitions["io.k8s.apimachinery.pkg.apis.meta.v1."+kind]["x-kubernetes-group-version-kind"] = gvks
	}
	out := map[string]any{
		"version":     apiVersion,
		"definitions": g.definitions,
		"v3":          map[string]any{"oneOf": g.v3OneOf, "defaults": g.v3Defaults},
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// definitionName is kube-openapi's: the package path with its host reversed (k8s.io/api/apps/v1 →
// io.k8s.api.apps.v1), then the type name.
func definitionName(t reflect.Type) string {
	path := t.PkgPath()
	host, rest, _ := strings.Cut(path, "/")
	parts := strings.Split(host, ".")
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ".") + "." + strings.ReplaceAll(rest, "/", ".") + "." + t.Name()
}

type openAPITyped interface {
	OpenAPISchemaType() []string
	OpenAPISchemaFormat() string
}

type openAPIV3OneOf interface{ OpenAPIV3OneOfTypes() []string }

type swaggerDoc interface{ SwaggerDoc() map[string]string }

// define adds the definition of a named struct (and of every type it reaches) and returns its name.
func (g *generator) define(t reflect.Type) string {
	name := definitionName(t)
	if _, done := g.definitions[name]; done {
		return name
	}
	def := Definition{}
	g.definitions[name] = def
	docs := g.docsOf(t)
	if d := docs[""]; d != "" {
		def["description"] = d
	}
	zero := reflect.New(t).Elem().Interface()
	if typed, ok := zero.(openAPITyped); ok {
		if types := typed.OpenAPISchemaType(); len(types) > 0 {
			def["type"] = types[0]
		}
		if f := typed.OpenAPISchemaFormat(); f != "" {
			def["format"] = f
		}
		if oneOf, ok := zero.(openAPIV3OneOf); ok {
			g.v3OneOf[name] = oneOf.OpenAPIV3OneOfTypes()
		}
		return name
	}
	properties := map[string]any{}
	required := []string{}
	g.addFields(t, name, properties, &required, docs)
	def["type"] = "object"
	if len(properties) > 0 {
		def["properties"] = properties
	}
	if len(required) > 0 {
		sort.Strings(required)
		def["required"] = required
	}
	if m := g.sources.typeMarkers(t); m["structType"] == "atomic" {
		def["x-kubernetes-map-type"] = "atomic"
	} else if m["structType"] == "granular" {
		def["x-kubernetes-map-type"] = "granular"
	}
	return name
}

func (g *generator) docsOf(t reflect.Type) map[string]string {
	if d, ok := reflect.New(t).Elem().Interface().(swaggerDoc); ok {
		return d.SwaggerDoc()
	}
	return g.sources.commentDocs(t)
}

// addFields adds t's JSON fields, inlined embedded structs included, to properties.
func (g *generator) addFields(t reflect.Type, defName string, properties map[string]any, required *[]string, docs map[string]string) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		jsonName, options, _ := strings.Cut(tag, ",")
		if jsonName == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		inline := strings.Contains(options, "inline") || (f.Anonymous && jsonName == "")
		if inline {
			inner := f.Type
			if inner.Kind() == reflect.Pointer {
				inner = inner.Elem()
			}
			g.addFields(inner, defName, properties, required, g.docsOf(inner))
			continue
		}
		if jsonName == "" {
			jsonName = f.Name
		}
		markers := g.sources.fieldMarkers(t, f.Name)
		prop := g.schemaOf(f.Type, markers)
		if d := docs[jsonName]; d != "" {
			prop["description"] = g.withEnumValues(d, f.Type)
		} else if enum := g.enumDescription(f.Type); enum != "" {
			prop["description"] = strings.TrimPrefix(enum, "\n\n")
		}
		if v, ok := markers["default"]; ok {
			var value any
			if json.Unmarshal([]byte(v), &value) == nil {
				prop["default"] = value
			}
		}
		if s := f.Tag.Get("patchStrategy"); s != "" {
			prop["x-kubernetes-patch-strategy"] = s
		}
		if k := f.Tag.Get("patchMergeKey"); k != "" {
			prop["x-kubernetes-patch-merge-key"] = k
		}
		if lt := markers["listType"]; lt != "" {
			prop["x-kubernetes-list-type"] = lt
		}
		if keys := g.sources.fieldMarkerList(t, f.Name, "listMapKey"); len(keys) > 0 {
			prop["x-kubernetes-list-map-keys"] = keys
		}
		if mt := markers["mapType"]; mt != "" {
			prop["x-kubernetes-map-type"] = mt
		}
		_, optionalMarker := markers["optional"]
		isRequired := !strings.Contains(options, "omitempty") && !optionalMarker
		if isRequired {
			*required = append(*required, jsonName)
		}
		g.noteV3Default(defName, jsonName, f.Type, isRequired, prop)
		properties[jsonName] = prop
	}
}

// noteV3Default records the defaults kube-openapi's v3 output carries and its v2 output does not:
// {} for a non-pointer struct, the zero value for a required non-pointer scalar.
func (g *generator) noteV3Default(defName, field string, t reflect.Type, required bool, prop map[string]any) {
	if _, has := prop["default"]; has {
		return
	}
	var zero any
	switch {
	case t.Kind() == reflect.Struct:
		if _, special := reflect.New(t).Elem().Interface().(openAPITyped); special {
			return
		}
		zero = map[string]any{}
	case !required:
		return
	case t.Kind() == reflect.String:
		zero = ""
	case t.Kind() == reflect.Bool:
		zero = false
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Float64:
		zero = 0
	default:
		return
	}
	if g.v3Defaults[defName] == nil {
		g.v3Defaults[defName] = map[string]any{}
	}
	g.v3Defaults[defName][field] = zero
}

// schemaOf is the schema of a field's type: a $ref for named structs, inline for the rest.
func (g *generator) schemaOf(t reflect.Type, markers map[string]string) map[string]any {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		return map[string]any{"$ref": "#/definitions/" + g.define(t)}
	case reflect.String:
		s := map[string]any{"type": "string"}
		if values := g.enumValues(t); len(values) > 0 {
			s["enum"] = values
		}
		return s
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int32, reflect.Uint32, reflect.Int16, reflect.Uint16, reflect.Int8, reflect.Uint8:
		return map[string]any{"type": "integer", "format": "int32"}
	case reflect.Int64, reflect.Uint64, reflect.Int, reflect.Uint:
		return map[string]any{"type": "integer", "format": "int64"}
	case reflect.Float64, reflect.Float32:
		return map[string]any{"type": "number", "format": "double"}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": "string", "format": "byte"}
		}
		return map[string]any{"type": "array", "items": g.schemaOf(t.Elem(), nil)}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": g.schemaOf(t.Elem(), nil)}
	case reflect.Interface:
		return map[string]any{"type": "object"}
	}
	panic(fmt.Sprintf("no schema for %s", t))
}

func (g *generator) enumValues(t reflect.Type) []string {
	if t.PkgPath() == "" || !g.sources.isEnum(t) {
		return nil
	}
	values := []string{}
	for _, c := range g.sources.enumConstants(t) {
		values = append(values, c.value)
	}
	return values
}

// enumDescription is the "Possible enum values" paragraph kube-openapi appends for +enum types.
func (g *generator) enumDescription(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.String || t.PkgPath() == "" || !g.sources.isEnum(t) {
		return ""
	}
	lines := []string{"Possible enum values:"}
	for _, c := range g.sources.enumConstants(t) {
		line := fmt.Sprintf(" - `%q`", c.value)
		if c.doc != "" {
			line += " " + c.doc
		}
		lines = append(lines, line)
	}
	return "\n\n" + strings.Join(lines, "\n")
}

func (g *generator) withEnumValues(description string, t reflect.Type) string {
	return description + g.enumDescription(t)
}
