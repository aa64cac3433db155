#pragma once

#include "dumpscope/growth.h"

#include <QMetaType>

#include <memory>
#include <vector>

// One buffer's growth across the analysis' steps, as the buffer list's Growth column hands it to
// SparklineDelegate: the core's points and which of them is the row's own step. The points are
// the model's, shared: a run of 100,000 steps copied them into each data() call, each size hint
// and each paint of the row.
struct GrowthSparkline {
    std::shared_ptr<const std::vector<dumpscope::GrowthPoint>> shared;
    int current = -1; // index into points() of the row's step

    // One per Analysis::steps entry; none without a series.
    const std::vector<dumpscope::GrowthPoint>& points() const {
        static const std::vector<dumpscope::GrowthPoint> none;
        return shared ? *shared : none;
    }
};
Q_DECLARE_METATYPE(GrowthSparkline)
