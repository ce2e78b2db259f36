package evolve

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/hamba/avro/v2"

	"github.com/serbench/serbench/evolve/change"
)

// avroFormat reads and writes a case's versions with Avro schemas made
// from them (avroSchema), values as map[string]any. resolve reads with the
// writer's and the reader's schemas through hamba/avro's schema
// resolution; without it the reader decodes with its own schema alone, as
// a reader that was not told the writer's does.
type avroFormat struct{ resolve bool }

// avroSchemas caches the parsed schema of each version of each case.
var avroSchemas sync.Map // case name + "/" + version name -> avro.Schema

// AvroSchema returns the Avro schema of version v of case c, as JSON.
func AvroSchema(c *change.Case, v change.Version) string {
	var fields []map[string]any
	for _, f := range v.Fields {
		fd := map[string]any{"name": f.Name, "type": avroType(f)}
		switch {
		case f.Optional || f.Oneof != "":
			fd["type"] = []any{"null", avroType(f)}
			fd["default"] = nil
		case f.Default != nil:
			fd["default"] = f.Default
		}
		if f.Key() != f.Name {
			fd["aliases"] = []string{f.Key()}
		}
		fields = append(fields, fd)
	}
	b, _ := json.Marshal(map[string]any{"type": "record", "name": change.TypeName(c.Name), "fields": fields})
	return string(b)
}

// avroType is the Avro type of a field.
func avroType(f change.Field) any {
	switch f.Kind {
	case change.Int32, change.Sint32, change.Uint32:
		return "int"
	case change.Int64:
		return "long"
	case change.Double:
		return "double"
	case change.String:
		return "string"
	case change.Bytes:
		return "bytes"
	case change.Bool:
		return "boolean"
	case change.Strings:
		return map[string]any{"type": "array", "items": "string"}
	case change.Int32s:
		return map[string]any{"type": "array", "items": "int"}
	case change.Map:
		return map[string]any{"type": "map", "values": "long"}
	case change.Pairs:
		return map[string]any{"type": "array", "items": map[string]any{"type": "record", "name": "Pair",
			"fields": []any{map[string]any{"name": "key", "type": "string"}, map[string]any{"name": "value", "type": "long"}}}}
	case change.Nested:
		return map[string]any{"type": "record", "name": "Inner",
			"fields": []any{map[string]any{"name": "id", "type": "long"}, map[string]any{"name": "tag", "type": "string"}}}
	case change.Enum:
		return map[string]any{"type": "enum", "name": change.CamelCase(f.Name), "symbols": f.Symbols}
	}
	panic("evolve: no Avro type for " + string(f.Kind))
}

// schemaOf returns the parsed schema of version v of case c.
func schemaOf(c *change.Case, v change.Version) (avro.Schema, error) {
	key := c.Name + "/" + v.Name
	if s, ok := avroSchemas.Load(key); ok {
		return s.(avro.Schema), nil
	}
	s, err := avro.Parse(AvroSchema(c, v))
	if err != nil {
		return nil, fmt.Errorf("evolve: the Avro schema of %s %s: %w", c.Name, v.Name, err)
	}
	avroSchemas.Store(key, s)
	return s, nil
}

// AvroCompat returns the schema-registry compatibility mode the change of
// case c satisfies, by hamba/avro's check: FULL, BACKWARD (a new reader
// reads old data), FORWARD (an old reader reads new data) or NONE.
func AvroCompat(c *change.Case) string {
	old, err1 := schemaOf(c, c.Old)
	nw, err2 := schemaOf(c, c.New)
	if err1 != nil || err2 != nil {
		return ""
	}
	compat := avro.NewSchemaCompatibility()
	back := compat.Compatible(nw, old) == nil
	fwd := compat.Compatible(old, nw) == nil
	switch {
	case back && fwd:
		return "FULL"
	case back:
		return "BACKWARD"
	case fwd:
		return "FORWARD"
	}
	return "NONE"
}

func (f avroFormat) encode(c *change.Case, w change.Version) ([]byte, error) {
	s, err := schemaOf(c, w)
	if err != nil {
		return nil, err
	}
	m := map[string]any{}
	for _, fd := range w.Fields {
		v, ok := w.Data[fd.Key()]
		switch {
		case ok:
			m[fd.Name] = toAvro(fd, v)
		case fd.Optional || fd.Oneof != "":
			m[fd.Name] = nil
		case fd.Default != nil:
			m[fd.Name] = toAvro(fd, change.Canonical(fd.Kind, fd.Default))
		default:
			m[fd.Name] = toAvro(fd, change.Zero(fd.Kind))
		}
	}
	return avro.Marshal(s, m)
}

