#pragma once

// Hand-built analyses shared by the report tests: hostile names from a schema and from file
// names, and every non-finite statistic.

#include "dumpscope/result.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <bit>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace dumpscope::test::report {

inline constexpr const char* kScript = "<script>alert(1)</script>";
inline constexpr const char* kAmp = "a&b\"c";
inline const std::string kBadUtf8 = "bad\xff\xfe";
inline const std::string kPipeTick = "p|q`r";

inline std::uint64_t bits(float f) {
    return std::bit_cast<std::uint32_t>(f);
}

inline dumpscope::BufferResult buffer(const std::string& group, const std::string& name,
                                      dumpscope::Status status) {
    dumpscope::BufferResult b;
    b.step = 3;
    b.group = group;
    b.name = name;
    b.fileName = "step_3_" + name + ".bin";
    b.status = status;
    b.pending = false;
    b.stats.nA = b.stats.nB = 4;
    return b;
}

inline dumpscope::GroupCell cell(const std::string& group, dumpscope::Status status,
                                 std::vector<std::size_t> buffers, std::size_t nDivergent,
                                 double maxAbsDelta) {
    dumpscope::GroupCell c;
    c.group = group;
    c.status = status;
    c.buffers = std::move(buffers);
    c.nDivergent = nDivergent;
    c.maxAbsDelta = maxAbsDelta;
    return c;
}

// Hostile names from a schema and from file names, and every non-finite statistic.
inline dumpscope::Analysis hostileAnalysis() {
    using dumpscope::Status;
    auto schema = std::make_shared<dumpscope::Schema>();
    schema->name = "hostile <schema>";
    schema->groups.push_back({"G",
                              "G <b>label</b>",
                              {{kScript, "g_x", dumpscope::DType::f32, {}},
                               {kAmp, "g_y", dumpscope::DType::f32, {}},
                               {kPipeTick, "g_z", dumpscope::DType::f32, {}}}});

    dumpscope::Analysis a;
    a.runA = "/tmp/runs/a\xff";
    a.runB = "/tmp/runs/b";
    a.schema = schema;
    a.steps = {3};

    auto script = buffer("G", kScript, Status::diverge);
    auto& s = script.stats;
    s.nDiff = 2;
    s.firstDiff = 1;
    s.lastDiff = 3;
    s.maxAbsDelta = std::numeric_limits<double>::infinity();
    s.maxAbsDeltaIndex = 3;
    s.maxRelDelta = std::nan("");
    s.maxUlp = 5;
    s.nanB = 1;
    s.infB = 1;
    s.hashA = 0x1234;
    s.hashB = 0xdeadbeefcafef00dull;
    s.firstDiffs = {{1, bits(1.0f), 0x7fc00000u, std::nan("")},
                    {3, bits(-2.5f), bits(-INFINITY), INFINITY}};
    s.largestDiffs = {s.firstDiffs[1], s.firstDiffs[0]};
    s.deltaHistogram.counts[static_cast<std::size_t>(-7 - dumpscope::DeltaHistogram::kMinDecade)] =
        3;
    s.deltaHistogram.counts[static_cast<std::size_t>(2 - dumpscope::DeltaHistogram::kMinDecade)] =
        1;
    s.deltaHistogram.zero = 1;
    s.deltaHistogram.nan = 1;
    s.ulpHistogram.counts[0] = 2;
    s.ulpHistogram.counts[5] = 1;
    s.ulpHistogram.undefined = 1;

    script.kind = dumpscope::Kind::nan_inf_mismatch;
    auto amp = buffer("G", kAmp, Status::only_in_a);
    auto pipe = buffer("G", kPipeTick, Status::within_tolerance);
    pipe.kind = dumpscope::Kind::numeric;
    pipe.stats.nDiff = 1;
    pipe.stats.firstDiff = pipe.stats.lastDiff = 0;
    pipe.stats.maxAbsDelta = 0.5;
    pipe.stats.maxAbsDeltaIndex = 0;
    pipe.stats.maxRelDelta = 0.25;
    pipe.stats.maxUlp = 4194304;
    pipe.stats.firstDiffs = {{0, bits(2.0f), bits(1.5f), 0.5}};
    pipe.stats.deltaHistogram
        .counts[static_cast<std::size_t>(-1 - dumpscope::DeltaHistogram::kMinDecade)] = 1;
    pipe.stats.ulpHistogram.counts[22] = 1;
    auto bad = buffer(dumpscope::kOtherGroup, kBadUtf8, Status::error);
    bad.error = "step_3_" + kBadUtf8 + ".bin: size 7 not a multiple of 4 <b>";
    a.buffers = {script, amp, pipe, bad};

    dumpscope::StepResult step;
    step.step = 3;
    step.cells.push_back(
        cell("G", Status::diverge, {0, 1, 2}, 2, std::numeric_limits<double>::infinity()));
    step.cells.push_back(cell(dumpscope::kOtherGroup, Status::error, {3}, 0, 0));
    a.matrix = {step};
    a.unclassified = {"step_3_" + kBadUtf8 + ".bin"};
    a.warnings = {std::string("warn ") + kScript + " \xff"};

    auto& v = a.verdict;
    v.exitCode = 2;
    v.firstDivergentStep = 3;
    v.divergedGroups = {"G"};
    v.decisionCase = dumpscope::DecisionCase::g_only;
    v.text = "  first line <i>\n  second ```line```";
    v.culprits = {{"G", "G <b>label</b>", true, {kScript, kPipeTick}, {}}};
    v.rootCause.step = 3;
    v.rootCause.groups = {"G"};
    v.rootCause.buffers = {kScript, kPipeTick};
    v.rootCause.kinds = {dumpscope::Kind::nan_inf_mismatch, dumpscope::Kind::numeric};
    v.rootCause.suggestion = std::string("NaN appears first in ") + kScript;
    a.tolerance.ulp = 4194304;
    return a;
}

// nlohmann's strict dump throws on invalid UTF-8: a compact validity check for any text.
inline void expectValidUtf8(const std::string& text) {
    EXPECT_NO_THROW((void)nlohmann::json(text).dump()) << "output is not valid UTF-8";
}

} // namespace dumpscope::test::report
