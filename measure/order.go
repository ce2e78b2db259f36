package measure

import (
	"reflect"
	"slices"

	"github.com/serbench/serbench/runner"
)

// smallFirst returns jobs in the order a run with a whole-run time
// measures them: by the size of their values (Weight), smallest first,
// the jobs of one dataset and shape kept together in their order. A run
// whose time ends then cuts short the largest values, whose setup alone
// can take minutes, and not every benchmark that follows the first of
// them. The outputs list results in the jobs' own order whatever the
// order of measuring.
func smallFirst(jobs []runner.Job) []runner.Job {
	weight := map[[2]string]int{}
	for _, j := range jobs {
		k := [2]string{j.Dataset, j.Shape}
		if _, ok := weight[k]; ok || j.Value == nil {
			continue
		}
		v, err := j.Value()
		if err != nil {
			continue // the job reports its own error when it runs
		}
		weight[k] = Weight(v)
	}
	out := slices.Clone(jobs)
	slices.SortStableFunc(out, func(a, b runner.Job) int {
		return weight[[2]string{a.Dataset, a.Shape}] - weight[[2]string{b.Dataset, b.Shape}]
	})
	return out
}

// Weight counts the scalar values (numbers, strings, bools, byte slices,
// times) reachable from v: a measure of how much a codec has to do with
// it, independent of any codec.
func Weight(v any) int {
	n := 0
	seen := map[uintptr]bool{}
	var walk func(reflect.Value)
	walk = func(x reflect.Value) {
		switch x.Kind() {
		case reflect.Pointer, reflect.Interface:
			if x.IsNil() {
				return
			}
			if x.Kind() == reflect.Pointer {
				if seen[x.Pointer()] {
					return
				}
				seen[x.Pointer()] = true
			}
			walk(x.Elem())
		case reflect.Struct:
			if x.Type().PkgPath() == "time" {
				n++
				return
			}
			for i := range x.NumField() {
				walk(x.Field(i))
			}
		case reflect.Slice, reflect.Array:
			if x.Type().Elem().Kind() == reflect.Uint8 {
				n++
				return
			}
			for i := range x.Len() {
				walk(x.Index(i))
			}
		case reflect.Map:
			iter := x.MapRange()
			for iter.Next() {
				walk(iter.Key())
				walk(iter.Value())
			}
		default:
			n++
		}
	}
	walk(reflect.ValueOf(v))
	return n
}
