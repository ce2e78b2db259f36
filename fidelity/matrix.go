package fidelity

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/serbench/serbench/codec"
)

// A Matrix is every probe through every codec: what fidelity.json holds.
type Matrix struct {
	Codecs []CodecInfo `json:"codecs"`
	Probes []ProbeInfo `json:"probes"`
	Cells  []Cell      `json:"cells"` // codec by codec, each in probe order
	index  map[key]int // Cells by codec and probe
}

// CodecInfo is what the matrix records of a codec.
type CodecInfo struct {
	Name   string `json:"name"`
	Family string `json:"family"`
	Label  string `json:"label"`
	API    string `json:"api"`
}

// ProbeInfo is what the matrix records of a probe.
type ProbeInfo struct {
	Name  string `json:"name"`
	Group string `json:"group"`
	Doc   string `json:"doc"`
}

type key struct{ codec, probe string }

// NewMatrix returns an empty matrix of codecs by probes.
func NewMatrix(codecs []codec.Info, probes []Probe) *Matrix {
	m := &Matrix{}
	for _, c := range codecs {
		m.Codecs = append(m.Codecs, CodecInfo{Name: c.Name, Family: c.Family, Label: c.Label, API: string(c.API)})
	}
	for _, p := range probes {
		m.Probes = append(m.Probes, ProbeInfo{Name: p.Name, Group: p.Group, Doc: p.Doc})
	}
	return m
}

// Add adds a cell, replacing any of the same codec and probe.
func (m *Matrix) Add(c Cell) {
	if m.index == nil {
		m.reindex()
	}
	if i, ok := m.index[key{c.Codec, c.Probe}]; ok {
		m.Cells[i] = c
		return
	}
	m.index[key{c.Codec, c.Probe}] = len(m.Cells)
	m.Cells = append(m.Cells, c)
}

// Cell returns the cell of codec and probe, or nil.
func (m *Matrix) Cell(codec, probe string) *Cell {
	if m.index == nil {
		m.reindex()
	}
	if i, ok := m.index[key{codec, probe}]; ok {
		return &m.Cells[i]
	}
	return nil
}

// Row returns codec's cells in probe order; a missing cell is nil.
func (m *Matrix) Row(codec string) []*Cell {
	row := make([]*Cell, len(m.Probes))
	for i, p := range m.Probes {
		row[i] = m.Cell(codec, p.Name)
	}
	return row
}

func (m *Matrix) reindex() {
	m.index = map[key]int{}
	for i, c := range m.Cells {
		m.index[key{c.Codec, c.Probe}] = i
	}
}

// WriteJSON writes m as indented JSON: fidelity.json.
func (m *Matrix) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(m)
}

// ReadJSON reads a matrix written by WriteJSON.
func ReadJSON(r io.Reader) (*Matrix, error) {
	var m Matrix
	if err := json.NewDecoder(r).Decode(&m); err != nil {
		return nil, fmt.Errorf("fidelity: reading the matrix: %w", err)
	}
	if len(m.Codecs) == 0 || len(m.Probes) == 0 {
		return nil, fmt.Errorf("fidelity: the matrix has no codecs or no probes; write it with serbench fidelity")
	}
	return &m, nil
}

// The files serbench fidelity writes.
const (
	JSONName = "fidelity.json"
	CSVName  = "fidelity.csv"
)
