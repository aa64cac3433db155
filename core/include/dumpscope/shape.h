#pragma once

#include "dumpscope/schema.h"
#include "dumpscope/stats.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dumpscope {

// A shape with every dimension a number, or why it could not be had.
struct ResolvedShape {
    std::vector<std::uint64_t> dims; // empty when flat or unresolved
    std::string error;               // empty when resolved (or no shape was asked for)
};

// Resolves a shape spec (numbers, Schema::dims symbols, at most one "*") for a buffer of
// `nElements`. `lengthOf(buffer)` gives another buffer's element count at the same step.
// The product must equal nElements; "*" takes what is left and must divide it.
ResolvedShape
resolveShape(const std::vector<std::string>& spec, const Schema& schema,
             const std::function<std::optional<std::uint64_t>(const std::string&)>& lengthOf,
             std::uint64_t nElements);

// "[batch, 32]", "batch x 32", "64,32": the dimension words a user typed; empty on nonsense.
std::vector<std::string> parseShapeText(const std::string& text);

// "(17, 3)" for a shaped buffer, "17" for a flat one.
std::string formatIndex(std::uint64_t index, const std::vector<std::uint64_t>& dims);
// formatIndex read back, as a user types it: "(31, 8)", "31, 8" or "31 8" for a buffer shaped
// `dims` (one coordinate per dimension, each inside it), or a flat index "503" for any buffer.
// nullopt, with `error` saying why, for anything else.
std::optional<std::uint64_t> parseIndex(const std::string& text,
                                        const std::vector<std::uint64_t>& dims,
                                        std::string* error = nullptr);

// Rows are the outermost dimension, columns everything inside it.
inline std::uint64_t shapeRows(const std::vector<std::uint64_t>& d) {
    return d.empty() ? 0 : d[0];
}
inline std::uint64_t shapeCols(const std::vector<std::uint64_t>& d) {
    std::uint64_t c = 1;
    for (std::size_t i = 1; i < d.size(); ++i)
        c *= d[i];
    return c;
}

// Where the differences sit, in words: "rows 3, 17 differ entirely; the other 62 rows not at
// all" is a different bug from "1% of the elements of every row".
std::string placementSummary(const BufferStats& stats, const std::vector<std::uint64_t>& dims);

} // namespace dumpscope
