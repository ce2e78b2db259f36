package cli

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fxamacker/cbor/v2"
	"github.com/vmihailenco/msgpack/v5"
	"go.yaml.in/yaml/v4"

	"github.com/serbench/serbench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/worker"
)

// A sample is the user's document (run -file), loaded as generic values:
// measured in place of the datasets, with every codec that can hold it,
// in this process (a worker process rebuilds registered datasets only).
type sample struct {
	doc    results.Document
	label  string // the dataset name of its results: the file's base name
	value  any    // *map[string]any or *[]any
	alt    any    // the second document's value, of value's type; nil: none
	codecs []string
	// accepted holds the losses -accept allows, beside interface-types,
	// which every codec shows on generic values.
	accepted []codec.Loss
}

// The formats a sample may be in, by file extension.
var sampleFormats = map[string]string{
	".json": "JSON", ".jsonl": "JSON lines", ".ndjson": "JSON lines",
	".yaml": "YAML", ".yml": "YAML", ".cbor": "CBOR", ".msgpack": "MessagePack", ".mpk": "MessagePack",
}

// useSample makes the run measure the document of -file, with the codecs
// named (all that can hold it when none), in this process. The flag
// names one file, or two separated by a comma: the second, of the same
// kind (an object or an array) and distinct, is the message the decode
// benchmark alternates with the first. With one file the first is the
// only message: serbench never makes up a second one from it.
func (c *runConfig) useSample(spec string, codecs []string, stderr io.Writer) error {
	paths := strings.Split(spec, ",")
	if len(paths) > 2 || slices.Contains(paths, "") {
		return usagef("-file %s: give one document, or two separated by a comma (-file a.json,b.json): the second is the message decode alternates with the first", spec)
	}
	s, err := loadSample(paths[0])
	if err != nil {
		return err
	}
	if len(paths) == 2 {
		second, err := loadSample(paths[1])
		if err != nil {
			return err
		}
		switch {
		case reflect.TypeOf(second.value) != reflect.TypeOf(s.value):
			return usagef("-file %s: %s is %s and %s is %s: give two documents of the same kind", spec, paths[0], kindOfValue(s.value), paths[1], kindOfValue(second.value))
		case reflect.DeepEqual(second.value, s.value):
			return usagef("-file %s: %s holds the same values as %s: give a distinct second document, or the first alone", spec, paths[1], paths[0])
		}
		s.alt, s.doc.Second = second.value, second.doc.File
	}
	s.codecs = codecs
	c.sample, c.inproc = s, true
	hint := ""
	if s.alt == nil {
		hint = " (-file a.json,b.json gives a second message for decode to alternate with)"
	}
	fmt.Fprintf(stderr, "serbench: measuring %s as generic values (maps and lists of any), in this process%s\n", &s.doc, hint)
	return nil
}

// kindOfValue names the kind of a sample's value: "an object" or "an array".
func kindOfValue(v any) string {
	if _, ok := v.(*[]any); ok {
		return "an array"
	}
	return "an object"
}

// jobs returns the run's jobs: its sample's if it has one, else its
// selection's.
func (c *runConfig) jobs() ([]runner.Job, error) {
	if c.sample == nil {
		return c.sel.Jobs()
	}
	if err := c.sel.Validate(); err != nil { // -codecs and -ops
		return nil, err
	}
	second := serbench.NoAlt() // never a message the user did not write
	if c.sample.alt != nil {
		second = serbench.WithAlt(c.sample.alt)
	}
	return serbench.Jobs(c.sample.value, second,
		serbench.Name(c.sample.label), serbench.Codecs(c.sample.codecs...), serbench.Ops(c.sel.Ops...),
		// Generic values come back typed by each codec's decoder: JSON's
		// numbers as float64, YAML's integers as int, MessagePack's maps
		// as map[any]any. Verification compares them by content. An
		// integer beyond 2^53 that comes back as a float64 has changed:
		// the codec is skipped with the loss it declares
		// (codec.IntegerFloat), unless -accept allows it.
		serbench.Losses(codec.Loss{Kind: codec.InterfaceTypes}), serbench.Losses(c.sample.accepted...))
}

