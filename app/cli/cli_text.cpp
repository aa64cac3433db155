#include "cli_text.h"

#include "cli_terminal.h"
#include "dumpscope/noise_floor.h"
#include "dumpscope/shape.h"
#include "dumpscope/shards.h"
#include "dumpscope/tolerance_to_pass.h"
#include "dumpscope/verdict.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

namespace dumpscope {

namespace {

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string hex64(std::uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

// Names from file names and schemas, each shown() (cli_terminal.h).
std::string joined(const std::vector<std::string>& v, const char* sep = ", ") {
    std::string s;
    for (const auto& x : v)
        s += (s.empty() ? "" : sep) + shown(x);
    return s;
}

std::string diffDetails(const BufferResult& b) {
    const auto& s = b.stats;
    std::string line =
        std::to_string(s.nDiff) + "/" + std::to_string(std::min(s.nA, s.nB)) + " differ";
    if (const auto n = std::min(s.nA, s.nB); n > 0) {
        char pct[32];
        std::snprintf(pct, sizeof pct, " (%.3g%%)",
                      100.0 * static_cast<double>(s.nDiff) / static_cast<double>(n));
        line += pct;
    }
    if (!s.firstDiff) return line;
    line += ", first " + formatIndex(*s.firstDiff, b.shape) + " last " +
            formatIndex(*s.lastDiff, b.shape);
    if (s.maxAbsDeltaIndex)
        line +=
            ", max|Δ|=" + num(s.maxAbsDelta) + " at " + formatIndex(*s.maxAbsDeltaIndex, b.shape);
    line += ", max rel Δ=" + num(s.maxRelDelta) + ", max ULP=" + std::to_string(s.maxUlp);
    if (s.nanA || s.nanB)
        line += ", NaN A/B " + std::to_string(s.nanA) + "/" + std::to_string(s.nanB);
    if (s.infA || s.infB)
        line += ", Inf A/B " + std::to_string(s.infA) + "/" + std::to_string(s.infB);
    if (s.signedZeroDiffs) line += ", ±0 only " + std::to_string(s.signedZeroDiffs);
    return line;
}

// The smallest --atol, --rtol and --ulp that would each alone make the buffer within tolerance,
// at the end of its line (nothing for a buffer no tolerance could change).
std::string toPassText(const BufferResult& b) {
    const auto t = toleranceToPass(b);
    return t ? ", to pass: " + toleranceToPassText(*t) : std::string();
}

std::string shapeText(const std::vector<std::uint64_t>& dims) {
    std::string s = "[";
    for (std::size_t i = 0; i < dims.size(); ++i)
        s += (i ? ", " : "") + std::to_string(dims[i]);
    return s + "]";
}

std::string sampleDiffs(const BufferResult& b) {
    std::string line;
    for (std::size_t i = 0; i < b.stats.firstDiffs.size() && i < 3; ++i) {
        const auto& d = b.stats.firstDiffs[i];
        line += (line.empty() ? "" : "  ") + std::string("[") + formatIndex(d.index, b.shape) +
                "] A=" + formatValue(b.dtype, d.bitsA) + " B=" + formatValue(b.dtype, d.bitsB);
    }
    return line;
}

Paint statusPaint(Status status) {
    switch (status) {
    case Status::equal:
        return Paint::green;
    case Status::within_tolerance:
    case Status::within_floor:
    case Status::only_in_a:
    case Status::only_in_b:
    case Status::missing:
        return Paint::yellow;
    default:
        return Paint::red;
    }
}

void writeRootCause(const Analysis& an, std::ostream& out, bool color) {
    const Schema& schema = *an.schema;
    const RootCause& rc = an.verdict.rootCause;
    const std::string head = "ROOT CAUSE by dataflow (step " + std::to_string(*rc.step) + "): ";
    if (!rc.groups.empty()) {
        std::vector<std::string> groups;
        for (const auto& id : rc.groups)
            groups.push_back(schema.group(id)->label);
        out << "\n"
            << paint(head + "group " + joined(groups, " and group ") + "; buffer(s) " +
                         shown(namesCut(rc.buffers)),
                     Paint::bold_red, color)
            << "\n";
        out << "  (the divergent groups whose inputs, per the schema's dataflow, are all equal)\n";
        if (!rc.kinds.empty()) {
            std::vector<std::string> kinds;
            for (auto k : rc.kinds)
                kinds.emplace_back(kindName(k));
            out << "  kind: " << joined(kinds) << "\n  → " << shown(rc.suggestion) << "\n";
        }
        // Independent sources in several groups: each with its own kind, as each needs a fix.
        if (rc.groups.size() > 1) {
            std::vector<std::string> sources;
            for (const auto& s : rc.sources)
                sources.push_back(s.group + "/" + s.buffer + " (" + std::string(kindName(s.kind)) +
                                  ")");
            out << "  sources: " << shown(namesCut(sources)) << "\n";
        }
    }
    for (const auto& line : rootCauseNotes(an))
        out << "  " << paint("note:", Paint::yellow, color) << " " << shown(line) << "\n";
    if (rc.undecidedGroups.empty()) return;
    // A group is blamed only when its inputs are known to be equal; say which input is unknown.
    out << (rc.groups.empty() ? "\n" : "")
        << paint(rc.groups.empty() ? head + "not determined: an input could not be judged"
                                   : std::string("  not determined beyond that: an input could "
                                                 "not be judged"),
                 Paint::yellow, color)
        << "\n";
    for (const auto& line : undecidedRootLines(an))
        out << "  " << shown(line) << "\n";
}

// A run in its own terms: the first divergent step, its root buffer(s) in production order (or
// by captured inputs) with their kind, and how many buffers diverge downstream. Every list is
// cut to a few names: --json has them all.
void writeOwnVerdict(const Analysis& an, std::ostream& out, bool color,
                     const std::string& oneSidedNote) {
    const Verdict& v = an.verdict;
    const RootCause& rc = v.rootCause;
    const std::string step = std::to_string(*v.firstDivergentStep);
    out << paint("VERDICT (first divergent step = " + step +
                     (v.firstDivergentRank ? ", rank " + std::to_string(*v.firstDivergentRank)
                                           : std::string()) +
                     "):",
                 Paint::red, color)
        << "\n";
    const std::size_t nGroups = v.divergedGroups.size();
    out << "  diverged group(s): " << shown(namesCut(v.divergedGroups))
        << (nGroups > kListedNames + 1 ? " (" + std::to_string(nGroups) + " groups)" : "") << "\n"
        << oneSidedNote << "\n";
    const std::string head = "ROOT CAUSE in production order (step " + step + "): ";
    if (rc.sources.empty()) {
        out << paint(head + "not determined: no divergent buffer at that step was compared",
                     Paint::yellow, color)
            << "\n";
        return;
    }
    const bool byInputs = std::any_of(rc.sources.begin(), rc.sources.end(),
                                      [](const RootSource& s) { return s.declaredInputs; });
    out << paint(head + (rc.buffers.size() > 1 ? "buffers " : "buffer ") +
                     shown(namesCut(rc.buffers)),
                 Paint::bold_red, color)
        << "\n";
    out << (byInputs ? std::string("  (divergent, while every captured input that fed it is equal)")
                     : "  (the first divergent buffer in production order: " +
                           std::string(orderSourceText(*rc.order)) + ")")
        << "\n";
    if (!rc.kinds.empty()) {
        std::vector<std::string> kinds;
        for (auto k : rc.kinds)
            kinds.emplace_back(kindName(k));
        out << "  kind: " << joined(kinds) << "\n  → " << shown(rc.suggestion) << "\n";
    }
    if (rc.sources.size() > 1) {
        std::vector<std::string> sources;
        for (const auto& s : rc.sources)
            sources.push_back(s.buffer + " (" + std::string(kindName(s.kind)) +
                              (s.rank ? ", rank " + std::to_string(*s.rank) : std::string()) + ")");
        out << "  roots: " << shown(namesCut(sources)) << "\n";
    }
    if (!rc.downstream.empty())
        out << "  downstream: " << rc.downstream.size() << " more divergent buffer(s) at step "
            << step << ", produced after " << (rc.buffers.size() > 1 ? "them" : "it") << ": "
            << shown(namesCut(rc.downstream, 3))
            << (rc.downstream.size() > 4 ? " (--json lists them all)" : "") << "\n";
    for (const auto& line : rootCauseNotes(an))
        out << "  " << paint("note:", Paint::yellow, color) << " " << shown(line) << "\n";
}

// A pair across precisions: both types, and the narrow type's rounding as its verdict.
std::string precisionLine(const BufferResult& b) {
    const CrossPrecision& p = *b.precision();
    const std::string head = (b.rank ? "rank " + std::to_string(*b.rank) + " " : std::string()) +
                             shown(b.name) + " [" + std::string(dtypeName(p.typeOf(true))) +
                             " in A, " + std::string(dtypeName(p.typeOf(false))) + " in B] ";
    const std::string of = " (" + std::to_string(b.stats.nA) + " elements)";
    if (b.status == Status::equal) return head + "WITHIN ROUNDING: " + precisionText(p) + of;
    std::string line = head +
                       (b.status == Status::within_tolerance ? "WITHIN TOLERANCE (" : "DIVERGE (") +
                       std::string(kindName(b.kind)) + ") " + precisionText(p) + of;
    if (p.firstBeyond) {
        const std::uint64_t a = p.narrowInA ? p.firstBeyondNarrowBits : p.firstBeyondWideBits;
        const std::uint64_t bb = p.narrowInA ? p.firstBeyondWideBits : p.firstBeyondNarrowBits;
        line += "; at index " + std::to_string(*p.firstBeyond) +
                ": A=" + formatValue(p.typeOf(true), a) + " B=" + formatValue(p.typeOf(false), bb);
    }
    return line;
}

// More schema groups than fit a screen: the culprit table lists the ones that diverge or could
// not be judged, and counts the others.
constexpr std::size_t kCulpritRowsShown = 12;

} // namespace

namespace {

std::string statusLine(const BufferResult& b) {
    std::string head = (b.rank ? "rank " + std::to_string(*b.rank) + " " : std::string()) +
                       shown(b.name) + " [" + std::string(dtypeName(b.dtype)) + "] ";
    const auto& s = b.stats;
    if (b.crossRank() && !b.pending) {
        std::string line = head + "DIVERGE (" + std::string(kindName(b.kind)) + ")";
        for (const auto& d : *b.crossRank())
            line += (&d == &b.crossRank()->front() ? " " : "; ") + crossRankText(d);
        return line + "; run A against run B at this rank: " +
               std::string(statusName(b.reading->pairStatus));
    }
    if (b.precision() && !b.pending && !isError(b.status)) return precisionLine(b);
    // Compared by fingerprint: no element was read, so no counts, positions or hash to show.
    const bool byFingerprint = b.loggedA || b.loggedB;
    if (byFingerprint && b.status == Status::equal)
        return head + "EQUAL (" + std::to_string(s.nA) + " elements, by fingerprint)";
    if (byFingerprint && b.status == Status::diverge)
        return head + "DIVERGE (" + std::string(kindName(b.kind)) +
               ") fingerprints differ; no element data without full tensors";
    switch (b.status) {
    case Status::equal:
        return head + "EQUAL (" + std::to_string(s.nA) + " elements, xxh3 " + hex64(s.hashA) + ")";
    case Status::diverge:
        return head + "DIVERGE (" + std::string(kindName(b.kind)) + ") " + diffDetails(b) +
               toPassText(b);
    case Status::within_tolerance:
        return head + "WITHIN TOLERANCE (" + std::string(kindName(b.kind)) + ") " + diffDetails(b) +
               toPassText(b);
    case Status::within_floor:
        return head + "WITHIN THE NOISE FLOOR (" + std::string(kindName(b.kind)) + ") " +
               diffDetails(b);
    case Status::length_mismatch:
        return head + "LENGTH MISMATCH A=" + std::to_string(s.nA) + " B=" + std::to_string(s.nB) +
               " elements; common part: " + diffDetails(b);
    case Status::only_in_a:
        return head + "ONLY IN A (" + std::to_string(s.nA) + " elements)";
    case Status::only_in_b:
        return head + "ONLY IN B (" + std::to_string(s.nB) + " elements)";
    case Status::error:
        return head + "ERROR: " + shown(b.error);
    case Status::changed_while_reading:
        return head + "CHANGED WHILE READING: " + shown(b.error);
    case Status::missing:
        break;
    }
    return head + "missing";
}

} // namespace

std::string bufferLine(const BufferResult& b) {
    const std::string line = statusLine(b);
    if (!b.shards() || b.pending || isError(b.status)) return line;
    return line + " (" + shown(shardText(*b.shards(), b.stats.firstDiff)) + ")";
}

void writeTextReport(const Analysis& an, bool quiet, std::ostream& out, bool color) {
    auto red = [color](std::string_view t) { return paint(t, Paint::red, color); };
    auto yellow = [color](std::string_view t) { return paint(t, Paint::yellow, color); };
    // With buffers, but none compared as a pair, their lines still show what each run holds.
    const std::string_view notCompared = notComparedReason(an);
    if (!notCompared.empty() && an.buffers.empty()) {
        out << red("VERDICT: not compared: " + std::string(notCompared) + ".") << "\n";
        return;
    }
    const Schema& schema = *an.schema;
    if (!quiet) {
        for (const auto& row : an.matrix) {
            out << "=== step " << row.step << " ===\n";
            for (const auto& cell : row.cells) {
                // A group of a run in its own terms is its names'; one absent here says nothing.
                if (cell.buffers.empty() && an.terms == VerdictTerms::own) continue;
                const auto* g = schema.group(cell.group);
                out << "  -- "
                    << (g ? "group " + shown(g->label)
                          : std::string("unclassified (compared bytewise)"))
                    << " --\n";
                if (cell.buffers.empty()) out << "    (no dump)\n";
                for (auto i : cell.buffers) {
                    const auto& b = an.buffers[i];
                    out << "    " << paint(bufferLine(b), statusPaint(b.status), color) << "\n";
                    if (differsBitwise(b.status) && !b.stats.firstDiffs.empty()) {
                        out << "      " << sampleDiffs(b) << "\n";
                        if (auto where = placementSummary(b.stats, b.shape); !where.empty())
                            out << "      shape " << shapeText(b.shape) << ": " << where << "\n";
                        if (an.noiseFloor)
                            out << "      against the floor: "
                                << shown(describeAgainstFloor(judgeAgainstFloor(*an.noiseFloor, b)))
                                << "\n";
                    }
                    if (!b.shapeError.empty())
                        out << "      (shape not applied: " << shown(b.shapeError) << ")\n";
                }
            }
        }
        out << "\n";
    }
    const Verdict& v = an.verdict;
    // Right under the verdict: whatever it says covers only the buffers in both runs.
    const std::string oneSidedText = oneSidedWarning(v);
    const std::string oneSidedNote =
        oneSidedText.empty() ? std::string() : yellow("  WARNING: " + oneSidedText + ".") + "\n";
    if (!notCompared.empty()) {
        out << red("VERDICT: not compared: " + std::string(notCompared) + ".") << "\n";
    } else if (!v.firstDivergentStep && v.exitCode == 1) {
        // Never "match" first: the runs differ, only outside what the schema describes.
        std::size_t n = 0;
        for (const auto& b : an.buffers)
            n += b.group == kOtherGroup && countsAsDivergent(an, b.status);
        out << red("VERDICT: the runs differ: " + std::to_string(n) +
                   " unclassified file(s) diverge (compared bytewise, outside the schema; see "
                   "the lines above); the schema's buffers all match.")
            << "\n"
            << oneSidedNote << "\nOver the schema's groups, the reference's verdict:\n"
            << v.text << "\n";
    } else if (!v.firstDivergentStep) {
        out << paint(v.text, v.exitCode == 0 ? Paint::green : Paint::yellow, color) << "\n"
            << oneSidedNote;
    } else if (an.terms == VerdictTerms::own) {
        writeOwnVerdict(an, out, color, oneSidedNote);
    } else {
        out << red("VERDICT (first divergent step = " + std::to_string(*v.firstDivergentStep) +
                   "):")
            << "\n";
        out << "  diverged group(s): " << shown(namesCut(v.divergedGroups)) << "\n"
            << oneSidedNote << "\n";
        out << "Per-group culprit table:\n";
        std::vector<std::string> unjudged;
        const bool cut = v.culprits.size() > kCulpritRowsShown;
        std::size_t quiet = 0;
        for (const auto& row : v.culprits) {
            if (cut && row.divergentBuffers.empty() && !notJudged(row)) {
                ++quiet;
                continue;
            }
            out << "  Group " << shown(row.label) << ": ";
            if (notJudged(row)) {
                out << yellow("NOT JUDGED — " + shown(unjudgedText(row))) << "\n";
                unjudged.push_back(row.group);
            } else if (!row.divergentBuffers.empty()) {
                out << red("DIVERGE in " + shown(namesCut(row.divergentBuffers)))
                    << (row.unjudged.empty() ? ""
                                             : yellow("; not judged: " + shown(unjudgedText(row))))
                    << "\n";
            } else {
                out << (row.present ? paint("EQUAL", Paint::green, color) : "(no dump)") << "\n";
            }
        }
        if (quiet) out << "  … and " << quiet << " more group(s), equal or not dumped\n";
        out << "\nNext-step interpretation (per Phase 2.6 decision tree):\n";
        if (!unjudged.empty())
            out << yellow("  (not judged, so taken as not divergent below: group " +
                          joined(unjudged, ", group ") + ")")
                << "\n";
        out << v.text << "\n";
        writeRootCause(an, out, color);
    }
    std::size_t errors = 0, oneSided = 0, tolerated = 0, withinFloor = 0;
    for (const auto& b : an.buffers) {
        errors += isError(b.status);
        oneSided += isOneSided(b.status);
        tolerated += b.status == Status::within_tolerance;
        withinFloor += b.status == Status::within_floor;
    }
    if (an.noiseFloor)
        out << "\n"
            << yellow("NOISE FLOOR: " + std::to_string(withinFloor) +
                      " buffer(s) differ bitwise but within the noise floor of " +
                      std::to_string(an.noiseFloor->reruns.size()) + " rerun(s) (max|Δ| at most " +
                      std::to_string(static_cast<int>(kFloorMargin)) +
                      "× the reruns', kind no more severe): not counted in the verdict.")
            << "\n";
    if (const std::string precision = precisionVerdict(an); !precision.empty())
        out << "\n" << yellow(shown(precision)) << "\n";
    if (const std::string ranks = crossRankVerdict(an); !ranks.empty())
        out << "\n" << red(shown(ranks)) << "\n";
    if (tolerated)
        out << "\n"
            << yellow(std::to_string(tolerated) +
                      " buffer(s) differ bitwise but within the tolerance" +
                      (an.verdictTolerance ? " (not counted in the verdict: --verdict-tolerance)."
                                           : " (counted in the verdict, which stays bitwise)."))
            << "\n";
    if (errors)
        out << "\n"
            << red(std::to_string(errors) +
                   " buffer(s) could not be compared (ERROR lines above): exit code 2.")
            << "\n";
    if (oneSided)
        out << "\n"
            << yellow(std::to_string(oneSided) + " buffer(s) present in one run only.") << "\n";
    if (an.cancelled)
        out << "\n" << yellow("The analysis was cancelled: results are partial.") << "\n";
}

} // namespace dumpscope
