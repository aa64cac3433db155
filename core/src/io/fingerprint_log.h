#pragma once
// The fingerprint log a capture writes beside its run (docs/reference/fingerprint.md): read
// strictly, so that a log cut short, written twice or naming what it does not hold is refused
// by file and line rather than compared as if it were whole.
#include "dumpscope/dtype.h"
#include "dumpscope/scan.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dumpscope::detail {

inline constexpr const char* kFingerprintLogName = "dumpscope-fingerprints.jsonl";

struct LoggedBuffer {
    std::string name;
    std::optional<DType> dtype; // none: a type dumpscope has no arithmetic for (typeName says)
    std::string typeName;
    std::vector<std::uint64_t> shape;
    std::uint64_t count = 1; // elements: the product of the shape
    std::uint64_t fingerprint = 0;
    std::optional<std::vector<std::size_t>> inputs; // indices of earlier buffers of the step
};

struct LoggedStep {
    std::uint64_t step = 0;
    std::string file; // the full tensors beside the log; empty when fingerprinted only
    std::size_t line = 0;
    std::vector<LoggedBuffer> buffers; // production order
};

struct FingerprintLog {
    std::string mode; // "full", "hash" or "auto"
    std::optional<std::uint64_t> rank;
    std::vector<LoggedStep> steps; // as written
};

// The log's text; `error` is "NAME: line N: why" when it is refused (then the log is empty).
FingerprintLog parseFingerprintLog(std::string_view text, const std::string& name,
                                   std::string& error);
FingerprintLog readFingerprintLog(const std::filesystem::path& path, std::string& error);

// Adds the log at `root` (a run's folder, or a rank's: `prefix` is its path in the run) to what
// the scan found there. A logged step whose tensors the scan listed gives them the log's
// fingerprint, inputs and production order; a step without them becomes fingerprint-only
// buffers. A log that is refused is the run's error. Without `options.readHeaders` (a watcher's
// listing) step files stay single entries and only fingerprint-only steps are added. With
// `options.listFiles`, the log is listed as the file of each fingerprint-only step.
void addFingerprintLog(RunScan& scan, const std::filesystem::path& root, const std::string& prefix,
                       std::uint64_t rank, const ScanOptions& options);

// Why run B, compared with run A, is a capture of another model; empty when it is not. At a step
// and rank where both runs' buffers are listed by their logs, fewer than half the names of the
// longer list are in the other: the two logs record different networks, and comparing the few
// names they share would report a divergence that is no bug. A buffer missing from one side
// among many shared (an expert its routing skipped) stays a one-sided buffer, a divergence.
std::string otherModelError(const RunScan& a, const RunScan& b);

} // namespace dumpscope::detail
