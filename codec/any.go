package codec

// An AnyDecoder is a Case that also decodes into generic values (maps,
// lists, numbers and strings of the library's choosing) without the
// prepared value's type: what a proxy, a logger or a tool that does not
// know the schema does. The decode-any op times it, verifies the result
// against the typed value's generic form, and reports the Go types the
// library chose for numbers and maps.
type AnyDecoder interface {
	// DecodeAny decodes data, produced by Encode, into a new generic
	// value.
	DecodeAny(data []byte) (any, error)
}

// DecodeAny makes a reflectCase an AnyDecoder: unmarshal(data, &v) for v
// of type any.
func (c *reflectCase) DecodeAny(data []byte) (any, error) {
	var v any
	err := c.unmarshal(data, &v)
	return v, err
}
