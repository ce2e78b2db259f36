// Package journal keeps a run's results on disk as they are measured, so
// that no result is lost when the process dies: one JSON line per
// benchmark, appended, flushed and synced the moment the benchmark ends.
//
// A journal starts with a header line (the run's record without results,
// and the arguments that started it, so that a killed run can be resumed
// with the same options) and goes on with one result per line. A line cut
// short by a crash is ignored when the journal is read, and cut off when
// it is opened again to append.
//
// A study's journal (package study) is the same file with cells in place
// of results: a header naming the study (Header.Study) and the arguments
// that started it, then one matrix cell per line as each cell ends
// (Writer.AddCell), read back by ReadCells so that -resume runs only the
// cells not yet done.
package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/serbench/serbench/results"
)

// Name is the journal's file name in an output directory.
const Name = "journal.jsonl"

// version is the journal format's version, in its header.
const version = 1

// A Header opens a journal.
type Header struct {
	Version int `json:"serbench_journal"`
	// Args are the command-line arguments of the run, which a resumed
	// run parses again.
	Args []string `json:"args"`
	// Jobs counts the benchmarks the run was to measure.
	Jobs int `json:"benchmarks"`
	// Run is the run's record as it started: environment, options and
	// codecs, no results.
	Run results.Run `json:"run"`
	// Study names the study whose cells the journal holds (a study's
	// journal); empty in a run's.
	Study string `json:"study,omitempty"`
}

type line struct {
	Header *Header             `json:"header,omitempty"`
	Result *results.Result     `json:"result,omitempty"`
	Cell   *results.MatrixCell `json:"cell,omitempty"`
}

// A Writer appends results to a journal.
type Writer struct {
	f *os.File
}

// Create creates a journal at path (which must not exist) and writes its
// header.
func Create(path string, h Header) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	h.Version = version
	h.Run.Results = nil
	w := &Writer{f: f}
	if err := w.write(line{Header: &h}); err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// Append opens the journal at path to add results to it, cutting off a
// last line left incomplete by a crash.
func Append(path string) (*Writer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if end := bytes.LastIndexByte(data, '\n') + 1; end < len(data) {
		if err := f.Truncate(int64(end)); err != nil {
			f.Close()
			return nil, fmt.Errorf("journal: cutting off an incomplete last line: %w", err)
		}
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, fmt.Errorf("journal: %w", err)
	}
	return &Writer{f: f}, nil
}

// Add appends one result and syncs it to disk.
func (w *Writer) Add(r results.Result) error { return w.write(line{Result: &r}) }

// AddCell appends one finished cell of a study and syncs it to disk.
func (w *Writer) AddCell(c results.MatrixCell) error { return w.write(line{Cell: &c}) }

func (w *Writer) write(l line) error {
	b, err := json.Marshal(l)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if _, err := w.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// Close closes the journal.
func (w *Writer) Close() error { return w.f.Close() }

// A SyntaxError reports a journal line that is not what a journal holds.
type SyntaxError struct {
	File string
	Line int
	Err  error
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d: not a serbench journal line: %v", e.File, e.Line, e.Err)
}

func (e *SyntaxError) Unwrap() error { return e.Err }

// Read reads the journal at path: its header and its results in the order
// they were added. An incomplete last line (the process died while
// writing it) is dropped; any other bad line is a *SyntaxError.
func Read(path string) (*Header, []results.Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	defer f.Close()
	c, err := read(f, path)
	if err != nil {
		return nil, nil, err
	}
	return c.header, c.results, nil
}

// ReadCells reads a study's journal at path: its header and its cells in
// the order they ended, a cell written again replacing the earlier one.
// An incomplete last line is dropped; any other bad line is a
// *SyntaxError.
func ReadCells(path string) (*Header, []results.MatrixCell, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	defer f.Close()
	c, err := read(f, path)
	if err != nil {
		return nil, nil, err
	}
	return c.header, c.cells, nil
}

// contents is what a journal holds.
type contents struct {
	header  *Header
	results []results.Result
	cells   []results.MatrixCell
}

func read(rd io.Reader, name string) (*contents, error) {
	br := bufio.NewReader(rd)
	var h *Header
	var rs []results.Result
	var cs []results.MatrixCell
	at := map[string]int{}        // where each benchmark's result is in rs
	cellAt := map[[2]string]int{} // where each cell is in cs
	for n := 1; ; n++ {
		b, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			// No newline: an incomplete last line, or none.
			break
		}
		if err != nil {
			return nil, fmt.Errorf("journal: %s: %w", name, err)
		}
		var l line
		if err := json.Unmarshal(b, &l); err != nil {
			return nil, &SyntaxError{File: name, Line: n, Err: err}
		}
		switch {
		case n == 1 && l.Header == nil:
			return nil, &SyntaxError{File: name, Line: n, Err: errors.New("the first line is not a journal header")}
		case l.Header != nil:
			if n != 1 {
				return nil, &SyntaxError{File: name, Line: n, Err: errors.New("a second header")}
			}
			if l.Header.Version != version {
				return nil, &SyntaxError{File: name, Line: n, Err: fmt.Errorf("journal version %d; this serbench reads version %d", l.Header.Version, version)}
			}
			h = l.Header
		case l.Result != nil:
			// A benchmark sampled again (a run's refining pass) has a
			// later line, which holds all its samples: it replaces the
			// earlier one in place.
			if i, ok := at[l.Result.Key()]; ok {
				rs[i] = *l.Result
			} else {
				at[l.Result.Key()] = len(rs)
				rs = append(rs, *l.Result)
			}
		case l.Cell != nil:
			k := [2]string{l.Cell.Codec, l.Cell.Case}
			if i, ok := cellAt[k]; ok {
				cs[i] = *l.Cell
			} else {
				cellAt[k] = len(cs)
				cs = append(cs, *l.Cell)
			}
		default:
			return nil, &SyntaxError{File: name, Line: n, Err: errors.New("neither a header, a result nor a cell")}
		}
	}
	if h == nil {
		return nil, &SyntaxError{File: name, Line: 1, Err: errors.New("empty journal: no header")}
	}
	return &contents{header: h, results: rs, cells: cs}, nil
}
