package dataset

import (
	"bytes"
	"encoding/json"
)

// The synthea_fhir fields whose JSON type varies between resources are
// structs with a field per type; these methods read and write whichever
// one a resource has, as the document does. Every JSON codec calls them
// (they are encoding/json's Marshaler and Unmarshaler), so each spends
// the same time in them; codecs of other formats encode the structs.

// MarshalJSON writes the list of human names, else the text, else null.
func (n SyntheaName) MarshalJSON() ([]byte, error) {
	switch {
	case n.Humans != nil:
		return json.Marshal(n.Humans)
	case n.Text != "":
		return json.Marshal(n.Text)
	}
	return []byte("null"), nil
}

// UnmarshalJSON reads a list of human names or a string.
func (n *SyntheaName) UnmarshalJSON(b []byte) error {
	return unmarshalEither(b, &n.Humans, &n.Text)
}

// MarshalJSON writes the list, else the one CodeableConcept, else null.
func (t SyntheaType) MarshalJSON() ([]byte, error) {
	switch {
	case t.List != nil:
		return json.Marshal(t.List)
	case t.One.Coding != nil || t.One.Text != "":
		return json.Marshal(t.One)
	}
	return []byte("null"), nil
}

// UnmarshalJSON reads a list of CodeableConcepts or one.
func (t *SyntheaType) UnmarshalJSON(b []byte) error {
	return unmarshalEither(b, &t.List, &t.One)
}

// MarshalJSON writes the list, else the amount, else null.
func (t SyntheaTotal) MarshalJSON() ([]byte, error) {
	switch {
	case t.List != nil:
		return json.Marshal(t.List)
	case t.Amount != (SyntheaCurrency{}):
		return json.Marshal(t.Amount)
	}
	return []byte("null"), nil
}

// UnmarshalJSON reads a list of adjudications or one amount.
func (t *SyntheaTotal) UnmarshalJSON(b []byte) error {
	return unmarshalEither(b, &t.List, &t.Amount)
}

// unmarshalEither decodes b into list if it is a JSON array, into one
// otherwise; null leaves both as they are.
func unmarshalEither(b []byte, list, one any) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		return nil
	case len(b) > 0 && b[0] == '[':
		return json.Unmarshal(b, list)
	}
	return json.Unmarshal(b, one)
}
