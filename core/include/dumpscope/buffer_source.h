#pragma once

#include "dumpscope/logged_fingerprint.h"
#include "dumpscope/tensor_location.h"

#include <filesystem>
#include <memory>
#include <string>

namespace dumpscope {

struct Analysis;
struct BufferResult;

// One run's side of a buffer: the file, and where the buffer lies in it when the file holds more
// than its elements (a tensor in a .pt, .npz or safetensors file). Every reader of a buffer's
// elements (the comparison, the element table, the divergence map) opens a side through this.
struct BufferSource {
    std::filesystem::path path;                     // empty: the run has no such buffer
    std::shared_ptr<const TensorLocation> location; // null: the whole file is the buffer
    // Set: the side is known by its fingerprint alone, and `path` is the log that records it.
    std::shared_ptr<const LoggedFingerprint> logged = nullptr;

    bool present() const { return !path.empty(); }
    bool fingerprintOnly() const { return logged != nullptr; }
    // What messages call the buffer: the path, and the tensor's key when it has one.
    std::string displayName() const;
};

// For a buffer without element data (hasElementData): the capture call that writes its step's
// full tensors in the run(s) that hold only its fingerprint, for the front ends to show:
// `Capture("runs/b", mode="full", steps={3})`.
std::string fullTensorsCall(const Analysis& analysis, const BufferResult& buffer);

// Run A's and run B's side of one buffer of `analysis`; not present when that run lacks it.
BufferSource sourceA(const Analysis& analysis, const BufferResult& buffer);
BufferSource sourceB(const Analysis& analysis, const BufferResult& buffer);

} // namespace dumpscope