// parseLosses parses -accept: loss kinds separated by commas, a time
// precision as time-precision=DURATION, the digits a float keeps as
// float-precision=DIGITS (or KIND(VALUE), as serbench prints them). A bare
// float-precision accepts defaultDigits.
func parseLosses(list string) ([]codec.Loss, error) {
	var losses []codec.Loss
	for _, name := range splitList(list) {
		l := codec.Loss{Kind: codec.LossKind(name)}
		if k, v, ok := strings.Cut(strings.TrimSuffix(name, ")"), "("); ok || strings.Contains(name, "=") {
			if !ok {
				k, v, _ = strings.Cut(name, "=")
			}
			switch codec.LossKind(k) {
			case codec.TimePrecision:
				p, err := time.ParseDuration(v)
				if err != nil {
					return nil, usagef("-accept %s: a precision is given as time-precision=DURATION (time-precision=1s)", name)
				}
				l = codec.Loss{Kind: codec.TimePrecision, Precision: p}
			case codec.FloatPrecision:
				d, err := strconv.Atoi(v)
				if err != nil || d < 1 || d > codec.MaxDigits {
					return nil, usagef("-accept %s: the digits kept are given as float-precision=DIGITS, from 1 to %d (float-precision=6)", name, codec.MaxDigits)
				}
				l = codec.Loss{Kind: codec.FloatPrecision, Digits: d}
			default:
				return nil, usagef("-accept %s: only time-precision=DURATION and float-precision=DIGITS take a value", name)
			}
		} else if l.Kind == codec.FloatPrecision {
			l.Digits = defaultDigits
		}
		switch l.Kind {
		case codec.TimePrecision:
			if l.Precision <= 0 {
				return nil, usagef("-accept %s: give the precision kept, as time-precision=DURATION (time-precision=1s)", name)
			}
		case codec.FloatPrecision, codec.TimeZone, codec.NilEmpty, codec.NilPointerZero, codec.BinaryText, codec.InterfaceTypes, codec.IntegerFloat:
		default:
			return nil, usagef("-accept: unknown loss %q; known: time-precision=DURATION, float-precision[=DIGITS], %s, %s, %s, %s, %s, %s", name,
				codec.TimeZone, codec.NilEmpty, codec.NilPointerZero, codec.BinaryText, codec.InterfaceTypes, codec.IntegerFloat)
		}
		losses = append(losses, l)
	}
	return losses, nil
}

// defaultDigits is what a bare -accept float-precision accepts: 6
// significant digits, the most a float32 keeps of any decimal, and what
// the codec that rounds the most (jsoniter-fastest) keeps.
const defaultDigits = 6

// record returns the run's record of its sample; nil without one.
func (s *sample) record() *results.Document {
	if s == nil {
		return nil
	}
	d := s.doc
	return &d
}

// maxSampleBytes is the largest document -file reads: a larger one is
// refused before it is read, as a device, a FIFO or a directory is.
const maxSampleBytes = 64 << 20

// sampleLimits are the caps of the worker that decodes a -file document:
// a hostile file (a 5-byte MessagePack map header that claims four
// billion entries) costs that worker, not serbench.
var sampleLimits = worker.Limits{Memory: 4 << 30, Stack: 64 << 20}

// sampleTask names the worker task that decodes a -file document.
const sampleTask = "sample-decode"

// sampleInput is sampleTask's input: the file and its format.
type sampleInput struct {
	Path   string `json:"path"`
	Format string `json:"format"`
}

// sampleOutput is sampleTask's output: the document's value (appendWire)
// and what the record of a run says of it.
type sampleOutput struct {
	Value    []byte `json:"value"`
	Bytes    int64  `json:"bytes"`
	Messages int    `json:"messages"`
}

