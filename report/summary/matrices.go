package summary

import "github.com/serbench/serbench/report/matrix"

// matrices writes, for each study matrix beside the run, its section:
// the study's question and each codec's verdict, with why.
func (s *writer) matrices() {
	for _, m := range s.ix.run.Matrices {
		s.p("")
		matrix.WriteMarkdown(s.w, m) // s.w is buffered: Write reports its error
	}
}
