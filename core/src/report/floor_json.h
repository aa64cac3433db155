#pragma once

// The noise floor in the JSON documents: a buffer's magnitudes next to the floor's, shared by
// the pair's document (within_floor buffers, "noise_floor") and the several-run summary.

#include "dumpscope/noise_floor.h"
#include "dumpscope/result.h"

#include <nlohmann/json.hpp>

namespace dumpscope::report {

// {"max_abs_delta", "floor_max_abs_delta", "factor", "max_ulp", "floor_max_ulp", "ulp_factor",
// "share_differing", "floor_share_differing", "kind", "floor_kinds", "reruns_diverged",
// "within", "text"}: the floor's values null where no rerun differs; non-finite numbers as the
// strings "nan", "inf", as everywhere in the documents.
nlohmann::ordered_json floorMagnitudes(const FloorJudgement& j);

// The pair's "noise_floor": null without one, else {"reruns", "margin", "within_floor_buffers",
// "error"}.
nlohmann::ordered_json pairNoiseFloor(const Analysis& an);

} // namespace dumpscope::report
