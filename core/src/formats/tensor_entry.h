#pragma once
// What a self-describing file holds: its tensors, each with its element type, shape and
// location, in the order the file lists them (the dump order, which is execution order for
// hook-based dumps). Every reader here reads headers only, through DumpReader's bounded preads;
// tensor data is read later, by offset, like a raw dump.
#include "dumpscope/dtype.h"
#include "dumpscope/tensor_location.h"
#include "io/dump_reader.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dumpscope::detail {

struct TensorEntry {
    // The tensor's name in the file: a safetensors / npz key ("x" for "x.npy"), a torch.save
    // dotted path ("layer1.attn.out", "grads.0"); empty for a lone .npy (the file is the buffer).
    std::string key;
    // Null when the file's type alone does not name one of dumpscope's element types (`<V2`,
    // `complex64`, ...): `typeName` then says what the file has. The plan takes the schema's
    // type for it when the schema names the buffer, and otherwise warns and leaves it out.
    std::optional<DType> dtype;
    std::string typeName;             // as the file spells it: "<f4", "F32", "torch.float32"
    std::uint64_t itemBytes = 0;      // bytes per element as the file says; 0 when it cannot
    std::vector<std::uint64_t> shape; // outermost first; empty for a 0-d tensor (one element)
    TensorLocation location;          // location.file is the listed file's relative path
};

// A tensor (or a member that should hold one) that the file names but that cannot be read: its
// key, as a listed tensor's would be, and why, naming the file, the entry and the byte.
struct RefusedEntry {
    std::string key;
    std::string error;
};

struct ContainerListing {
    std::vector<TensorEntry> tensors; // the file's order
    // Entries refused one by one, the others still listed: each becomes an error buffer, never
    // a buffer left out, so that a run holding one can never read as matching.
    std::vector<RefusedEntry> refused;
    // The whole file refused: "PATH: byte B: what is wrong" (or "PATH: what" when no byte
    // applies). `tensors` is then empty.
    std::string error;
    // What is said of a value that is not a tensor (a torch.save dtype or bare storage) or of
    // bytes past an array's data, naming the file and the entry.
    std::vector<std::string> warnings;
};

// Each reads the opened `file` (whose size bounds every offset) and fills the locations with
// `relativePath` as their file. None reads tensor data, none allocates more than its header's
// size (capped), and none throws.
ContainerListing listNpy(const DumpReader& file, const std::string& relativePath);
ContainerListing listNpz(const DumpReader& file, const std::string& relativePath);
ContainerListing listSafetensors(const DumpReader& file, const std::string& relativePath);
ContainerListing listTorchSave(const DumpReader& file, const std::string& relativePath);

} // namespace dumpscope::detail