// sampleHandler is the worker's side of sampleTask: it reads and decodes
// the file under the worker's caps.
var sampleHandler = worker.Handler{Name: sampleTask, Run: func(_ context.Context, input json.RawMessage, step func(string)) (json.RawMessage, error) {
	var in sampleInput
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, err
	}
	step("decoding " + in.Path)
	v, n, messages, err := decodeSample(in.Path, in.Format)
	if err != nil {
		return nil, err
	}
	wire, err := appendWire(nil, v)
	if err != nil {
		return nil, err
	}
	return json.Marshal(sampleOutput{Value: wire, Bytes: n, Messages: messages})
}}

// checkSampleFile refuses, before reading it, a path that is not a
// regular file (a device such as /dev/zero, a FIFO that would block, a
// directory) or that is larger than maxSampleBytes.
func checkSampleFile(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return usagef("-file: %v", err)
	}
	if !fi.Mode().IsRegular() {
		what := "not a regular file"
		switch m := fi.Mode(); {
		case m.IsDir():
			what = "a directory"
		case m&fs.ModeNamedPipe != 0:
			what = "a FIFO (named pipe)"
		case m&fs.ModeDevice != 0:
			what = "a device"
		case m&fs.ModeSocket != 0:
			what = "a socket"
		}
		return usagef("-file %s is %s, which serbench does not read: give a document saved in a regular file", path, what)
	}
	if fi.Size() > maxSampleBytes {
		return usagef("-file %s holds %d bytes, above the limit of %d (%d MiB) for a document: give a smaller one", path, fi.Size(), maxSampleBytes, maxSampleBytes>>20)
	}
	return nil
}

// loadSample reads the document in path, decoding it in a capped worker
// process. Every mistake in it is a *UsageError of one line naming the
// file and, for text formats, the line.
func loadSample(path string) (*sample, error) {
	ext := strings.ToLower(filepath.Ext(path))
	format, ok := sampleFormats[ext]
	if !ok {
		return nil, usagef("-file %s: unknown extension %q; give a .json, .yaml or .yml, .cbor, .msgpack or .mpk document, or JSON lines as .jsonl or .ndjson", path, ext)
	}
	if err := checkSampleFile(path); err != nil {
		return nil, err
	}
	in, err := json.Marshal(sampleInput{Path: path, Format: format})
	if err != nil {
		return nil, err
	}
	pool := &worker.Pool{Parallel: 1}
	trs, err := pool.RunTasks(context.Background(), []worker.Task{{Name: sampleTask, Input: in, Limits: sampleLimits}})
	if err != nil {
		return nil, fmt.Errorf("-file %s: %w", path, err)
	}
	var out sampleOutput
	switch tr := trs[0]; {
	case tr.Exit != nil:
		return nil, usagef("-file %s: decoding it killed the worker process that read it (%s: %s; capped at %d MiB of memory, %d MiB of stack): serbench cannot measure this document",
			path, tr.Exit.Kind, tr.Exit.Detail, sampleLimits.Memory>>20, sampleLimits.Stack>>20)
	case tr.Err != "":
		return nil, &UsageError{Msg: tr.Err}
	default:
		if err := json.Unmarshal(tr.Output, &out); err != nil {
			return nil, fmt.Errorf("-file %s: the worker's answer: %w", path, err)
		}
	}
	v, err := decodeWire(out.Value)
	if err != nil {
		return nil, fmt.Errorf("-file %s: %w", path, err)
	}
	var value any
	switch v := v.(type) {
	case map[string]any:
		value = &v
	case []any:
		value = &v
	default:
		return nil, fmt.Errorf("-file %s: the worker decoded a %T", path, v)
	}
	// gob carries values held in interfaces only if their types are
	// registered, as a program using gob on generic data does.
	gob.Register(map[string]any{})
	gob.Register([]any{})
	gob.Register(time.Time{})
	base := filepath.Base(path)
	return &sample{
		doc:   results.Document{File: base, Format: format, Bytes: out.Bytes, Messages: out.Messages},
		label: strings.Map(labelRune, base),
		value: value,
	}, nil
}

