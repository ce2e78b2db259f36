package dataset

// Nest is a recursive type: a value holds the next of its kind, as a
// linked list or a tree node does. It is no dataset: the hostile study
// nests it deep, through every codec that can express a recursive type,
// to find decoders whose recursion has no bound.
type Nest struct {
	N *Nest `json:"n" xml:"n" yaml:"n"`
}

// NewNest returns a Nest depth levels deep (depth values, the last with
// a nil N); nil for a depth under 1.
func NewNest(depth int) *Nest {
	var n *Nest
	for range depth {
		n = &Nest{N: n}
	}
	return n
}
