#pragma once

// How the runs' differently named buffers were paired, in the JSON documents.

#include "dumpscope/result.h"

#include <nlohmann/json.hpp>

namespace dumpscope::report {

// The pair's "alignment": null when buffers paired by name alone, else {"mode", "map",
// "pairs": [{"a", "b", "by", "places", "rule"}], "unpaired_a", "unpaired_b"}.
nlohmann::ordered_json pairAlignment(const Analysis& an);

} // namespace dumpscope::report