// decodeSample reads and decodes the document in path, in format, into a
// generic object or array; it returns it with the file's size and its
// number of messages. It runs in the worker of sampleTask.
func decodeSample(path, format string) (v any, size int64, messages int, err error) {
	if err := checkSampleFile(path); err != nil {
		return nil, 0, 0, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, 0, usagef("-file: %v", err)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSampleBytes+1))
	f.Close()
	if err != nil {
		return nil, 0, 0, usagef("-file: %v", err)
	}
	if len(data) > maxSampleBytes {
		return nil, 0, 0, usagef("-file %s grew beyond the limit of %d MiB for a document as it was read", path, maxSampleBytes>>20)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, 0, 0, usagef("%s is empty: give a %s document", path, format)
	}
	messages = 1
	switch format {
	case "JSON":
		v, err = jsonDocument(path, data)
	case "JSON lines":
		v, messages, err = jsonLines(path, data)
	case "YAML":
		v, err = yamlDocument(path, data)
	case "CBOR":
		v, err = cborDocument(path, data)
	case "MessagePack":
		v, err = msgpackDocument(path, data)
	default:
		err = fmt.Errorf("-file %s: no decoder for %s", path, format)
	}
	if err != nil {
		return nil, 0, 0, err
	}
	if v, err = generic(v); err != nil {
		return nil, 0, 0, usagef("%s: %v", path, err)
	}
	switch v.(type) {
	case map[string]any, []any:
	default:
		return nil, 0, 0, usagef("%s: the document is a %s, not an object or an array: serbench measures an object (map[string]any) or an array ([]any)", path, kindOf(v))
	}
	return v, int64(len(data)), messages, nil
}

// labelRune keeps a file name's letters, digits, '.', '-' and '_' in a
// dataset label; the rest become '-'.
func labelRune(r rune) rune {
	if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune(".-_", r) {
		return r
	}
	return '-'
}

// validUTF8 returns a usage error naming the line and column of the
// first byte of data, which starts at line skip of the file (0-based),
// that is not UTF-8: JSON text is UTF-8, and encoding/json would turn
// such a byte into U+FFFD, a document other than the file's.
func validUTF8(path string, data []byte, skip int) error {
	if utf8.Valid(data) {
		return nil
	}
	at := 0
	for at < len(data) {
		r, n := utf8.DecodeRune(data[at:])
		if r == utf8.RuneError && n == 1 {
			break
		}
		at += n
	}
	line, col := position(data, int64(at))
	return usagef("%s:%d:%d: invalid UTF-8 (byte 0x%02x): JSON text is UTF-8; convert the file (iconv -f LATIN1 -t UTF-8, say)", path, skip+line, col, data[at])
}

// jsonDocument decodes the one JSON value in data, its numbers as
// json.Number, which generic keeps exact.
func jsonDocument(path string, data []byte) (any, error) {
	if err := validUTF8(path, data, 0); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, jsonError(path, data, 0, dec.InputOffset(), err)
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		line, _ := position(data, end+int64(len(data[end:])-len(bytes.TrimLeft(data[end:], " \t\r\n"))))
		return nil, usagef("%s:%d: a second JSON value after the document; a file of JSON lines (one message each) is named .jsonl or .ndjson", path, line)
	}
	return v, nil
}

// jsonLines decodes a JSON value from each line of data that is not
// blank, into a list, and returns it with their number.
func jsonLines(path string, data []byte) (any, int, error) {
	var list []any
	for n, line := range bytes.SplitAfter(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 {
			line = bytes.TrimRight(line, "\r\n")
			if err := validUTF8(path, line, n); err != nil {
				return nil, 0, err
			}
			var raw json.RawMessage // checks the line is one JSON value
			if err := json.Unmarshal(line, &raw); err != nil {
				return nil, 0, jsonError(path, line, n, 0, err)
			}
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.UseNumber()
			var v any
			if err := dec.Decode(&v); err != nil {
				return nil, 0, jsonError(path, line, n, 0, err)
			}
			list = append(list, v)
		}
	}
	return list, len(list), nil
}

