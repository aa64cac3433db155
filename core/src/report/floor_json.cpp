#include "report/floor_json.h"

#include "report/report_text.h"

#include <cmath>

namespace dumpscope::report {

namespace {

using Json = nlohmann::ordered_json;

Json number(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    return v;
}

} // namespace

Json floorMagnitudes(const FloorJudgement& j) {
    const bool seen = j.floor.has_value();
    Json floorKinds = Json::array();
    if (seen)
        for (auto k : j.floor->kinds)
            floorKinds.push_back(kindName(k));
    return {{"max_abs_delta", number(j.maxAbsDelta)},
            {"floor_max_abs_delta", seen ? number(j.floor->maxAbsDelta) : Json(nullptr)},
            {"factor", seen ? number(j.factor) : Json(nullptr)},
            {"max_ulp", j.maxUlp},
            {"floor_max_ulp", seen ? Json(j.floor->maxUlp) : Json(nullptr)},
            {"ulp_factor", seen ? number(j.ulpFactor) : Json(nullptr)},
            {"share_differing", number(j.share)},
            {"floor_share_differing", seen ? number(j.floor->maxShare) : Json(nullptr)},
            {"kind", kindName(j.kind)},
            {"floor_kinds", floorKinds},
            {"reruns_diverged", seen ? j.floor->rerunsDiverged : 0},
            {"within", j.within},
            {"text", validUtf8(describeAgainstFloor(j))}};
}

Json pairNoiseFloor(const Analysis& an) {
    if (!an.noiseFloor) return nullptr;
    Json reruns = Json::array();
    for (const auto& r : an.noiseFloor->reruns)
        reruns.push_back(validUtf8(pathBytes(r)));
    std::size_t within = 0;
    for (const auto& b : an.buffers)
        within += !b.pending && b.status == Status::within_floor;
    return {{"reruns", reruns},
            {"margin", kFloorMargin},
            {"within_floor_buffers", within},
            {"error",
             an.noiseFloor->error.empty() ? Json(nullptr) : Json(validUtf8(an.noiseFloor->error))}};
}

} // namespace dumpscope::report
