package dataset

import "github.com/serbench/serbench/internal/suggest"

// All lists every dataset, smallest first within each family. It is the one
// place dataset names come from.
var All = []*Dataset{
	define("tiny", "Tiny: an int64 and a string", "seeds 000, 002", 5, NewTiny),
	define("medium", "Medium: pointers, a float, a time, a Tiny", "seeds 000, 002", 10, NewMedium),
	define("big", "Big: three times, bytes, a Medium by value and by pointer", "seeds 000, 002", 50, NewBig),
	define("huge", "Huge: 1,380 Bigs in four slices", "seeds 000, 002", 50, NewHuge),
	withXL(define("complexmap", "ComplexMap: 50 Huge in a map (69,000 Bigs)", "seeds 000, 002", 10, NewComplexMap)),
	define("complexmap5", "ComplexMap of 5 Huge: seed 000's maps; its slices are seed 000's 10 maps (50 Huge)", "seed 000", 10, NewComplexMap5),
	withXL(define("complexmapptr", "ComplexMapPtr: seed 002's map[string]*Huge, 50 Huge", "seed 002", 10, NewComplexMapPtr)),
	define("user", "User: id, name, email", "seed 001", 100, NewUser),
	define("metric", "Metric: three numbers; its slice is seed 001's 100 metrics", "seed 001", 100, NewMetric),
	define("complexdata", "ComplexData: 100 users, a 10-entry map, a count, a flag", "seed 001", 0, NewComplexData),
	define("game", "A: seed 003's game-server message with maps of pointers", "seed 003", 10, NewA),
	define("gameround", "GameRound: seed 003's round trip, the ints 23422 and 0 and the message A", "seed 003", 0, NewGameRound),
	define("intmap", "IntMap: three Bs keyed by ints, for seed 003's claim on map keys", "seed 003", 0, NewIntMap),
	define("int64", "int64: a single integer, 23422", "seed 004", 0, NewInt64),
	define("edge", "Edge: nil vs empty, zero pointer, zoned time, extreme numbers (verification)", "serbench", 0, NewEdge),
	define("edgeportable", "EdgePortable: Edge without a uint64 above MaxInt64 or a tab in text (verification)", "serbench", 0, NewEdgePortable),
	define("edgemaps", "EdgeMaps: nil vs empty maps (verification)", "serbench", 0, NewEdgeMaps),

	// The corpora: real documents JSON libraries are measured on.
	corpus[Canada]("canada_geometry", "Canada: GeoJSON outline, 7,154 full-precision points in 480 rings", fromJSONExperiment("canada_geometry", 270403, "6d07f7f8afca3c68055bcce796ff658e3b5790737d1615711a5d39a5961bb2db")),
	corpus[CITM]("citm_catalog", "CITM: a ticket catalogue, maps keyed by id, 243 performances, 8,685 seat areas", fromJSONExperiment("citm_catalog", 1727204, "a73e7a883f6ea8de113dff59702975e60119b4b58d451d518a929f31c92e2059")),
	corpus[Golang]("golang_source", "Golang: the Go source tree, 13,000 nodes up to 15 deep, with commit statistics", fromJSONExperiment("golang_source", 1940472, "23e8e3541eac3570958d6d430fc82867874be78a435580279b20f1efe5a6169f")),
	corpus[Strings]("string_escaped", "Strings: the 60 blocks as the document writes them, \\u escapes as text", literal(fromJSONExperiment("string_escaped", 42062, "ca0aaea6300da53ec86596a72b8750ea5c5c301647e9b90d9b5a08fe09bcff50"))),
	corpus[Strings]("string_unicode", "Strings: the same 60 Unicode blocks' characters in UTF-8", fromJSONExperiment("string_unicode", 18124, "da96cffd3a60d7bd4fe67416f94715e74479873e999561e35a4d779490d66875")),
	corpus[Synthea]("synthea_fhir", "Synthea: a FHIR bundle, one patient's 926 health records of a dozen kinds", fromJSONExperiment("synthea_fhir", 2008494, "2beda3c35ce039d4ec37114490ff8fc719a4377ad697ce912e8df74c647f1f3d")),
	corpus[Twitter]("twitter_status", "Twitter: 100 statuses from the search API with users and entities, much of it Japanese", fromJSONExperiment("twitter_status", 631514, "a08b769f32b95f426cbc3abafcec65c1a19d3eb544d4ddf320eae142c99efc5d")),
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
