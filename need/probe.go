package need

import (
	"encoding/json"
	"fmt"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/registry"
)

// ProbeTask names the worker task that finds which APIs codecs have
// (Probe), in a child process: finding out runs adapter code. Its input
// is a list of codec names, its output their Caps by name (ProbeAll).
const ProbeTask = "need-probe"

// ProbeAll returns the Caps of the codecs named, by name, calling step
// before each.
func ProbeAll(input json.RawMessage, step func(string)) (json.RawMessage, error) {
	var names []string
	if err := json.Unmarshal(input, &names); err != nil {
		return nil, fmt.Errorf("need: reading the codecs to probe: %w", err)
	}
	out := map[string]Caps{}
	for _, n := range names {
		step(n)
		info, err := registry.Lookup(n)
		if err != nil {
			return nil, err
		}
		out[n] = Probe(info)
	}
	return json.Marshal(out)
}

// Caps are the APIs a codec's library has, as serbench drives them.
type Caps struct {
	Streams bool `json:"streams"`  // the codec is a codec.Streamer
	InPlace bool `json:"in_place"` // its cases are codec.Getters
}

// Probe returns codec info's Caps: whether its codec streams, and whether
// the case of the first dataset it prepares reads in place.
func Probe(info codec.Info) Caps {
	c := info.New()
	_, streams := c.(codec.Streamer)
	caps := Caps{Streams: streams}
	for _, d := range dataset.All {
		v, err := d.Value(dataset.Single)
		if err != nil {
			continue
		}
		if k, err := c.Prepare(v); err == nil {
			_, caps.InPlace = k.(codec.Getter)
			break
		}
	}
	return caps
}

// With returns f with the caps set.
func (c Caps) With(f Facts) Facts {
	f.Streams, f.InPlace = &c.Streams, &c.InPlace
	return f
}
