#pragma once

#include "state/analysis_settings.h"

#include "dumpscope/analyze.h"
#include "dumpscope/schema.h"

#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

// Everything one analysis of a pair depends on: the two runs and what the user set in the
// window. Equal requests over unchanged directories give the same analysis.
struct AnalysisRequest {
    QString runA, runB;
    std::shared_ptr<const dumpscope::Schema> schema; // null: the default schema
    AnalysisSettings settings;                       // tolerances, rounding threshold
    // Typed shapes by buffer name, as dimension words (parseShapeText's output); they override
    // the schema's.
    std::map<std::string, std::vector<std::string>> shapes;
    // Reruns of run A's build: the pair is read over their noise floor (empty: bitwise).
    QStringList floorRuns;
    std::string layout;                 // AnalyzeOptions::layout
    std::size_t groupDepth = 0;         // AnalyzeOptions::groupDepth; 0: chosen by the plan
    std::set<std::string> openedGroups; // AnalyzeOptions::openedGroups
    dumpscope::AlignMode align = dumpscope::AlignMode::names; // AnalyzeOptions::align
    std::shared_ptr<const dumpscope::NameMap> nameMap;        // AnalyzeOptions::nameMap

    dumpscope::AnalyzeOptions analyzeOptions() const {
        dumpscope::AnalyzeOptions options;
        options.schema = schema;
        options.tolerance = settings.tolerance;
        options.verdictTolerance = settings.verdictTolerance;
        options.roundingThreshold = settings.roundingThreshold;
        options.shapes = shapes;
        options.layout = layout;
        options.groupDepth = groupDepth;
        options.openedGroups = openedGroups;
        options.align = align;
        options.nameMap = nameMap;
        return options;
    }

    friend bool operator==(const AnalysisRequest& x, const AnalysisRequest& y) {
        return x.runA == y.runA && x.runB == y.runB && x.schema == y.schema &&
               x.settings == y.settings && x.shapes == y.shapes && x.floorRuns == y.floorRuns &&
               x.layout == y.layout && x.groupDepth == y.groupDepth &&
               x.openedGroups == y.openedGroups && x.align == y.align && x.nameMap == y.nameMap;
    }
};
