// Package study runs studies. A study is cases run against codecs: the
// fidelity probes, the hostile inputs, the schema changes, and whatever
// comes next. A study is a value (Study): it brings its cases, which
// codecs take part, what one cell does in a child process and how a
// cell's outcome is recorded; Run is the one driver that runs any such
// value on the one worker.Pool, and owns everything else.
//
// # What the driver owns
//
// Run checks the codec and case names asked for (an unknown name gets
// "did you mean"; a codec the study does not take says why), builds the
// matrix header (Header: module, version and API for every row), runs the
// cells in rounds of child processes (worker.Pool.RunRounds) with the step
// timeout passed in (never set on the pool), journals each cell as it
// ends, records the elapsed time and the settings, and judges the
// verdicts. A study never builds a header, sets a pool's field, recovers
// a codec's panic in the parent, or writes a file.
//
// # Writing a study
//
//  1. Describe the matrix as data: a results.Study with its name (the name
//     of its files and of its worker task), outcomes and verdict rules.
//  2. List its cases ([]Case, in matrix order) and what a flag and
//     `serbench list` call them (CaseList: "probes").
//  3. Say which codecs take part by what their codec.Info declares, never
//     by name: Takes returns "" for a codec that takes part, or why it
//     cannot ("an in-place reader: its round trips are json's").
//  4. Write the child's side, Cell: one case through one codec, in the
//     child, returning what Record needs (any JSON value). Call step
//     before each part that may crash or hang; the parent blames the last
//     step and restarts the timeout there. With PerCodec, one child runs
//     every case left of a codec and the driver announces each case as
//     the step. Call the codec through the one panic guard, codec.Guard or
//     codec.GuardValue: a panic comes back as a *codec.PanicError (its
//     value and stack) to record as the study says; never write a recover
//     of your own.
//  5. Write Record, the parent's side: it reads the end of a cell's task
//     (worker.TaskResult: an output, a handler error, or how the child
//     died) into Cell.Result, and returns true to run the cell again in
//     the next round (from past an input that killed its child, say),
//     keeping what it needs in Cell.State. Died says in words how a child
//     died, the same way for every study.
//  6. Make it a command, in cmd/serbench/internal/cli: a studyCommand
//     (study.go) holding a func returning the value, the usage line, the
//     about text and the default -parallel, its run method called from
//     dispatch (cli.go); the value's Handler in studyHandlers (cli.go),
//     which children serve; its cases in list.go, for `serbench list
//     CASELIST` (docs/engine.md lists every line a command touches). The template gives every study command
//     the same flags (-codecs, -CASELIST, -o, -parallel, -timeout, -v,
//     -resume), the same name checks before any work, the journal, and
//     NAME.csv and NAME.json in -o.
//  7. Test it on a worker.Pool whose Command starts the test binary
//     serving the study's Handler (study_test.go and
//     fidelity/process_test.go do so): table tests of what Record makes of
//     each way a task ends, not of wording.
//
// A minimal study, every cell in a child of its own:
//
//	var Spec = &study.Study{
//		Matrix: results.Study{Name: "echo", CaseWord: "value", ...},
//		Cases:  []study.Case{{Name: "zero"}, {Name: "max"}},
//		Takes: func(info codec.Info) string {
//			if info.API != codec.Reflection {
//				return "needs a schema for the values"
//			}
//			return ""
//		},
//		Cell: func(ctx context.Context, t study.Task, step func(string)) (any, error) {
//			step("encode")
//			return roundTrip(t.Codec, t.Case), nil // a results.MatrixCell
//		},
//		Record: func(c *study.Cell, r worker.TaskResult) bool {
//			if why := study.Died(r); why != "" {
//				c.Result.Outcome, c.Result.Detail = "crashed", why
//			} else if err := study.Decode(r, &c.Result); err != nil {
//				c.Result.Outcome, c.Result.Detail = "crashed", err.Error()
//			}
//			return false
//		},
//	}
//	m, err := study.Run(ctx, pool, Spec, study.Options{Codecs: []string{"json"}})
//
// A study that must prepare its cells before the first round (hostile's
// canonical seed encodings, computed in one child per codec) sets Before:
// it runs the study's own child side through the run function it is
// given, keeps what each cell needs in Cell.State, and may finish a cell
// that does not apply without a task. Limits gives a cell's next task its
// caps (hostile's replay of a reproducer in a default Go process).
//
// Options a study has of its own (hostile's -quick) go into the value
// built by a function of them, and into the task through Input, which the
// child reads back in Task.Input.
//
// # Estimates
//
// Run tells Options.Task each task's wall time, whether it was its cell's
// first and whether the cell runs again: the CLI's Pacer makes the
// estimate of work from them, every cell's first task at the mean of the
// first, and the re-runs the rounds after them hold at Study.Rerun times
// their first task's cost (hostile's replays of a reproducer), once the
// first tasks tell the mean to within a quarter.
//
// # Journal and resume
//
// Run hands each cell to Options.Journal as it ends (the CLI appends it to
// NAME.journal.jsonl in the output directory, synced), and runs none of
// Options.Done, the cells a killed run finished. Ctrl-C, kill -9 or a full
// disk therefore keep every cell done, and `serbench NAME -resume DIR`
// finishes the matrix.
package study
