package planted

import (
	"encoding/json"
	"reflect"
	"slices"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
)

// The names of the planted codecs.
const (
	Input        = "planted-input"
	CachedEncode = "planted-cached-encode"
	MemoDecode   = "planted-memo-decode"
	LossyLater   = "planted-lossy-later"
	Growing      = "planted-growing"
	RareLoss     = "planted-rare-loss"
	Noop         = "planted-noop"

	MemoContent  = "planted-memo-content"
	Tell         = "planted-tell"
	LazyValue    = "planted-lazy-value"
	LoopShort    = "planted-loop-short"
	LoopGzip     = "planted-loop-gzip"
	Handle       = "planted-handle"
	RewriteInput = "planted-rewrite-input"
	LargeLoss    = "planted-large-loss"
	Alias        = "planted-alias"
	Reuse        = "planted-reuse"

	Stack    = "planted-stack"
	OOM      = "planted-oom"
	Hang     = "planted-hang"
	MapWrite = "planted-mapwrite"
)

// RareLossEvery is the period of planted-rare-loss: Decode calls
// RareLossEvery, 2*RareLossEvery, ... of a Case are corrupted.
const RareLossEvery = 1000

// Triggers maps each crasher's name to the element type of the values it
// crashes on (a *T, *[]T or *[]*T for T the trigger). On every other value
// the crasher is honest json.
var Triggers = map[string]reflect.Type{
	Stack:    reflect.TypeFor[dataset.Tiny](),
	OOM:      reflect.TypeFor[dataset.Medium](),
	Hang:     reflect.TypeFor[dataset.Big](),
	MapWrite: reflect.TypeFor[dataset.User](),
}

// Cheaters lists the planted codecs that run to completion but cheat.
var Cheaters = []codec.Info{
	info(Input, "Value returns the input",
		"planted fault: Value returns the very pointer handed to Prepare; Decode unmarshals into a throwaway value",
		func(v any) (codec.Case, error) { return newCase(v, &inputCase{}) }),
	info(CachedEncode, "cached encoding",
		"planted fault: Encode marshals once and returns the cached bytes forever after, even if the value changes; Decode is honest",
		func(v any) (codec.Case, error) { return newCase(v, &cachedEncodeCase{}) }),
	info(MemoDecode, "memoised decode",
		"planted fault: the first Decode is honest; later ones do nothing and Value keeps returning the first decoded value, whatever the input",
		func(v any) (codec.Case, error) { return newCase(v, &memoDecodeCase{}) }),
	info(LossyLater, "lossy after the first decode",
		"planted fault: the first Decode of a Case is honest; every later one silently corrupts the top level of the decoded value (a struct's first non-zero exported field cleared, a slice's last element dropped, a scalar changed)",
		func(v any) (codec.Case, error) {
			return newCase(v, &lossyCase{lossy: func(n int) bool { return n >= 2 }})
		}),
	info(Growing, "growing encoding",
		"planted fault: the k-th Encode of a Case returns the json plus k-1 trailing spaces, so the size measured first is not the size timed later",
		func(v any) (codec.Case, error) { return newCase(v, &growingCase{}) }),
	info(RareLoss, "rare loss",
		"planted fault: Decode calls 1000, 2000, ... of a Case silently corrupt the decoded value as planted-lossy-later does; every other call is honest",
		func(v any) (codec.Case, error) {
			return newCase(v, &lossyCase{lossy: func(n int) bool { return n%RareLossEvery == 0 }})
		}),
	info(Noop, "no-op",
		"planted fault: Prepare marshals and unmarshals once; Encode returns the stored bytes, Decode does nothing and Value returns the stored decoded value (a 1 ns no-op)",
		prepareNoop),
}