// jsonError turns a JSON decoding error in data, which starts at line
// skip of the file (0-based), into a usage error naming the line.
func jsonError(path string, data []byte, skip int, at int64, err error) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		at = se.Offset
		if at < int64(len(data)) {
			at-- // just past the byte at fault
		}
	case errors.Is(err, io.ErrUnexpectedEOF):
		at, err = int64(len(data)), errors.New("unexpected end of the document")
	}
	line, col := position(data, at)
	return usagef("%s:%d:%d: malformed JSON: %v", path, skip+line, col, err)
}

// position returns the line and column (1-based) of byte offset at in
// data.
func position(data []byte, at int64) (line, col int) {
	at = min(max(at, 0), int64(len(data)))
	before := data[:at]
	line = 1 + bytes.Count(before, []byte("\n"))
	col = 1 + len(before) - (bytes.LastIndexByte(before, '\n') + 1)
	return line, col
}

// yamlDocument decodes the one YAML document in data.
func yamlDocument(path string, data []byte) (any, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, usagef("%s: malformed YAML: %s", path, firstLine(err))
	}
	var more any
	if err := dec.Decode(&more); err != io.EOF {
		return nil, usagef("%s: more than one YAML document; give one", path)
	}
	return v, nil
}

// cborDocument decodes the one CBOR data item in data.
func cborDocument(path string, data []byte) (any, error) {
	var v any
	if err := cbor.Unmarshal(data, &v); err != nil {
		return nil, usagef("%s: malformed CBOR: %s", path, firstLine(err))
	}
	return v, nil
}

// msgpackDocument decodes the one MessagePack value in data.
func msgpackDocument(path string, data []byte) (any, error) {
	r := bytes.NewReader(data)
	var v any
	dec := msgpack.NewDecoder(r)
	dec.SetMapDecoder(func(d *msgpack.Decoder) (any, error) { return d.DecodeUntypedMap() }) // any keys
	if err := dec.Decode(&v); err != nil {
		return nil, usagef("%s: malformed MessagePack: %s", path, firstLine(err))
	}
	if r.Len() > 0 {
		return nil, usagef("%s: malformed MessagePack: %d bytes after the first value, at byte %d", path, r.Len(), len(data)-r.Len())
	}
	return v, nil
}

// generic returns v in the form serbench measures: maps as
// map[string]any (a key that is not a string as its text), lists as
// []any, integers as int64 (uint64 above math.MaxInt64), float32 as
// float64; strings, bools, nil, bytes and times as they are.
func generic(v any) (any, error) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			g, err := generic(e)
			if err != nil {
				return nil, err
			}
			v[k] = g
		}
		return v, nil
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			g, err := generic(e)
			if err != nil {
				return nil, err
			}
			m[fmt.Sprint(k)] = g
		}
		return m, nil
	case []any:
		for i, e := range v {
			g, err := generic(e)
			if err != nil {
				return nil, err
			}
			v[i] = g
		}
		return v, nil
	case json.Number:
		return number(v)
	case nil, string, bool, float64, []byte, time.Time:
		return v, nil
	case float32:
		return float64(v), nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int(), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if u := rv.Uint(); u > math.MaxInt64 {
			return u, nil
		}
		return int64(rv.Uint()), nil
	}
	return nil, fmt.Errorf("a value of type %T, which generic data does not hold", v)
}

// number returns a JSON number as generic data holds it, exactly: an
// integer as int64 (uint64 above math.MaxInt64), any other number as
// float64. An integer beyond 64 bits is an error: no generic value holds
// it exactly, and a float64 would round it.
func number(n json.Number) (any, error) {
	s := n.String()
	if strings.ContainsAny(s, ".eE") || s == "-0" {
		return strconv.ParseFloat(s, 64)
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i, nil
	}
	if u, err := strconv.ParseUint(s, 10, 64); err == nil {
		return u, nil
	}
	return nil, fmt.Errorf("the integer %s is beyond 64 bits, which generic data holds exactly only up to 18446744073709551615; write it as a string or a float (%se0)", s, s)
}

// kindOf names the JSON kind of a scalar.
func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case []byte:
		return "byte string"
	case time.Time:
		return "time"
	default:
		return "number"
	}
}

// firstLine returns the first line of err's message.
func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}
