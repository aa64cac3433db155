#pragma once

#include "dumpscope/result.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace dumpscope {

// The reference's decision tree over bitwise results of every step found, plus the root cause
// by dataflow. Reads Analysis::buffers, errorA/B and schema; does not touch the matrix.
Verdict decide(const Analysis& analysis);

// Why nothing could be compared — a run directory missing, unreadable or without dumps, or no
// selected step dumped in either run — or empty when buffers were compared. decide() gives
// exit code 2 when it is not empty; the text report and the reports say it in their verdict.
std::string_view notComparedReason(const Analysis& analysis);

// The culprit row's buffers without a pair result and why, "q_logits only in run B, v_pred
// unreadable"; empty when the row has none. Every front end names them this way.
std::string unjudgedText(const CulpritRow& row);

// "2 buffer(s) in one run only were not compared: the verdict covers the buffers in both runs
// only", or empty when every buffer is in both runs.
std::string oneSidedWarning(const Verdict& verdict);
// Why the root cause stops short, one line per root-cause group that could not be blamed and
// per input that kept it from being blamed, e.g. "group H (head fwd outputs) could not be
// judged: q_logits only in run B", "group J (per-head grad_h_t) diverges and no divergent group
// feeds it: it is the source only if group H is equal". Empty when nothing stopped it.
std::vector<std::string> undecidedRootLines(const Analysis& analysis);

// A divergent group fed by group-level dataflow alone is an UnclearSource when its divergent
// inputs are at most this many buffers, and at most a quarter of its inputs dumped at the step:
// a divergence that narrow upstream may well not be what this group reads.
inline constexpr std::size_t kFewDivergentInputs = 3;

// What the root cause cannot settle from the dumps, one line each: a group that may be a
// second source, with the "inputs" declaration that would decide it, and a source whose equal
// inputs are dumped at half precision, which hides differences below 2^-8 (bf16) or 2^-11
// (f16) relative. Empty when there is nothing to add.
std::vector<std::string> rootCauseNotes(const Analysis& analysis);
// The relative precision of an element type's significand: 2^-8 for bf16, 2^-11 for f16,
// 2^-4 for f8_e4m3, 2^-3 for f8_e5m2; 0 for f32, f64 and the integers, whose equality hides
// nothing a wider source would show.
double relativePrecision(DType t);

// The decision case for a set of divergent group ids at the first divergent step, exactly as
// the reference branches (G only; H without G; I; J without I; anything else unexpected).
DecisionCase decisionCaseFor(const std::vector<std::string>& divergedGroupIds);
// The interpretation text the reference prints for that case.
std::string decisionText(DecisionCase c);

// How many names a list in a verdict shows before it is cut; --json and the reports' tables
// have them all.
inline constexpr std::size_t kListedNames = 8;
// "a, b, c", or past `shown` names "a, b … and 170 more": the one way every front end
// shortens a long list of buffers or groups.
std::string namesCut(const std::vector<std::string>& names, std::size_t shown = kListedNames);

} // namespace dumpscope