// Evaders lists the planted codecs that cheat where an older runner did
// not look (issue 31): each exploits one of its weaknesses, named in
// Weakness.
var Evaders = []codec.Info{
	info(MemoContent, "memo keyed by content",
		"planted fault: Decode keeps its last two results keyed by the input's content (a copy and a compare) and hands back the cached value when the input was seen just before",
		func(v any) (codec.Case, error) { return newCase(v, &memoContentCase{}) }),
	info(Tell, "tells the timed loop from the checks",
		"planted fault: a Decode that follows two Decodes with no Encode or Value between (as only a timed loop calls it) does nothing",
		func(v any) (codec.Case, error) { return newCase(v, &tellCase{}) }),
	info(LazyValue, "decodes in Value",
		"planted fault: Decode copies its input; Value decodes it, and the codec does not declare itself lazy",
		func(v any) (codec.Case, error) { return newCase(v, &lazyValueCase{}) }),
	selfTimed(info(LoopShort, "own loop runs a thousandth",
		"planted fault: declared self-timed, its own loops (codec.Looper) run a thousandth of the iterations asked for; Encode and Decode are honest json",
		func(v any) (codec.Case, error) { return newCase(v, &shortLoopCase{}) })),
	withNew(selfTimed(info(LoopGzip, "own loop compresses only the last",
		"planted fault: encodes gzipped json; declared self-timed, its own encode loop makes n-1 plain json encodings and compresses only the last",
		nil)), newGzipLoop),
	info(Handle, "encoding is a handle",
		"planted fault: the encoding is an 8-byte handle to the value's json kept in the process's memory; Decode looks it up",
		prepareHandle),
	info(RewriteInput, "rewrites its input",
		"planted fault: Decode decodes a message once and rewrites the caller's buffer as a marker and an index into its memo, which later decodes of that buffer hand back",
		func(v any) (codec.Case, error) { return newCase(v, &rewriteCase{}) }),
	info(LargeLoss, "loses one large decode in 50",
		"planted fault: every 50th decode of a message over 4 KiB silently corrupts the decoded value as planted-lossy-later does",
		func(v any) (codec.Case, error) { return newCase(v, &largeLossCase{}) }),
	info(Alias, "values point into the input",
		"planted fault: decoded strings point into the input buffer, undeclared (codec.Info.Aliases)",
		func(v any) (codec.Case, error) { return newCase(v, &aliasCase{}) }),
	info(Reuse, "one target for every decode",
		"planted fault: every Decode decodes into the same target, undeclared (codec.Info.ReusesTarget)",
		func(v any) (codec.Case, error) { return newCase(v, &reuseCase{}) }),
}

// Weakness maps each evader to the weakness of issue 31 it exploits.
var Weakness = map[string]int{
	MemoContent: 1, Tell: 2, LazyValue: 3, LoopShort: 4, LoopGzip: 4,
	Handle: 5, RewriteInput: 6, LargeLoss: 7, Alias: 8, Reuse: 8,
}

func selfTimed(i codec.Info) codec.Info { i.SelfTimed = true; return i }

func withNew(i codec.Info, n func() codec.Codec) codec.Info { i.New = n; return i }

// Crashers lists the planted codecs that crash or hang on their trigger
// type (Triggers) and are honest json on every other value.
var Crashers = []codec.Info{
	info(Stack, "stack overflow on Tiny",
		"planted fault: on dataset.Tiny values, Decode recurses without bound until Go's fatal, unrecoverable stack overflow; honest json on every other type",
		crasher(Stack, overflowStack)),
	info(OOM, "out of memory on Medium",
		"planted fault: on dataset.Medium values, Decode allocates 1 TiB and touches it (fatal, unrecoverable out of memory); honest json on every other type",
		crasher(OOM, exhaustMemory)),
	info(Hang, "hang on Big",
		"planted fault: on dataset.Big values, Decode spins on the CPU forever and never returns; honest json on every other type",
		crasher(Hang, spin)),
	info(MapWrite, "concurrent map writes on User",
		"planted fault: on dataset.User values, Decode writes a map from two goroutines until Go's fatal, unrecoverable concurrent map writes; honest json on every other type",
		crasher(MapWrite, writeMapConcurrently)),
}

// Codecs lists every planted codec: the cheaters, the evaders of the
// four rounds, then the crashers.
var Codecs = slices.Concat(Cheaters, Evaders, RoundTwo, RoundThree, RoundFour, Crashers)

func info(name, label, notes string, prepare codec.Func) codec.Info {
	return codec.Info{
		Name: name, Family: "planted", Label: "planted: " + label, Module: "std",
		URL: "https://pkg.go.dev/encoding/json", API: codec.Reflection, Notes: notes,
		New: func() codec.Codec { return prepare },
	}
}

// jsonCase holds what every planted Case shares: the prepared value, its
// type, and honest json encoding and decoding.
type jsonCase struct {
	v    any
	elem reflect.Type
	out  any // the last decoded value
}

func (c *jsonCase) init(v any) error {
	elem, err := codec.PointerElem(v)
	c.v, c.elem = v, elem
	return err
}

func (c *jsonCase) marshal() ([]byte, error) { return json.Marshal(c.v) }

// unmarshal decodes data into a new zero value of the prepared type.
func (c *jsonCase) unmarshal(data []byte) (any, error) {
	out := reflect.New(c.elem).Interface()
	return out, json.Unmarshal(data, out)
}

func (c *jsonCase) Value() (any, error) { return c.out, nil }

// A plantedCase is a Case built on a jsonCase.
type plantedCase interface {
	codec.Case
	base() *jsonCase
}

func (c *jsonCase) base() *jsonCase { return c }

func newCase(v any, c plantedCase) (codec.Case, error) {
	if err := c.base().init(v); err != nil {
		return nil, err
	}
	return c, nil
}
