#pragma once

// A base and several candidates for the multi-run tests (core, CLI and window).
#include "run_fixture.h"

#include <memory>
#include <utility>

namespace dumpscope::test {

// A base and candidates written as pairs: candidate k is pair k's run B, the base is pair 0's
// run A (every pair's run A holds the same bytes).
struct Candidates {
    std::vector<std::unique_ptr<TempDir>> dirs;
    std::filesystem::path base() const { return *dirs.front() / "a"; }
    std::vector<std::filesystem::path> runs() const {
        std::vector<std::filesystem::path> out;
        for (const auto& d : dirs)
            out.push_back(*d / "b");
        return out;
    }
    // A candidate identical to the base, then `perturbs` applied: (step, file) pairs.
    void add(const std::vector<std::pair<std::uint64_t, std::string>>& perturbs) {
        dirs.push_back(std::make_unique<TempDir>());
        writeRunPair(*dirs.back());
        for (const auto& [step, file] : perturbs)
            perturb(*dirs.back(), step, file);
    }
};

// Three candidates: identical, diverging at step 2 in H, diverging at step 1 in G.
inline Candidates threeCandidates() {
    Candidates c;
    c.add({});
    c.add({{2, "h_q_logits"}});
    c.add({{1, "g_sampled_h_t"}});
    return c;
}

} // namespace dumpscope::test
