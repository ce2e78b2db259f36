package hostile

import (
	"bytes"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
)

// The recursive class nests a recursive type (dataset.Nest, a value
// holding the next) deep, through every codec whose encoder takes it:
// gob's and Avro's decoders, among others, recurse once per level. Its
// inputs are not encoded at their depth, where the encoder would recurse
// as deep; the codec's own encodings of 1 to 4 levels give the pattern
// (a head, an opening repeated per level, a middle, a closing repeated
// per level, a tail), and the ladder is written from it.

// nestDepths is how many levels of dataset.Nest the encodings a ladder
// is inferred from hold: 1 to 4.
const nestDepths = 4

// nestEncodings returns info's encodings of dataset.Nest 1 to nestDepths
// levels deep, nil when the codec does not encode one.
func nestEncodings(info codec.Info) [][]byte {
	var out [][]byte
	for d := 1; d <= nestDepths; d++ {
		s := encodeSeed(info, "nest", dataset.NewNest(d), false)
		if s == nil {
			return nil
		}
		out = append(out, s.valid)
	}
	return out
}

// A nesting writes a nesting of any depth in a format's own terms.
type nesting struct {
	head, open, mid, close, tail []byte
	// frame, when set, frames a body written from the parts (gob's
	// message length).
	frame func(body []byte) []byte
}

// at writes the nesting depth levels deep.
func (l *nesting) at(depth int) []byte {
	b := ladderBytes(depth-1, l.head, l.open, l.mid, l.close, l.tail)
	if l.frame != nil {
		b = l.frame(b)
	}
	return b
}

// inferLadder finds the nesting whose depths 1 to len(enc) are enc,
// after fam's unframing; nil when there is none (a format that indents
// each level, or counts each level's length, repeats no bytes per level).
func inferLadder(enc [][]byte, fam *framing) *nesting {
	if len(enc) < 3 {
		return nil
	}
	bodies := enc
	var frame func([]byte) []byte
	if fam != nil && fam.unframe != nil {
		bodies = make([][]byte, len(enc))
		var head []byte
		for i, e := range enc {
			h, body, ok := fam.unframe(e)
			if !ok || i > 0 && !bytes.Equal(h, head) {
				return nil
			}
			head, bodies[i] = h, body
		}
		frame = func(body []byte) []byte { return fam.reframe(head, body) }
	}
	e0, e1 := bodies[0], bodies[1]
	u := len(e1) - len(e0)
	if u <= 0 {
		return nil
	}
	for a := 0; a <= len(e0) && bytes.Equal(e1[:a], e0[:a]); a++ {
		for oLen := 0; oLen <= u; oLen++ {
			open, cLen := e1[a:a+oLen], u-oLen
			for b := a; b <= len(e0); b++ {
				at := a + oLen + (b - a)
				if !bytes.Equal(e1[a+oLen:at], e0[a:b]) {
					break
				}
				if !bytes.Equal(e1[at+cLen:], e0[b:]) {
					continue
				}
				l := &nesting{head: e0[:a], open: open, mid: e0[a:b], close: e1[at : at+cLen], tail: e0[b:]}
				ok := true
				for d := 3; d <= len(bodies) && ok; d++ {
					ok = bytes.Equal(ladderBytes(d-1, l.head, l.open, l.mid, l.close, l.tail), bodies[d-1])
				}
				if ok {
					l.frame = frame
					return l
				}
			}
		}
	}
	return nil
}

// gobUnframe splits a gob stream into its messages but the last (type
// definitions, with their lengths) and the last one's body.
func gobUnframe(data []byte) (head, body []byte, ok bool) {
	last := -1
	for pos := 0; pos < len(data); {
		n, size := readGobUint(data[pos:])
		if size == 0 || pos+size+int(n) > len(data) {
			return nil, nil, false
		}
		last = pos
		pos += size + int(n)
	}
	if last < 0 {
		return nil, nil, false
	}
	_, size := readGobUint(data[last:])
	return data[:last], data[last+size:], true
}

// gobReframe is gobUnframe's inverse.
func gobReframe(head, body []byte) []byte {
	out := append([]byte{}, head...)
	out = append(out, gobUint(uint64(len(body)))...)
	return append(out, body...)
}
