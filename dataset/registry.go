package dataset

import "github.com/serbench/serbench/internal/suggest"

// All lists every dataset, smallest first within each family. It is the one
// place dataset names come from.
var All = []*Dataset{
	define("tiny", "Tiny: an int64 and a string", "seeds 000, 002", 5, NewTiny),
	define("medium", "Medium: pointers, a float, a time, a Tiny; past the first (seed 000's 10.24), floats of full precision, every fourth whole", "seeds 000, 002", 10, NewMedium),
	define("big", "Big: three times, bytes, a Medium by value and by pointer", "seeds 000, 002", 50, NewBig),
	define("huge", "Huge: 1,380 Bigs in four slices", "seeds 000, 002", 50, NewHuge),
	withXL(define("complexmap", "ComplexMap: 50 Huge in a map (69,000 Bigs)", "seeds 000, 002", 10, NewComplexMap)),
	define("complexmap5", "ComplexMap of 5 Huge: seed 000's maps; its slices are seed 000's 10 maps (50 Huge)", "seed 000", 10, NewComplexMap5),
	withXL(define("complexmapptr", "ComplexMapPtr: seed 002's map[string]*Huge, 50 Huge", "seed 002", 10, NewComplexMapPtr)),
	define("user", "User: id, name, email", "seed 001", 100, NewUser),
	define("metric", "Metric: three numbers; its slice is seed 001's 100 metrics; past the first (seed 001's), floats of full precision, every fourth Value whole", "seed 001", 100, NewMetric),
	define("complexdata", "ComplexData: 100 users, a 10-entry map, a count, a flag", "seed 001", 0, NewComplexData),
	define("game", "A: seed 003's game-server message with maps of pointers", "seed 003", 10, NewA),
	define("gameround", "GameRound: seed 003's round trip, the ints 23422 and 0 and the message A", "seed 003", 0, NewGameRound),
	define("intmap", "IntMap: three Bs keyed by ints, for seed 003's claim on map keys", "seed 003", 0, NewIntMap),
	define("int64", "int64: a single integer, 23422", "seed 004", 0, NewInt64),
	define("edge", "Edge: nil vs empty, zero pointer, zoned time, extreme numbers, a full-precision float (verification)", "serbench", 0, NewEdge),
	define("edgeportable", "EdgePortable: Edge without a uint64 above MaxInt64 or a tab in text (verification)", "serbench", 0, NewEdgePortable),
	define("edgemaps", "EdgeMaps: nil vs empty maps (verification)", "serbench", 0, NewEdgeMaps),
}

func withXL(d *Dataset) *Dataset {
	d.XLSlices = true
	return d
}

// Lookup returns the dataset named name.
func Lookup(name string) (*Dataset, error) {
	for _, d := range All {
		if d.Name == name {
			return d, nil
		}
	}
	return nil, Check([]string{name})
}

// Check returns an error naming every one of names that is not a
// dataset, each with the closest datasets, or nil if all are datasets.
func Check(names []string) error {
	return suggest.Check("dataset", names, Names(), nil, "serbench list datasets")
}

// Names returns the names of all datasets.
func Names() []string {
	var names []string
	for _, d := range All {
		names = append(names, d.Name)
	}
	return names
}
