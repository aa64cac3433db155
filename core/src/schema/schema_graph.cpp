#include "schema/schema_graph.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <set>
#include <unordered_map>
#include <utility>

namespace dumpscope::detail {

namespace {

std::string quoted(const std::string& s) {
    return nlohmann::json(s).dump();
}

// A name as a cycle shows it: bare when it is a plain word, else JSON-quoted, so that spaces,
// quotes and control characters stay visible.
std::string shown(const std::string& name) {
    const bool plain = !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char c) {
        return std::isalnum(c) || c == '_' || c == '-' || c == '.';
    });
    return plain ? name : quoted(name);
}

} // namespace

std::vector<std::size_t> findCycle(const std::vector<std::vector<std::size_t>>& successors) {
    enum class Seen { no, onPath, done };
    std::vector<Seen> seen(successors.size(), Seen::no);
    std::vector<std::pair<std::size_t, std::size_t>> path; // (node, next successor to follow)
    for (std::size_t root = 0; root < successors.size(); ++root) {
        if (seen[root] != Seen::no) continue;
        seen[root] = Seen::onPath;
        path.emplace_back(root, 0);
        while (!path.empty()) {
            const std::size_t n = path.back().first;
            if (path.back().second == successors[n].size()) {
                seen[n] = Seen::done;
                path.pop_back();
                continue;
            }
            const std::size_t next = successors[n][path.back().second++];
            if (seen[next] == Seen::onPath) {
                std::vector<std::size_t> cycle;
                bool inCycle = false;
                for (const auto& step : path) {
                    inCycle = inCycle || step.first == next;
                    if (inCycle) cycle.push_back(step.first);
                }
                return cycle;
            }
            if (seen[next] == Seen::no) {
                seen[next] = Seen::onPath;
                path.emplace_back(next, 0);
            }
        }
    }
    return {};
}

std::optional<InputsProblem> findInputsProblem(const Schema& schema) {
    if (!schema.hasBufferInputs()) return std::nullopt; // the group-level check covers it
    // Nodes: every buffer, then per group an "out" node (all of its buffers) and an "in" node
    // (what its buffers without "inputs" read). Expanding group edges buffer by buffer would
    // cost the product of two groups' sizes; through these two nodes it stays linear.
    std::unordered_map<std::string, std::size_t> bufferIndex, groupIndex;
    std::vector<std::pair<std::size_t, const BufferSpec*>> buffers; // (group, spec)
    for (std::size_t g = 0; g < schema.groups.size(); ++g) {
        groupIndex.emplace(schema.groups[g].id, g);
        for (const auto& b : schema.groups[g].buffers) {
            bufferIndex.emplace(b.name, buffers.size());
            buffers.emplace_back(g, &b);
        }
    }
    const std::size_t nb = buffers.size(), ng = schema.groups.size();
    const auto out = [&](std::size_t g) { return nb + g; };
    const auto in = [&](std::size_t g) { return nb + ng + g; };
    std::vector<std::vector<std::size_t>> successors(nb + 2 * ng);
    for (const auto& [from, to] : schema.dataflow)
        successors[out(groupIndex.at(from))].push_back(in(groupIndex.at(to)));
    for (std::size_t i = 0; i < nb; ++i) {
        // Not a structured binding: clang before 16 cannot capture one in the lambda below.
        const std::size_t g = buffers[i].first;
        const auto& spec = buffers[i].second;
        successors[i].push_back(out(g));
        if (!spec->inputs) {
            successors[in(g)].push_back(i);
            continue;
        }
        std::set<std::string> seen;
        for (const auto& entry : *spec->inputs) {
            const auto problem = [&](const std::string& what) {
                return InputsProblem{"buffer " + quoted(spec->name) + ": \"inputs\" " + what,
                                     spec->name};
            };
            if (!seen.insert(entry).second) return problem("lists " + quoted(entry) + " twice");
            if (entry == spec->name) return problem("names the buffer itself");
            if (entry == schema.groups[g].id)
                return problem("names the buffer's own group " + quoted(entry) +
                               ", which holds the buffer itself");
            const auto b = bufferIndex.find(entry);
            const auto gi = groupIndex.find(entry);
            if (b != bufferIndex.end() && gi != groupIndex.end())
                return problem("entry " + quoted(entry) +
                               " is both a buffer name and a group id: rename one");
            if (b == bufferIndex.end() && gi == groupIndex.end())
                return problem("names unknown buffer or group " + quoted(entry));
            successors[b != bufferIndex.end() ? b->second : out(gi->second)].push_back(i);
        }
    }
    const auto cycle = findCycle(successors);
    if (cycle.empty()) return std::nullopt;
    // Shown from a buffer, in the direction data flows, and closed where it started; a group
    // node stands for its group's id, once however many of its two nodes the cycle passes.
    const auto first = std::find_if(cycle.begin(), cycle.end(), [&](auto n) { return n < nb; });
    std::vector<std::size_t> ordered(first, cycle.end());
    ordered.insert(ordered.end(), cycle.begin(), first);
    std::string text, last;
    for (std::size_t k = 0; k <= ordered.size(); ++k) {
        const std::size_t n = ordered[k % ordered.size()];
        const std::string name = n < nb ? buffers[n].second->name : schema.groups[(n - nb) % ng].id;
        if (name == last) continue;
        text += (text.empty() ? "" : " → ") + shown(name);
        last = name;
    }
    // A declared buffer on the cycle is where to edit: the first one after the start.
    std::string at = buffers[ordered.front()].second->name;
    for (const std::size_t n : ordered)
        if (n < nb && buffers[n].second->inputs) {
            at = buffers[n].second->name;
            break;
        }
    return InputsProblem{"inputs make a cycle: " + text, at};
}

} // namespace dumpscope::detail
