#include "cli_multi.h"

#include "cli_floor.h"
#include "cli_terminal.h"
#include "cli_text.h"
#include "dumpscope/multi_report.h"

#include <algorithm>
#include <memory>
#include <ostream>
#include <utility>

namespace dumpscope {

namespace {

// Characters on screen of a UTF-8 string (continuation bytes take no column).
std::size_t columns(const std::string& s) {
    return static_cast<std::size_t>(std::count_if(
        s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

void writeSummary(const MultiRunAnalysis& m, std::ostream& out) {
    const MultiRunSummary& s = m.summary;
    using Row = std::array<std::string, kMultiSummaryColumns.size()>;
    std::vector<Row> rows(1);
    for (std::size_t c = 0; c < rows[0].size(); ++c)
        rows[0][c] = kMultiSummaryColumns[c];
    for (auto k : s.ranking) {
        rows.push_back(multiSummaryRow(s, k)); // its cells quote run paths and buffer names
        for (auto& cell : rows.back())
            cell = shown(cell);
    }
    std::vector<std::size_t> width(rows[0].size(), 0);
    for (const auto& row : rows)
        for (std::size_t c = 0; c < row.size(); ++c)
            width[c] = std::max(width[c], columns(row[c]));
    out << "SUMMARY: base " << shown(m.base) << " against " << m.pairs.size()
        << " candidates, ranked by first divergent step\n";
    for (const auto& row : rows) {
        std::string line = " ";
        for (std::size_t c = 0; c < row.size(); ++c)
            line += " " + row[c] +
                    std::string(c + 1 < row.size() ? width[c] - columns(row[c]) + 1 : 0, ' ');
        out << line << "\n";
    }
    if (s.againstFloor.empty()) return;
    out << "\nAGAINST THE NOISE FLOOR (" << shown(noiseFloorIntro(s)) << "):\n";
    for (const auto& f : s.againstFloor)
        out << "  " << floorReadingName(f.reading) << ": " << shown(f.text) << "\n";
}

} // namespace

void writeProblems(const Analysis& an, std::ostream& err, const std::string& warningLabel,
                   const std::string& errorLabel) {
    for (const auto& w : an.warnings)
        err << warningLabel << " " << shown(w) << "\n";
    for (const auto* e : {&an.errorA, &an.errorB})
        if (!e->empty()) err << errorLabel << " " << shown(*e) << "\n";
    for (const auto& b : an.buffers)
        if (isError(b.status)) err << errorLabel << " " << shown(b.error) << "\n";
}

int strictExitCode(const Analysis& an, std::ostream& err, const std::string& errorLabel) {
    if (an.verdict.exitCode >= 2) return an.verdict.exitCode;
    for (const auto& b : an.buffers) {
        if (isOneSided(b.status) || b.group == kOtherGroup) {
            err << errorLabel << " --strict: one-sided buffers or unclassified files present\n";
            return 2;
        }
    }
    return an.verdict.exitCode;
}

int runMultiCli(const MultiCliRequest& request, std::ostream& out, std::ostream& err) {
    std::vector<std::filesystem::path> candidates(request.candidates.begin(),
                                                  request.candidates.end());
    std::vector<Analysis> floorPairs;
    if (!request.floorRuns.empty() &&
        !analyzeFloorRuns(request.base, request.floorRuns, request.options, err, floorPairs))
        return 2;
    MultiRunAnalysis m = analyzeCandidates(request.base, candidates, request.options);
    m.floorPairs = std::move(floorPairs);
    // Each pair is read over the floor exactly as `BASE CANDIDATE --floor …` reads it, so its
    // section, verdict and exit code are those of the divergences beyond the floor.
    std::shared_ptr<const NoiseFloor> floor;
    if (!m.floorPairs.empty()) {
        floor = std::make_shared<const NoiseFloor>(noiseFloorOf(m));
        for (auto& an : m.pairs)
            applyNoiseFloor(an, floor);
    }
    for (std::size_t k = 0; k < m.pairs.size(); ++k) {
        Analysis& an = m.pairs[k];
        const std::string prefix = "candidate " + std::to_string(k + 1) + ": ";
        writeProblems(an, err, prefix + "warning:", prefix + "error:");
        // The JSON and reports say what the process returns.
        if (request.strict) an.verdict.exitCode = strictExitCode(an, err, prefix + "error:");
    }
    if (floor)
        m.summary = summarizeCandidates(m.pairs, *floor);
    else if (request.strict)
        m.summary = summarizeCandidates(m.pairs);

    if (request.json) {
        out << multiReportJson(m) << "\n";
    } else {
        for (std::size_t k = 0; k < m.pairs.size(); ++k) {
            out << "##### candidate " << k + 1 << " of " << m.pairs.size() << ": "
                << shown(m.pairs[k].runB) << " (base " << shown(m.base) << ")\n";
            writeTextReport(m.pairs[k], request.quiet, out);
            out << "\n";
        }
        writeSummary(m, out);
    }
    if (!request.report.empty()) {
        try {
            writeMultiReport(m, request.report);
        } catch (const std::exception& e) {
            err << "error: " << shown(e.what()) << "\n";
            return 2;
        }
    }
    return m.summary.exitCode;
}

} // namespace dumpscope