// toAvro returns the canonical value v of field f as hamba/avro encodes it
// from a map[string]any.
func toAvro(f change.Field, v any) any {
	switch x := v.(type) {
	case int64:
		switch f.Kind {
		case change.Enum:
			return f.Symbols[x]
		case change.Int32, change.Sint32:
			return int(x)
		}
	case uint64:
		return int(x)
	case []int64:
		out := make([]any, len(x))
		for i, n := range x {
			out[i] = int(n)
		}
		return out
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out
	case map[string]int64:
		out := map[string]any{}
		for k, n := range x {
			out[k] = n
		}
		return out
	case []change.Pair:
		out := make([]any, len(x))
		for i, p := range x {
			out[i] = map[string]any{"key": p.Key, "value": p.Value}
		}
		return out
	case change.Inner:
		return map[string]any{"id": x.ID, "tag": x.Tag}
	}
	return v
}

func (f avroFormat) decode(c *change.Case, w, r change.Version, data []byte) (any, error) {
	rs, err := schemaOf(c, r)
	if err != nil {
		return nil, err
	}
	s := rs
	if f.resolve {
		ws, err := schemaOf(c, w)
		if err != nil {
			return nil, err
		}
		s, err = avro.NewSchemaCompatibility().Resolve(rs, ws)
		if err != nil {
			return nil, fmt.Errorf("schema resolution: %w", err)
		}
	}
	m := map[string]any{}
	err = avro.Unmarshal(s, data, &m)
	return m, err
}

func (f avroFormat) reencode(c *change.Case, r change.Version, native any) ([]byte, error) {
	s, err := schemaOf(c, r)
	if err != nil {
		return nil, err
	}
	return avro.Marshal(s, native)
}

func (f avroFormat) record(_ *change.Case, r change.Version, native any) (change.Record, error) {
	m := native.(map[string]any)
	rec := change.Record{}
	for _, fd := range r.Fields {
		v, err := fromAvro(fd, m[fd.Name])
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", fd.Name, err)
		}
		rec[fd.Key()] = v
	}
	return rec, nil
}

// fromAvro returns what hamba/avro decoded for field f as its canonical
// value.
func fromAvro(f change.Field, v any) (any, error) {
	if v == nil {
		return change.Zero(f.Kind), nil
	}
	if u, ok := v.(map[string]any); ok && len(u) == 1 && f.Kind != change.Map && f.Kind != change.Nested {
		for _, x := range u { // a union's branch, keyed by its type
			v = x
		}
	}
	switch f.Kind {
	case change.Enum:
		s, _ := v.(string)
		i := slices.Index(f.Symbols, s)
		if i < 0 {
			return nil, fmt.Errorf("enum symbol %q is not the reader's", s)
		}
		return int64(i), nil
	case change.Strings:
		var out []string
		for _, x := range v.([]any) {
			out = append(out, fmt.Sprint(x))
		}
		return change.Canonical(f.Kind, out), nil
	case change.Int32s:
		var out []int64
		for _, x := range v.([]any) {
			n, _ := change.Canonical(change.Int64, x).(int64)
			out = append(out, n)
		}
		return change.Canonical(f.Kind, out), nil
	case change.Map:
		out := map[string]int64{}
		for k, x := range v.(map[string]any) {
			out[k], _ = x.(int64)
		}
		return change.Canonical(f.Kind, out), nil
	case change.Pairs:
		var out []change.Pair
		for _, x := range v.([]any) {
			e := x.(map[string]any)
			k, _ := e["key"].(string)
			n, _ := e["value"].(int64)
			out = append(out, change.Pair{Key: k, Value: n})
		}
		return change.Canonical(f.Kind, out), nil
	case change.Nested:
		e := v.(map[string]any)
		id, _ := e["id"].(int64)
		tag, _ := e["tag"].(string)
		return change.Inner{ID: id, Tag: tag}, nil
	}
	v = change.Canonical(f.Kind, v)
	if n, ok := v.(int64); ok && f.Kind == change.Uint32 {
		return uint64(uint32(n)), nil
	}
	return v, nil
}
