// Package fidelity shows what survives a codec's round trip, probe by
// probe: a catalogue of small typed values (Probes), each run through a
// codec (Check) to one of a few outcomes: exact, equal after a named
// normalisation, changed (with the diff), refused at encode or at decode,
// unsupported as declared, or crashed.
//
// Spec is the study as a value, run by the one study driver (study.Run):
// every probe through every codec, each codec in child processes of a
// worker.Pool, so that a codec that crashes its process or hangs on a
// probe costs that cell alone. The result is a Matrix (a results.Matrix of the fidelity Study, whose
// outcomes and verdict rules are data), drawn by the renderers of every
// study matrix (report/matrix, report/html) and saved as fidelity.json.
//
// Derive reads a codec's row back into the data its codec.Info declares by
// hand (unsupported features, losses); Mismatches compares the two, and
// the package's tests fail on any difference for a registered codec.
package fidelity

//go:generate go run ./internal/gencodecs -o ../docs/codecs.md
