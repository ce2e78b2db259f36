// Package report groups serbench's renderers, and writes them all into a
// directory (WriteFiles). Each subpackage turns a results.Run into one
// output format on an io.Writer; none of them measures anything or opens
// files.
//
//   - bench: Go's benchmark format, read by benchstat
//   - csvfile: one CSV row per benchmark
//   - table: the text table printed to the terminal
//   - summary: summary.md, the findings the data supports
//   - html: report.html, one offline page with charts and a table, and a
//     section per study matrix
//   - matrix: any study's matrix (fidelity, hostile, ...) as text, CSV
//     and a section of summary.md
//
// WriteMatrix writes a study's matrix files (NAME.json, NAME.csv, NAME/);
// ReadMatrices reads those a directory holds.
package report
