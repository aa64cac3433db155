#pragma once

// The HTML report's differing buffers: the table that fits a page, then each buffer in detail
// (charts, divergence map, first and largest differences).

#include "dumpscope/result.h"

#include <cstddef>
#include <string>
#include <vector>

namespace dumpscope::report {

// `differing` indexes Analysis::buffers; the first `shown` of them are written.
void htmlDifferingTable(std::string& h, const Analysis& a,
                        const std::vector<std::size_t>& differing, std::size_t shown);
void htmlDifferingDetails(std::string& h, const Analysis& a,
                          const std::vector<std::size_t>& differing, std::size_t shown);

// The escaped `name` with a line break allowed after each '_', so that a long buffer name wraps
// at its words instead of widening its column.
std::string breakableName(const std::string& name);

} // namespace dumpscope::report
