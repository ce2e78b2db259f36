// Package cost is the cost study: what adopting a codec costs a project
// besides its run time, as a matrix of codecs by costs on the study
// driver (package study; Spec returns the value, `serbench cost` runs
// it). Each cell shows its figure.
//
// # The mains
//
// A codec's figures come from a generated program: a main that imports
// the codec's adapter package (Locate finds the exported variable holding
// its codec.Info) and encodes and decodes one value of a dataset through
// it once. The baseline is the same main with serbench's codec contract,
// the dataset package and a codec that refuses every value, but no
// adapter: what a codec's main has beyond it is the library's, and the
// adapter's few lines (and serbench's shared adapter helpers, counted
// apart). The mains are written into a temporary directory outside the
// tree, one module each, with a go.work that uses them and the checkout
// (Workspace), so nothing is written into the repository and each main
// builds with the checkout's module requirements. Every build is
// stripped and trimmed (BuildFlags: -trimpath -ldflags='-s -w').
//
// Before the driver's rounds the parent writes every main, lists them all
// with one go list (Workspace.List; the deps, unsafe and code cells come
// from it), and has a child build all of them at once, Options.Runs
// times (ColdBuild): a package two codecs share is compiled once per
// build, not once per codec, and each build's figures fall on every codec
// alike. The deterministic and upkeep cells then run in children of
// their own.
//
// # The costs
//
//   - binary: the main's size less the baseline's, in bytes, exact, from
//     the first build.
//   - build: the CPU-seconds (user+sys) a cold build of the main costs
//     from a build cache seeded with the standard library alone: the
//     tools the go command runs for its packages outside the standard
//     library (compile, asm, cgo) and its link, each tool's rusage logged
//     by a -toolexec wrapper (Accounting), less the same figure of the
//     baseline's. The go command's own work (loading, hashing, its
//     questions to the tools) is in no codec's figure; the matrix's
//     settings give it for the whole build. Each build has a cache of its
//     own, a hard-linked copy of the seed, which is kept between runs in
//     the user's cache directory since it holds nothing of a codec; the
//     tools' output passes through the wrapper unchanged, so their action
//     IDs, and the seed's hits, are as without it. The median of the
//     builds and its 95% interval are benchmath's (results.Summarize).
//     The interval says how the builds of one run agree, not how a run
//     at another hour does: a compiler's CPU time moves with what runs
//     beside it (the other builds, a busy loop, a shared host's other
//     tenants), per package and so per codec: two codecs are compared
//     within one run. Each tool runs with one P
//     (GOMAXPROCS=1), so that its collector's idle workers do not turn
//     the CPUs a quiet machine leaves idle into CPU time.
//   - deps: the modules and packages outside the standard library the
//     main adds (go list -deps), each module's licence as
//     github.com/google/licensecheck reads its LICENSE file, and whether
//     any package uses cgo.
//   - unsafe: the added packages that import unsafe, hold assembly (.s
//     files), use cgo, or map memory executable (PROT_EXEC: a JIT).
//   - code: the lines of serbench's own packages the codec adds: Go files
//     with Go's generated header, the schema files beside them, the
//     hand-written rest; and the generators their //go:generate lines run.
//   - deterministic: the same value (the first dataset whose type has maps
//     and that round-trips through the codec) encoded again and again in
//     one child, in a second, fresh, child, and with its maps filled in
//     another order (Refill): the same bytes or not. A codec's canonical
//     mode, where its library has one its default does not use, is named
//     from codec.Adoption.Canonical.
//   - upkeep: the module's latest version and its date from the module
//     proxy (@latest, else the newest of @v/list and its .info), the age of
//     the version the checkout pins, and whether the next major version's
//     module exists. Offline, or for a module the proxy lists no version
//     of, the cell says so instead of failing.
//
// # Declared and measured
//
// What is a fact about a library is declared in codec.Info.Adopt: JIT
// (sonic), the generator a user must install, the canonical mode. JIT and
// the generator are measured too, and a cell whose measurement
// contradicts its codec's declaration is marked so (Contradicted);
// TestDeclarations checks every codec's declarations against one go list
// of the adapters (ListAdapters), without building anything.
//
// Grades (light, moderate, heavy, very heavy) are thresholds on each
// figure, stated in the case's description (Cases).
package cost
