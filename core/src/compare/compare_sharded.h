#pragma once

#include "dumpscope/analyze.h"
#include "dumpscope/shards.h"

#include <filesystem>

namespace dumpscope::detail {

// Compares the whole tensors two runs hold as shards (`runA`, `runB`: the run directories the
// pieces' files are relative to), streaming over the pieces in the whole tensor's C order:
// no whole tensor is ever in memory. The statistics' indices are the whole tensor's, and the
// result's `shards` names the rank of each side's piece that holds the first difference.
BufferResult compareSharded(const std::filesystem::path& runA, const std::filesystem::path& runB,
                            const ShardedPair& shards, DType dtype, const CompareOptions& options);

} // namespace dumpscope::detail
