#pragma once

#include "dumpscope/growth.h"

#include <QMetaType>

#include <vector>

// One buffer's growth across the analysis' steps, as the buffer list's Growth column hands it to
// SparklineDelegate: the core's points and which of them is the row's own step.
struct GrowthSparkline {
    std::vector<dumpscope::GrowthPoint> points; // one per Analysis::steps entry
    int current = -1;                           // index into points of the row's step
};
Q_DECLARE_METATYPE(GrowthSparkline)
