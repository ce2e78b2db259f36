package measure

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/runner"
)

// The calibrated costs price a job's encodes and decodes at encoding/json's
// (Cost). A codec runs a few times faster or slower than that, and on a
// value of megabytes, whose checks make the most of a job's time, the
// difference is the estimate's. A speed probe times each codec's own calls
// on one value of moderate size, beside encoding/json's on the same value,
// in a child process (a codec may panic, hang or eat memory; only a child
// runs codecs): the ratio scales json's costs for the codec's jobs.

// A SpeedJob asks the probe for one codec's calls on one dataset shape.
type SpeedJob struct {
	Codec   string `json:"codec"`
	Dataset string `json:"dataset"`
	Shape   string `json:"shape"`
}

// A Speed is a codec's encode and its decode (with the conversion of the
// decoded value, Value) over encoding/json's on the same value. Zero is
// unknown: json's cost stands.
type Speed struct {
	Encode float64 `json:"encode"`
	Decode float64 `json:"decode"`
}

// Speeds are the codecs' speeds, by codec name.
type Speeds map[string]Speed

// probeMax bounds the value the probe times a codec on: the dearest of
// the codec's dataset shapes whose encoding/json encode, as calibrated,
// takes no longer. Its calls take a few milliseconds, long enough that
// the ratio holds on larger values of the same kinds.
const probeMax = 20 * time.Millisecond

// SpeedJobs returns the probe's jobs for jobs: for each codec, its
// dataset shape with the dearest encoding/json encode in costs up to
// probeMax. A codec with no such shape (a user's own type) has none.
func SpeedJobs(jobs []runner.Job, costs Costs) []SpeedJob {
	best := map[string]SpeedJob{}
	var order []string
	for i := range jobs {
		j := &jobs[i]
		c, ok := costs[costKey(j)]
		if !ok || j.Skip != "" || c.Encode > probeMax {
			continue
		}
		name := j.Codec.Name
		b, seen := best[name]
		if !seen {
			order = append(order, name)
		}
		if !seen || c.Encode > costs[b.Dataset+"/"+b.Shape].Encode {
			best[name] = SpeedJob{Codec: name, Dataset: j.Dataset, Shape: j.Shape}
		}
	}
	out := make([]SpeedJob, 0, len(order))
	for _, n := range order {
		out = append(out, best[n])
	}
	return out
}

// ProbeSpeeds is the body of the probe's child task: it reads a list of
// SpeedJobs, rebuilds each job with resolve, and times, on now, the
// codec's encode and decode and encoding/json's of the same value (the
// least of a few calls, as Calibrate does), calling step before each.
// A job the codec or json cannot do gets a zero Speed.
func ProbeSpeeds(input json.RawMessage, resolve func(codec, dataset, shape string) (runner.Job, error), now func() time.Time, step func(string)) (json.RawMessage, error) {
	var jobs []SpeedJob
	if err := json.Unmarshal(input, &jobs); err != nil {
		return nil, fmt.Errorf("timing the codecs for the estimate: reading the input: %w", err)
	}
	out := make([]Speed, len(jobs))
	for i, sj := range jobs {
		step(sj.Codec + " " + sj.Dataset + "/" + sj.Shape)
		j, err := resolve(sj.Codec, sj.Dataset, sj.Shape)
		if err != nil || j.Value == nil {
			continue
		}
		out[i] = probe(&j, now)
	}
	return json.Marshal(out)
}

// probe times job's codec against encoding/json on the job's value.
func probe(j *runner.Job, now func() time.Time) Speed {
	v, err := j.Value()
	if err != nil {
		return Speed{}
	}
	jsonEnc, jsonDec := jsonCosts(v, now, 0)
	if jsonEnc <= 0 || jsonDec <= 0 {
		return Speed{}
	}
	c, err := j.Codec.New().Prepare(v)
	if err != nil {
		return Speed{}
	}
	var data []byte
	enc, err := least(now, func() (err error) {
		return codec.Guard(func() (err error) { data, err = c.Encode(); return err })
	})
	if err != nil {
		return Speed{}
	}
	data = slices.Clone(data)
	dec, err := least(now, func() error {
		return codec.Guard(func() error {
			if err := c.Decode(data); err != nil {
				return err
			}
			_, err := c.Value()
			return err
		})
	})
	if err != nil {
		return Speed{Encode: ratio(enc, jsonEnc)}
	}
	return Speed{Encode: ratio(enc, jsonEnc), Decode: ratio(dec, jsonDec)}
}

func ratio(a, b time.Duration) float64 { return float64(max(a, 1)) / float64(b) }

// For returns c with its encode and decode scaled by s, the speed of the
// job's codec; c itself when s is unknown.
func (c Cost) For(s Speed) Cost {
	if s.Encode > 0 {
		c.Encode = time.Duration(s.Encode * float64(c.Encode))
	}
	if s.Decode > 0 {
		c.Decode = time.Duration(s.Decode * float64(c.Decode))
	}
	return c
}
