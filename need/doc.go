// Package need turns what a user needs of a format into a filter on
// codecs, each need backed by evidence: a study's matrix (hostile input,
// schema evolution, fidelity, cross-language interop, adoption cost) or a
// fact the codec declares (its API kind, its format's family, its
// streaming and in-place reading).
//
// A Need is data: its name in the user's words, the study that decides
// it and what it accepts there. Judge gives each codec a Judgement per
// need (met, failed with the evidence, or unknown when the study that
// decides it has not run), and Filter splits the candidates into those
// that meet every need and those excluded, with the first need each
// fails. The answer in summary.md and the toggles in report.html read the
// judgements from results.Needs.
package need
