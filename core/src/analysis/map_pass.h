#pragma once

// What the divergence map and the value heatmaps share: opening a buffer pair for a pass over
// both files, cutting its shape into the grid, and the chunked read with its progress,
// cancellation and change checks. One rule for each, so that a block means the same elements
// in both and a bad pair fails the same way.
#include "dumpscope/buffer_view.h"
#include "dumpscope/diff_index.h"
#include "dumpscope/dtype.h"
#include "dumpscope/map_grid.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace dumpscope::map_pass {

// Elements per read: 512 KiB per side for 8-byte elements, as DiffIndex reads.
inline constexpr std::size_t kChunkElements = 64 * 1024;

struct Pair {
    BufferView a, b;
    std::uint64_t n = 0; // elements per side
};

// Opens both files as `dtype`; an error (naming the file) when either is unreadable, is not
// whole elements, or the two differ in length.
std::string open(const BufferSource& a, const BufferSource& b, DType dtype, Pair& pair);

// Lays out `grid` for n elements of `shape` (outermost first; fewer than two dimensions: a
// strip) at `resolution`; an error when the shape's product is not n.
std::string layout(MapGrid& grid, std::uint64_t n, const std::vector<std::uint64_t>& shape,
                   const MapResolution& resolution, const std::string& file);

// Reads the pair chunk by chunk, in index order, into `chunk` (a, b, elements, first index).
// Returns an error, or "cancelled" with `cancelled` set when `progress` stopped it; files that
// changed while being read are an error too.
using ChunkFn =
    std::function<void(const unsigned char*, const unsigned char*, std::size_t, std::uint64_t)>;
std::string run(const Pair& pair, const ChunkFn& chunk, const ScanProgressFn& progress,
                bool& cancelled);

} // namespace dumpscope::map_pass
