#pragma once

// The schema's dataflow as graphs, for the checks validate() makes on them: the group-level
// edges, and the buffer-level graph that the buffers' "inputs" add.
#include "dumpscope/schema.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace dumpscope::detail {

// A cycle in a directed graph given as each node's successors: the nodes on it in order, the
// edge that closes it running from the last one back to the first; empty when there is none.
// Depth first with an explicit stack: a chain of many nodes must not exhaust the call stack.
std::vector<std::size_t> findCycle(const std::vector<std::vector<std::size_t>>& successors);

// What is wrong with the buffers' "inputs" and the buffer whose declaration it is about, for the
// loader to word and locate as its other errors: an entry that names no buffer or group, or
// both, or the buffer itself or its own group, or twice; or a cycle through the buffer-level
// graph (declared inputs, and the group edges of the buffers that declare none).
struct InputsProblem {
    std::string what;
    std::string buffer; // the declaring buffer's name
};
std::optional<InputsProblem> findInputsProblem(const Schema& schema);

} // namespace dumpscope::detail
