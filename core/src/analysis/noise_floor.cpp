#include "dumpscope/noise_floor.h"

#include "dumpscope/analyze.h"
#include "dumpscope/verdict.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace dumpscope {

namespace {

double share(const BufferStats& s) {
    const auto n = std::min(s.nA, s.nB);
    return n ? static_cast<double>(s.nDiff) / static_cast<double>(n) : 0.0;
}

// x / floor: infinite when only the floor is 0, 1 when both are.
double ratio(double x, double floor) {
    if (floor > 0) return x / floor;
    return x > 0 ? std::numeric_limits<double>::infinity() : 1.0;
}

std::string scientific(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1e", v);
    return buf;
}

} // namespace

std::string floorFactorText(double f) {
    if (std::isinf(f)) return "∞";
    if (std::isnan(f)) return "NaN";
    if (f < 1000) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3g", f);
        return buf;
    }
    static const char* const kSuper[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    int exponent = static_cast<int>(std::floor(std::log10(f)));
    double mantissa = f / std::pow(10.0, exponent);
    if (mantissa >= 9.95) { // printed with one decimal, 9.95 would read 10.0
        mantissa /= 10;
        ++exponent;
    }
    std::string digits;
    for (char c : std::to_string(exponent))
        digits += kSuper[c - '0'];
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f×10", mantissa);
    return buf + digits;
}

const FloorEnvelope* NoiseFloor::find(const BufferResult& b) const {
    const auto it = buffers.find({b.step, b.group, b.name});
    return it == buffers.end() ? nullptr : &it->second;
}

NoiseFloor buildNoiseFloor(const std::vector<const Analysis*>& reruns) {
    NoiseFloor f;
    for (const Analysis* an : reruns) {
        f.reruns.push_back(an->runB);
        const std::string& why = !an->errorA.empty() ? an->errorA : an->errorB;
        if (!why.empty() && f.error.empty()) f.error = why;
        for (const auto& b : an->buffers) {
            // Noise is whatever differs between two runs of one build, tolerated or not.
            if (b.pending || !differsBitwise(b.status)) continue;
            FloorEnvelope& e = f.buffers[{b.step, b.group, b.name}];
            if (!std::isnan(b.stats.maxAbsDelta))
                e.maxAbsDelta = std::max(e.maxAbsDelta, b.stats.maxAbsDelta);
            e.maxUlp = std::max(e.maxUlp, b.stats.maxUlp);
            e.maxShare = std::max(e.maxShare, share(b.stats));
            if (std::find(e.kinds.begin(), e.kinds.end(), b.kind) == e.kinds.end()) {
                e.kinds.push_back(b.kind);
                std::sort(e.kinds.begin(), e.kinds.end());
            }
            ++e.rerunsDiverged;
            if (b.group != kOtherGroup && (!f.firstDivergentStep || b.step < *f.firstDivergentStep))
                f.firstDivergentStep = b.step;
        }
    }
    return f;
}

FloorJudgement judgeAgainstFloor(const NoiseFloor& floor, const BufferResult& b) {
    FloorJudgement j;
    j.step = b.step;
    j.group = b.group;
    j.name = b.name;
    j.maxAbsDelta = b.stats.maxAbsDelta;
    j.maxUlp = b.stats.maxUlp;
    j.share = share(b.stats);
    j.kind = b.kind;
    const FloorEnvelope* e = floor.find(b);
    if (!e) return j;
    j.floor = *e;
    j.factor = ratio(j.maxAbsDelta, e->maxAbsDelta);
    j.ulpFactor = ratio(static_cast<double>(j.maxUlp), static_cast<double>(e->maxUlp));
    // Kinds are declared most severe first: a kind before the floor's worst is a new kind of
    // difference (NaN where the floor only rounds), whatever its size. A NaN max|Δ| is never
    // within: the comparison is false.
    const bool kindWithin = e->kinds.empty() || j.kind >= e->kinds.front();
    j.within = b.status != Status::length_mismatch && kindWithin &&
               j.maxAbsDelta <= kFloorMargin * e->maxAbsDelta;
    return j;
}

std::string describeAgainstFloor(const FloorJudgement& j) {
    const std::string kind(kindName(j.kind));
    if (!j.floor)
        return "differs where no rerun does (max|Δ| " + scientific(j.maxAbsDelta) + ", kind " +
               kind + ")";
    std::string floorKinds;
    for (auto k : j.floor->kinds)
        floorKinds += (floorKinds.empty() ? "" : ", ") + std::string(kindName(k));
    return "max|Δ| " + scientific(j.maxAbsDelta) + " = " + floorFactorText(j.factor) +
           " × the floor's " + scientific(j.floor->maxAbsDelta) + ", kind " + kind +
           " (the floor's: " + floorKinds + ")";
}

bool becomesWithinFloor(const NoiseFloor& floor, const BufferResult& b, bool verdictTolerance) {
    if (!floor.error.empty() || b.pending) return false;
    return countsAsDivergent(b.status, verdictTolerance) && judgeAgainstFloor(floor, b).within;
}

std::size_t applyNoiseFloor(Analysis& an, std::shared_ptr<const NoiseFloor> floor) {
    std::size_t n = 0;
    for (std::size_t i = 0; floor && i < an.buffers.size(); ++i) {
        const BufferResult& b = std::as_const(an.buffers)[i]; // read: shares the chunk
        if (!becomesWithinFloor(*floor, b, an.verdictTolerance)) continue;
        an.buffers[i].status = Status::within_floor;
        ++n;
    }
    an.noiseFloor = std::move(floor);
    summarize(an);
    return n;
}

} // namespace dumpscope
