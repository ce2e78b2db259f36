// Package byteorder is hand-written encoding with encoding/binary's
// ByteOrder (AppendUint64, Uint64), for the types it was written for: an
// int64, a Metric and a slice of Metrics. It is the floor that reflection
// codecs are measured against.
package byteorder

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
)

// Manual is the hand-written little-endian encoding.
var Manual = codec.Declare(codec.Info{
	Name: "byteorder", Family: "binary", Label: "binary.LittleEndian by hand", Module: "std",
	URL: "https://pkg.go.dev/encoding/binary#ByteOrder", API: codec.Manual,
	Notes: "Hand-written for int64, Metric and []Metric only; appends into a reused buffer.",
	New:   func() codec.Codec { return codec.Func(prepare) },

	ReusesBuffer: true, // Encode writes into a buffer kept across calls
})

var le = binary.LittleEndian

const metricSize = 24

func prepare(v any) (codec.Case, error) {
	switch v := v.(type) {
	case *int64:
		return codec.AppendCase(v, appendInt64, decodeInt64), nil
	case *dataset.Metric:
		return codec.AppendCase(v, appendMetric, decodeMetric), nil
	case *[]dataset.Metric:
		return codec.AppendCase(v, appendMetrics, decodeMetrics), nil
	}
	return nil, codec.Unsupported(v, "hand-written for int64, Metric and []Metric only")
}

func appendInt64(dst []byte, v *int64) []byte { return le.AppendUint64(dst, uint64(*v)) }

func decodeInt64(data []byte, v *int64) error {
	if len(data) != 8 {
		return fmt.Errorf("byteorder: int64 needs 8 bytes, got %d", len(data))
	}
	*v = int64(le.Uint64(data))
	return nil
}

func appendMetric(dst []byte, m *dataset.Metric) []byte {
	dst = le.AppendUint64(dst, math.Float64bits(m.Timestamp))
	dst = le.AppendUint64(dst, m.NameHash)
	return le.AppendUint64(dst, math.Float64bits(m.Value))
}

func decodeMetric(data []byte, m *dataset.Metric) error {
	if len(data) != metricSize {
		return fmt.Errorf("byteorder: Metric needs %d bytes, got %d", metricSize, len(data))
	}
	*m = readMetric(data)
	return nil
}

func readMetric(b []byte) dataset.Metric {
	return dataset.Metric{
		Timestamp: math.Float64frombits(le.Uint64(b)),
		NameHash:  le.Uint64(b[8:]),
		Value:     math.Float64frombits(le.Uint64(b[16:])),
	}
}

func appendMetrics(dst []byte, ms *[]dataset.Metric) []byte {
	for i := range *ms {
		dst = appendMetric(dst, &(*ms)[i])
	}
	return dst
}

func decodeMetrics(data []byte, ms *[]dataset.Metric) error {
	if len(data)%metricSize != 0 {
		return fmt.Errorf("byteorder: %d bytes is not a whole number of %d-byte Metrics", len(data), metricSize)
	}
	out := make([]dataset.Metric, 0, len(data)/metricSize)
	for b := data; len(b) > 0; b = b[metricSize:] {
		out = append(out, readMetric(b))
	}
	*ms = out
	return nil
}
