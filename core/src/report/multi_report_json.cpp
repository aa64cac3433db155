// The multi-run JSON document. Each candidate is its pair's --json document (run A = the base,
// run B = the candidate) with "run" in front, so a script reading one pair's output reads
// `.candidates[k]` the same way.

#include "dumpscope/multi_report.h"
#include "dumpscope/version.h"

#include "report/floor_json.h"
#include "report/report_text.h"

#include <nlohmann/json.hpp>

namespace dumpscope {

namespace {

using Json = nlohmann::ordered_json;
using report::validUtf8;

Json path(const std::filesystem::path& p) {
    return validUtf8(report::pathBytes(p));
}

Json strings(const std::vector<std::string>& list) {
    Json out = Json::array();
    for (const auto& s : list)
        out.push_back(validUtf8(s));
    return out;
}

Json candidateJson(const CandidateSummary& c, std::size_t k) {
    Json kinds = Json::array();
    for (auto kind : c.rootCause.kinds)
        kinds.push_back(kindName(kind));
    return {{"candidate", k + 1},
            {"run", path(c.run)},
            {"rank", c.rank ? Json(c.rank) : Json(nullptr)},
            {"first_divergent_step",
             c.firstDivergentStep ? Json(*c.firstDivergentStep) : Json(nullptr)},
            {"diverged_groups", strings(c.divergedGroups)},
            {"root_cause",
             {{"groups", strings(c.rootCause.groups)},
              {"buffers", strings(c.rootCause.buffers)},
              {"kinds", kinds}}},
            {"divergent_cells", c.divergentCells},
            {"divergent_buffers", c.divergentBuffers},
            {"divergent_steps", c.divergentSteps},
            {"exit_code", c.exitCode},
            {"error", c.error.empty() ? Json(nullptr) : Json(validUtf8(c.error))}};
}

Json noiseFloor(const MultiRunSummary& s) {
    if (s.againstFloor.empty()) return nullptr;
    Json readings = Json::array();
    for (const auto& f : s.againstFloor) {
        Json beyond = Json::array();
        for (std::size_t i = 0; i < f.beyondFloor.size(); ++i) {
            const auto& b = f.beyondFloor[i];
            Json entry = {
                {"step", b.step}, {"group", validUtf8(b.group)}, {"buffer", validUtf8(b.name)}};
            if (i < f.excess.size()) entry.update(report::floorMagnitudes(f.excess[i]));
            beyond.push_back(entry);
        }
        readings.push_back({{"candidate", f.candidate + 1},
                            {"run", path(s.candidates[f.candidate].run)},
                            {"reading", floorReadingName(f.reading)},
                            {"n_beyond_floor", f.nBeyondFloor},
                            {"beyond_floor", beyond},
                            {"text", validUtf8(f.text)}});
    }
    Json reruns = Json::array();
    for (const auto& r : s.floorReruns)
        reruns.push_back(path(r));
    const bool given = !s.floorReruns.empty();
    return {{"candidate", given ? Json(nullptr) : Json(1)},
            {"run", given ? Json(nullptr) : path(s.candidates.front().run)},
            {"reruns", reruns},
            {"margin", kFloorMargin},
            {"readings", readings}};
}

} // namespace

std::string multiReportJson(const MultiRunAnalysis& multi) {
    const MultiRunSummary& s = multi.summary;
    Json ranking = Json::array();
    for (auto k : s.ranking)
        ranking.push_back(candidateJson(s.candidates[k], k));
    const Json summary = {
        {"exit_code", s.exitCode}, {"ranking", ranking}, {"noise_floor", noiseFloor(s)}};
    std::string out = "{\n  \"tool\": \"dumpscope\",\n  \"version\": " + Json(version()).dump() +
                      ",\n  \"base\": " + path(multi.base).dump() +
                      ",\n  \"exit_code\": " + std::to_string(s.exitCode) +
                      ",\n  \"candidates\": [";
    for (std::size_t k = 0; k < multi.pairs.size(); ++k) {
        // The pair's document opens with "{"; "run" goes right after it.
        const std::string pair = reportJson(multi.pairs[k]);
        out += (k ? ",\n" : "\n") + std::string("{\"run\": ") + path(multi.pairs[k].runB).dump() +
               "," + pair.substr(1);
    }
    out += "],\n  \"summary\": " + summary.dump(2) + "\n}";
    return out;
}

} // namespace dumpscope
