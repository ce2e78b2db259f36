package planted

import (
	"encoding/json"
	"reflect"
	"sync/atomic"
	"time"

	"github.com/serbench/serbench/codec"
)

// The round-four evaders cheat where the checks of issue 41's second
// round did not look: a Decode declared ValueConverts that copies its
// input (one memcpy, on the clock) leaves the decoding to Value (off it)
// unseen by overwriting the input before Value, and an Encode declared
// ReusesBuffer whose case converts its value when prepared was not held
// to its later calls at all.

// The names of the round-four evaders.
const (
	CopyConverts  = "planted-copy-converts"
	HideConverts  = "planted-hide-converts"
	ReplayPrepare = "planted-replay-prepare"
	ReplayReload  = "planted-replay-reload"
	WarmPrepare   = "planted-warm-prepare"
)

// RoundFour lists the planted codecs that cheat where the checks of
// issue 41's second round did not look.
var RoundFour = []codec.Info{
	valueConverts(info(CopyConverts, "decodes a copy of its input in Value, declares ValueConverts",
		"planted fault: declares ValueConverts (so that Value, off the timed loop's clock, is believed to convert); Decode copies its input into a buffer of its own, and Value decodes the copy",
		func(v any) (codec.Case, error) { return newCase(v, &copyConvertsCase{}) })),
	valueConverts(info(HideConverts, "decodes a copy of its input in Value and hides its errors, declares ValueConverts",
		"planted fault: planted-copy-converts whose Value, when the copy does not decode, hands back the value it decoded last (or a zero value) and no error",
		func(v any) (codec.Case, error) { return newCase(v, &hideConvertsCase{}) })),
	reusesBuffer(valueConverts(info(ReplayPrepare, "converts its value when prepared and replays its first encoding, declares ReusesBuffer",
		"planted fault: declares ReusesBuffer and ValueConverts, and converts its value when the case is prepared (a deep copy, as a generated codec copies into its own types), "+
			"so that a value changed in place is not followed; each case's first Encode is honest, every later one copies that first encoding into the buffer it keeps",
		func(v any) (codec.Case, error) { return newConverted(v, &replayPrepareCase{}) }))),
	reusesBuffer(valueConverts(info(ReplayReload, "planted-replay-prepare, with a Reload",
		"planted fault: planted-replay-prepare whose case is a codec.Reloader: Reload converts the value again, and the next Encode is honest, every later one a copy of it",
		func(v any) (codec.Case, error) { return newConverted(v, &replayReloadCase{}) }))),
	info(WarmPrepare, "warms its caches when prepared",
		"planted fault: Prepare encodes and decodes the value once, so that the first Encode and Decode after it find encoding/json's caches of the type built: "+
			"a first call timed after an untimed Prepare would read as warm",
		prepareWarm),
}

// Warmed is how long planted-warm-prepare's last Prepare spent warming
// the caches: what a cold call timed without Prepare would leave out.
var Warmed atomic.Int64

// prepareWarm prepares a case of planted-warm-prepare: an honest json
// case whose Prepare makes a first Encode and Decode.
func prepareWarm(v any) (codec.Case, error) {
	c := &honestCase{}
	if _, err := newCase(v, c); err != nil {
		return nil, err
	}
	t0 := time.Now()
	enc, err := c.Encode()
	if err == nil {
		err = c.Decode(enc)
	}
	Warmed.Store(int64(time.Since(t0)))
	return c, err
}

// WeaknessFour maps each round-four evader to the point of serbench's
// issue 41 (fourth session) it exploits: 1 a Decode declared
// ValueConverts that copies, 2 a converting codec's Encode declared
// ReusesBuffer, 6 a cold call that an untimed Prepare warmed.
var WeaknessFour = map[string]int{CopyConverts: 1, HideConverts: 1, ReplayPrepare: 2, ReplayReload: 2, WarmPrepare: 6}

// copyConvertsCase copies Decode's input; Value decodes the copy.
type copyConvertsCase struct {
	jsonCase
	data []byte
}

func (c *copyConvertsCase) Encode() ([]byte, error) { return c.marshal() }

func (c *copyConvertsCase) Decode(data []byte) error {
	c.data = append(c.data[:0], data...)
	return nil
}

func (c *copyConvertsCase) Value() (any, error) {
	out, err := c.unmarshal(c.data)
	if err != nil {
		return nil, err
	}
	c.out = out
	return out, nil
}

// hideConvertsCase is copyConvertsCase whose Value hands back the last
// value it decoded, or a zero value, when the copy does not decode.
type hideConvertsCase struct{ copyConvertsCase }

func (c *hideConvertsCase) Value() (any, error) {
	if out, err := c.unmarshal(c.data); err == nil {
		c.out = out
	}
	if c.out == nil {
		return reflect.New(c.elem).Interface(), nil
	}
	return c.out, nil
}

// A convertedCase holds a deep copy of its value made when the case is
// prepared (the conversion of a generated codec), which Encode encodes,
// into a buffer it keeps.
type convertedCase struct {
	jsonCase
	conv       any // the value handed to Prepare, as it was then
	first, buf []byte
}

// convert copies the value handed to Prepare, as it is now.
func (c *convertedCase) convert() error {
	enc, err := c.marshal()
	if err != nil {
		return err
	}
	c.conv, err = c.unmarshal(enc)
	return err
}

// encode makes the case's first encoding of its converted value if it has
// none, and copies it into the buffer it keeps.
func (c *convertedCase) encode() ([]byte, error) {
	if c.first == nil {
		enc, err := json.Marshal(c.conv)
		if err != nil {
			return nil, err
		}
		c.first = enc
	}
	c.buf = append(c.buf[:0], c.first...)
	return c.buf, nil
}

func (c *convertedCase) Decode(data []byte) error {
	var err error
	c.out, err = c.unmarshal(data)
	return err
}

// A converter is a planted case built on a convertedCase.
type converter interface {
	codec.Case
	converted() *convertedCase
}

// newConverted prepares c on v and converts v.
func newConverted(v any, c converter) (codec.Case, error) {
	cc := c.converted()
	if err := cc.init(v); err != nil {
		return nil, err
	}
	if err := cc.convert(); err != nil {
		return nil, err
	}
	return c, nil
}

// replayPrepareCase encodes its converted value once and replays that
// encoding on every later call.
type replayPrepareCase struct{ convertedCase }

func (c *replayPrepareCase) converted() *convertedCase { return &c.convertedCase }

func (c *replayPrepareCase) Encode() ([]byte, error) { return c.encode() }

// replayReloadCase is replayPrepareCase with a Reload that converts the
// value again and drops the encoding it replays.
type replayReloadCase struct{ replayPrepareCase }

func (c *replayReloadCase) Reload() error {
	c.first = nil
	return c.convert()
}
