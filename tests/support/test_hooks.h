#pragma once

// The core's test hooks, as the tests use them (their weak declarations are in
// core/src/compare/dense_f32.h, core/src/formats/inflate_stream.h and
// core/src/analysis/lookup_count.h, core/src/analysis/count_plans.h and
// core/src/io/identity_stat_count.h). Only binaries that link
// dumpscope_test_hooks have them.

#include <cstdint>

namespace dumpscope::detail {

// Run the word-at-a-time paths everywhere (false) or the vector paths where the CPU has them
// (true, the default), to hold both to the same results.
void setVectorPathsAllowed(bool allowed);
// How many blocks (of up to kMax elements) the dense vector path has taken in this process, to
// know that it ran; of those, how many were binned by threshold counts rather than the scalar
// walk, and how many had their |Δ| computed in float32.
std::uint64_t denseF32Blocks();
std::uint64_t denseThresholdBlocks();
std::uint64_t denseSingleBlocks();
// How many bytes every InflateStream in this process has inflated (formats/inflate_stream.h).
std::uint64_t inflatedBytes();
// How many by-name lookups the matrix, the extended schema and the verdict have made
// (analysis/lookup_count.h).
std::uint64_t nameLookups();
// How many times a pair's runs were scanned and planned (analysis/count_plans.h).
std::uint64_t plansMade();
// How many paths fileIdentity() has stat()ed (io/identity_stat_count.h).
std::uint64_t identityStats();

} // namespace dumpscope::detail
