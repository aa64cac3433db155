#pragma once

#include "dumpscope/dtype.h"
#include "dumpscope/tensor_location.h"

#include <compare>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dumpscope {

// "step_<N>_<rest>.bin" -> (N, rest). Rejects N that is not a plain decimal or overflows 64 bits.
struct DumpName {
    std::uint64_t step = 0;
    std::string rest;
};
std::optional<DumpName> parseDumpName(const std::string& fileName);

// A buffer's place in a run: its step, its name there, and its rank (0 without ranks).
struct DumpKey {
    std::uint64_t step = 0;
    std::string name;
    std::uint64_t rank = 0;
    auto operator<=>(const DumpKey&) const = default;
};

struct DumpFile {
    std::uint64_t step = 0;
    // The buffer's name in the run: a raw dump's basename after "step_<N>_" ("h_q_logits"), or
    // a tensor's key in a self-describing file ("layer1.attn.out").
    std::string rest;
    std::string fileName;   // relative to RunScan::dir: "step_1_h_q_logits.bin", "rank0/step_1.pt"
    std::uint64_t size = 0; // the buffer's bytes: the file's, or the tensor's data
    std::int64_t mtimeNs = 0;
    std::uint64_t rank = 0;
    std::string group; // a layout's {group}; empty when the layout has none
    // A tensor inside a self-describing file: where it lies, and its type and shape as the file
    // says (no dtype when the file's type is not one of dumpscope's: typeName says which).
    std::shared_ptr<const TensorLocation> location;
    bool described = false;
    std::optional<DType> dtype;
    std::string typeName;
    std::vector<std::uint64_t> shape;
    std::uint64_t order = 0; // dump order within the step and rank: the file's order of tensors
    std::string error;       // the file could not be listed: the buffer is an error, not absent
    // The whole file was refused (not one tensor of it): `rest` is named after the file, and
    // the other run's tensors from the same file are reported with this error.
    bool refusedFile = false;
    // From the run's fingerprint log (docs/reference/fingerprint.md), when it has one: the
    // buffer's dsfp1 fingerprint, and the names of the captured buffers that fed it (same step
    // and rank); no inputs when something that fed it was not captured, so that production
    // order, not a missing record, decides whether it is a root.
    std::optional<std::uint64_t> fingerprint;
    std::optional<std::vector<std::string>> inputs;
    bool fingerprintOnly = false; // the log has the buffer; no file of the run holds its bytes
    // The log line that lists the buffer's step ("PATH: line N"), shared by the step's buffers;
    // null when no log lists it. Two runs' logs are told apart by model with it.
    std::shared_ptr<const std::string> logLine;
};

// How a run's files are laid out. Empty: found by itself (see docs/reference/formats.md);
// else a pattern of path segments with {rank}, {step}, {group}, {file} and {name}.
struct ScanOptions {
    std::string layout;
    // False: a self-describing file is listed as one file (its name, size and modification
    // time), its header not read. What watching a run needs, as often as files change.
    bool readHeaders = true;
    // False: RunScan::listed stays empty. What a scan that no listing is made of (a plain
    // compare) saves: a name per file.
    bool listFiles = true;
};

// A dump file as a listing of its directory saw it, before any header is read: what a watch judges
// "unchanged" on (step_completion.h).
struct ListedFile {
    std::string name; // relative to the run: "step_3_h_q_logits.bin", "rank0/step_1.pt"
    std::uint64_t size = 0;
    std::int64_t mtimeNs = 0;
    bool operator==(const ListedFile&) const = default;
};

// What a run directory holds. Non-regular entries named like dumps are never opened; they are
// listed in `warnings`. A missing or unreadable directory sets `error`.
struct RunScan {
    std::filesystem::path dir;
    std::map<DumpKey, DumpFile> files;
    std::vector<std::string> warnings;
    std::string error;   // empty when the directory was read
    bool ranked = false; // the run has a directory per rank
    // Every dump file found (with ScanOptions::listFiles), with its step, in the order found: a
    // self-describing file once, whatever it holds and whether or not its header was read, so that
    // a scan that read the headers and one that did not list the same run alike.
    std::vector<std::pair<std::uint64_t, ListedFile>> listed;

    // Built when asked for, not kept per file: a path object holds its parsed components,
    // several hundred bytes each, and a run may hold 100,000 files.
    std::filesystem::path pathOf(const DumpFile& file) const { return dir / file.fileName; }
};

RunScan scanRun(const std::filesystem::path& dir, const ScanOptions& options = {});

// A layout pattern that cannot be used: why, empty when it can.
std::string layoutPatternError(const std::string& pattern);

// What to say of a run folder that holds no dump file at all (analyze() makes it the run's
// error: an empty folder, or the folder above the runs, is not a run that matches). Names the
// subfolders that hold dumps, if any.
std::string noDumpFilesError(const std::filesystem::path& dir);

} // namespace dumpscope
