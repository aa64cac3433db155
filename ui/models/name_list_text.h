#pragma once

#include "dumpscope/verdict.h"

#include <QString>

#include <cstddef>
#include <string>
#include <vector>

// Lists of buffer and group names as the verdict's panel and its culprit table show them: whole,
// comma-separated (for tooltips), or cut past `shown` names (dumpscope::namesCut).
QString joinedNames(const std::vector<std::string>& names);
QString cutNames(const std::vector<std::string>& names,
                 std::size_t shown = dumpscope::kListedNames);
