#include "dumpscope/cross_precision.h"
#include "dumpscope/result.h"

#include <set>

namespace dumpscope {

std::string precisionVerdict(const Analysis& analysis) {
    std::size_t compared = 0, beyond = 0;
    const BufferResult* first = nullptr; // buffers are in step order
    std::set<std::string> pairs, narrow;
    for (const auto& b : analysis.buffers) {
        if (!b.precision() || b.pending || isError(b.status) || isOneSided(b.status)) continue;
        ++compared;
        const CrossPrecision& p = *b.precision();
        pairs.insert(std::string(dtypeName(p.typeOf(true))) + " in run A, " +
                     std::string(dtypeName(p.typeOf(false))) + " in run B");
        narrow.emplace(dtypeName(p.narrow));
        if (p.withinRounding() && b.status == Status::equal) continue;
        ++beyond;
        if (!first) first = &b;
    }
    if (!compared) return {};
    std::string types;
    for (const auto& t : pairs)
        types += (types.empty() ? "" : "; ") + t;
    const std::string head = "across precisions (" + types + "): ";
    const std::string rounding =
        "the rounding of " + (narrow.size() == 1 ? *narrow.begin() : "their narrow type");
    if (!first) return head + "all " + std::to_string(compared) + " buffer(s) within " + rounding;
    return head + std::to_string(beyond) + " of " + std::to_string(compared) +
           " buffer(s) beyond " + rounding + "; the first at step " + std::to_string(first->step) +
           (first->rank ? ", rank " + std::to_string(*first->rank) : std::string()) + ": \"" +
           first->name + "\" " + precisionText(*first->precision());
}

} // namespace dumpscope
