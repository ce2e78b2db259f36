package evolve

import (
	"fmt"
	"reflect"

	"github.com/mailru/easyjson"
	"github.com/tinylib/msgp/msgp"

	"github.com/serbench/serbench/evolve/change"
	gov1 "github.com/serbench/serbench/evolve/gotypes/v1"
	gov2 "github.com/serbench/serbench/evolve/gotypes/v2"
)

// genFormat reads and writes a case's generated Go types (package
// evolve/gotypes) with the methods a code generator wrote for them: msgp's
// MarshalMsg and UnmarshalMsg, or easyjson's.
type genFormat struct{ easyjson bool }

// genType returns the generated Go type of version v of case c.
func genType(c *change.Case, v change.Version) (reflect.Type, error) {
	types := gov1.Types
	if v.Name == "v2" {
		types = gov2.Types
	}
	t, ok := types[change.TypeName(c.Name)]
	if !ok {
		return nil, fmt.Errorf("evolve: no generated type %s; run go generate ./evolve/gotypes", change.TypeName(c.Name))
	}
	return t, nil
}

func (f genFormat) encode(c *change.Case, w change.Version) ([]byte, error) {
	t, err := genType(c, w)
	if err != nil {
		return nil, err
	}
	return f.marshal(newGo(t, w).Interface())
}

func (f genFormat) marshal(v any) ([]byte, error) {
	if f.easyjson {
		m, ok := v.(easyjson.Marshaler)
		if !ok {
			return nil, stale(v, "easyjson")
		}
		return easyjson.Marshal(m)
	}
	m, ok := v.(msgp.Marshaler)
	if !ok {
		return nil, stale(v, "msgp")
	}
	return m.MarshalMsg(nil)
}

// stale says that the generated type of v lacks the methods gen writes:
// a half regeneration.
func stale(v any, gen string) error {
	return fmt.Errorf("evolve: %T has no %s methods; run go generate ./evolve/gotypes", v, gen)
}

func (f genFormat) decode(c *change.Case, _, r change.Version, data []byte) (any, error) {
	t, err := genType(c, r)
	if err != nil {
		return nil, err
	}
	v := reflect.New(t).Interface()
	if f.easyjson {
		u, ok := v.(easyjson.Unmarshaler)
		if !ok {
			return nil, stale(v, "easyjson")
		}
		return v, easyjson.Unmarshal(data, u)
	}
	u, ok := v.(msgp.Unmarshaler)
	if !ok {
		return nil, stale(v, "msgp")
	}
	_, err = u.UnmarshalMsg(data)
	return v, err
}

func (f genFormat) reencode(_ *change.Case, _ change.Version, native any) ([]byte, error) {
	return f.marshal(native)
}

func (genFormat) record(_ *change.Case, r change.Version, native any) (change.Record, error) {
	return goRecord(r, native)
}
