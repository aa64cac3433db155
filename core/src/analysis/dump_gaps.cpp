#include "analysis/dump_gaps.h"

#include "dumpscope/schema.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dumpscope::detail {

namespace {

// A group's warning names this many steps, then how many more: a group lost for good after some
// step would otherwise be a line of thousands of numbers.
constexpr std::size_t kStepsNamed = 8;
// Beyond this many groups with holes one line counts the rest (JSON and reports carry the
// warnings too, and a run of 10,000 groups missing at one step needs one line, not 10,000).
constexpr std::size_t kGroupsNamed = 16;

std::string stepList(const std::vector<std::uint64_t>& steps) {
    std::string out = steps.size() > 1 ? "steps " : "step ";
    for (std::size_t i = 0; i < steps.size() && i < kStepsNamed; ++i)
        out += (i ? ", " : "") + std::to_string(steps[i]);
    if (steps.size() > kStepsNamed)
        out += " and " + std::to_string(steps.size() - kStepsNamed) + " more";
    return out;
}

} // namespace

void warnGroupGaps(Analysis& an) {
    if (an.steps.size() < 2 || !an.schema) return;
    // The steps each group has a buffer at; the plan lists buffers step by step, so a step is
    // appended once per group.
    std::unordered_map<std::string_view, std::vector<std::uint64_t>> dumpedAt;
    for (const BufferResult& b : std::as_const(an.buffers)) {
        if (b.group == kOtherGroup) continue;
        auto& steps = dumpedAt[b.group];
        if (steps.empty() || steps.back() != b.step) steps.push_back(b.step);
    }
    std::size_t withGaps = 0;
    for (const GroupSpec& g : an.schema->groups) {
        const auto it = dumpedAt.find(g.id);
        if (it == dumpedAt.end()) continue;
        auto& dumped = it->second;
        std::sort(dumped.begin(), dumped.end());
        dumped.erase(std::unique(dumped.begin(), dumped.end()), dumped.end());
        if (dumped.size() >= an.steps.size()) continue;
        if (++withGaps > kGroupsNamed) continue;
        std::vector<std::uint64_t> missing;
        std::set_difference(an.steps.begin(), an.steps.end(), dumped.begin(), dumped.end(),
                            std::back_inserter(missing));
        an.warnings.push_back("group " + g.label + " is not dumped at " + stepList(missing) +
                              " (in neither run), while it is at " + std::to_string(dumped.size()) +
                              " other step(s): nothing of it is " + "compared there");
    }
    if (withGaps > kGroupsNamed)
        an.warnings.push_back(std::to_string(withGaps - kGroupsNamed) +
                              " more group(s) are not dumped at some of the steps");
}

} // namespace dumpscope::detail
