#include "dumpscope/step_completion.h"

#include <algorithm>
#include <utility>

namespace dumpscope {

PairListing pairListing(const RunScan& a, const RunScan& b) {
    PairListing listing;
    listing.errorA = a.error;
    listing.errorB = b.error;
    for (const auto& [step, file] : a.listed)
        listing.steps[step].a.push_back(file);
    for (const auto& [step, file] : b.listed)
        listing.steps[step].b.push_back(file);
    return listing;
}

StepCompletion::StepCompletion(Clock::duration settle) : m_settle(settle) {}

const PairListing& StepCompletion::latest() const {
    static const PairListing none;
    return m_latest ? *m_latest : none;
}

void StepCompletion::observe(const RunScan& a, const RunScan& b, Clock::time_point at) {
    observe(pairListing(a, b), at);
}

void StepCompletion::observe(PairListing listing, Clock::time_point at) {
    observe(std::make_shared<const PairListing>(std::move(listing)), at);
}

void StepCompletion::observe(std::shared_ptr<const PairListing> shared, Clock::time_point at) {
    const PairListing& listing = *shared;
    if (!m_at || listing != latest()) m_lastChange = at;
    std::map<std::uint64_t, Changed> changed;
    static const StepListing none;
    for (const auto& [step, files] : listing.steps) {
        const auto before = latest().steps.find(step);
        const StepListing& was = before == latest().steps.end() ? none : before->second;
        const auto kept = m_changed.find(step);
        // A step new to the listing starts its interval now, in both runs.
        Changed when = kept == m_changed.end() ? Changed{at, at} : kept->second;
        if (files.a != was.a) when[0] = at;
        if (files.b != was.b) when[1] = at;
        changed.emplace(step, when);
    }
    m_changed = std::move(changed);
    m_latest = std::move(shared);
    m_last = {};
    for (const auto& [step, files] : latest().steps) {
        if (!files.a.empty()) m_last[0] = step;
        if (!files.b.empty()) m_last[1] = step;
    }
    m_at = at;
}

void StepCompletion::clear() {
    m_latest.reset();
    m_changed.clear();
    m_last = {};
    m_at.reset();
    m_lastChange.reset();
}

bool StepCompletion::doneIn(int run, std::uint64_t step, const Changed& changed) const {
    return (m_last[run] && *m_last[run] > step) || *m_at - changed[run] >= m_settle;
}

bool StepCompletion::isComplete(std::uint64_t step) const {
    const auto it = latest().steps.find(step);
    if (it == latest().steps.end() || it->second.a.empty() || it->second.b.empty()) return false;
    const Changed& changed = m_changed.at(step);
    return doneIn(0, step, changed) && doneIn(1, step, changed);
}

std::set<std::uint64_t> StepCompletion::completeSteps() const {
    std::set<std::uint64_t> complete;
    for (const auto& [step, files] : latest().steps)
        if (isComplete(step)) complete.insert(complete.end(), step);
    return complete;
}

std::optional<StepCompletion::Clock::time_point> StepCompletion::nextCompletion() const {
    std::optional<Clock::time_point> next;
    for (const auto& [step, files] : latest().steps) {
        if (files.a.empty() || files.b.empty() || isComplete(step)) continue;
        // Complete once every run not done with it by a later step has kept still long enough.
        const Changed& changed = m_changed.at(step);
        Clock::time_point at = *m_at;
        for (int run : {0, 1})
            if (!(m_last[run] && *m_last[run] > step)) at = std::max(at, changed[run] + m_settle);
        if (!next || at < *next) next = at;
    }
    return next;
}

void StepCompletion::restart(std::uint64_t step, Clock::time_point at) {
    if (auto it = m_changed.find(step); it != m_changed.end()) it->second = {at, at};
}

} // namespace dumpscope
