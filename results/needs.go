package results

import "slices"

// Needs records what a user needs of a format (serbench run -need) and
// how each candidate codec stands against each need, so that the answer
// names the best codec meeting all of them and says why the others were
// left out.
type Needs struct {
	// Wanted are the needs as the user named them: "untrusted",
	// "evolve=add+rename"; none for a run that named none.
	Wanted []string `json:"wanted,omitempty"`
	// Judged are the needs each codec is judged on, in order: the
	// wanted ones, then every other need with its default arguments,
	// for report.html's toggles.
	Judged []NeedInfo `json:"judged"`
	// Codecs are the candidates, each judged on every need of Judged.
	Codecs []NeedCodec `json:"codecs"`
	// Displaced are the answers an excluded codec gave in the run the
	// output directory held before (a run of the same codecs without
	// -need): what the needs cost.
	Displaced []Displaced `json:"displaced,omitempty"`
}

// A Displaced is an answer of an earlier run whose winner the needs left
// out.
type Displaced struct {
	Question string `json:"question"`
	Codec    string `json:"codec"`
	Detail   string `json:"detail"` // the earlier answer's margin
}

// A NeedInfo names a need and says what it means.
type NeedInfo struct {
	Name string `json:"name"`
	Says string `json:"says"`
}

// A NeedCodec is one candidate codec judged on each need, in
// Needs.Judged's order.
type NeedCodec struct {
	Codec      string      `json:"codec"`
	Judgements []Judgement `json:"judgements"`
}

// A NeedStatus says how a codec stands against a need.
type NeedStatus string

// The statuses of a judgement.
const (
	NeedMet     NeedStatus = "met"
	NeedFailed  NeedStatus = "failed"
	NeedUnknown NeedStatus = "unknown" // the study that decides it has not run for the codec
)

// A Judgement is how a codec stands against one need, and the evidence:
// the study's verdict or cells, or the declared fact.
type Judgement struct {
	Need   string     `json:"need"`
	Status NeedStatus `json:"status"`
	Why    string     `json:"why,omitempty"`
}

// Meets reports whether codec meets every wanted need. A codec not among
// the candidates meets none.
func (n *Needs) Meets(codec string) bool {
	return n.codec(codec) != nil && len(n.Lacks(codec)) == 0
}

// Lacks returns the judgements of codec on the wanted needs that are not
// met.
func (n *Needs) Lacks(codec string) []Judgement {
	c := n.codec(codec)
	if c == nil {
		return nil
	}
	var out []Judgement
	for _, j := range c.Judgements {
		if j.Status != NeedMet && slices.Contains(n.Wanted, j.Need) {
			out = append(out, j)
		}
	}
	return out
}

func (n *Needs) codec(name string) *NeedCodec {
	if n == nil {
		return nil
	}
	for i := range n.Codecs {
		if n.Codecs[i].Codec == name {
			return &n.Codecs[i]
		}
	}
	return nil
}
