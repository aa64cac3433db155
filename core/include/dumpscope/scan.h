#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dumpscope {

// "step_<N>_<rest>.bin" -> (N, rest). Rejects N that is not a plain decimal or overflows 64 bits.
struct DumpName {
    std::uint64_t step = 0;
    std::string rest;
};
std::optional<DumpName> parseDumpName(const std::string& fileName);

struct DumpFile {
    std::uint64_t step = 0;
    std::string rest;     // e.g. "h_q_logits"
    std::string fileName; // e.g. "step_1_h_q_logits.bin", in RunScan::dir (RunScan::pathOf)
    std::uint64_t size = 0;
    std::int64_t mtimeNs = 0;
};

// What a run directory holds. Non-regular entries named like dumps are never opened; they are
// listed in `warnings`. A missing or unreadable directory sets `error`.
struct RunScan {
    std::filesystem::path dir;
    std::map<std::pair<std::uint64_t, std::string>, DumpFile> files; // (step, rest) -> file
    std::vector<std::string> warnings;
    std::string error; // empty when the directory was read

    // Built when asked for, not kept per file: a path object holds its parsed components,
    // several hundred bytes each, and a run may hold 100,000 files.
    std::filesystem::path pathOf(const DumpFile& file) const { return dir / file.fileName; }
};

RunScan scanRun(const std::filesystem::path& dir);

// What to say of a run folder that holds no dump file at all (analyze() makes it the run's
// error: an empty folder, or the folder above the runs, is not a run that matches). Names the
// subfolders that hold dumps, if any.
std::string noDumpFilesError(const std::filesystem::path& dir);

} // namespace dumpscope
