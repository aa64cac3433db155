#pragma once

#include "dumpscope/result.h"

#include <string_view>

namespace dumpscope {

// The reference's decision tree over bitwise results of every step found, plus the root cause
// by dataflow. Reads Analysis::buffers, errorA/B and schema; does not touch the matrix.
Verdict decide(const Analysis& analysis);

// Why nothing could be compared — a run directory missing, unreadable or without dumps, or no
// selected step dumped in either run — or empty when buffers were compared. decide() gives
// exit code 2 when it is not empty; the text report and the reports say it in their verdict.
std::string_view notComparedReason(const Analysis& analysis);

// The decision case for a set of divergent group ids at the first divergent step, exactly as
// the reference branches (G only; H without G; I; J without I; anything else unexpected).
DecisionCase decisionCaseFor(const std::vector<std::string>& divergedGroupIds);
// The interpretation text the reference prints for that case.
std::string decisionText(DecisionCase c);

} // namespace dumpscope
