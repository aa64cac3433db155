#include "cli_progress.h"

#include "cli_terminal.h"
#include "dumpscope/result_cache.h"

#include <unistd.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace dumpscope {

namespace {

// What the progress bar counts: both runs' bytes of every planned buffer, by buffer index, and a
// note for each pair whose lengths differ (read whole although only their common part compares).
struct PlannedReads {
    std::vector<std::uint64_t> bytes;
    std::vector<std::string> lengthNotes;
};

PlannedReads plannedReads(const std::string& runA, const std::string& runB,
                          const AnalyzeOptions& options) {
    PlannedReads planned;
    const Analysis listed = plan(runA, runB, options);
    for (const auto& b : listed.buffers) {
        std::uint64_t size[2] = {0, 0};
        bool present[2] = {false, false};
        for (int side = 0; side < 2; ++side) {
            // A regular file (symlinks followed), stat'ed whatever the length of its path; a
            // tensor inside a file is its own bytes, not the file's.
            const BufferSource source = side == 0 ? sourceA(listed, b) : sourceB(listed, b);
            // A fingerprint is not read: its path is the log, which holds every buffer.
            if (!source.present() || source.fingerprintOnly()) continue;
            const auto file = fileIdentity(source.path);
            present[side] = file.has_value();
            if (file)
                size[side] =
                    source.location
                        ? source.location->count *
                              dtypeSize(b.precision() ? b.precision()->typeOf(side == 0) : b.dtype)
                        : file->size;
        }
        planned.bytes.push_back(size[0] + size[1]);
        // Across precisions the bytes differ by design: the elements are what must agree.
        if (present[0] && present[1] && size[0] != size[1] && !b.precision())
            planned.lengthNotes.push_back(lengthMismatchNote(b.fileName, size[0], size[1]));
    }
    return planned;
}

} // namespace

Analysis analyzeWithProgress(const std::string& runA, const std::string& runB,
                             const AnalyzeOptions& options, std::ostream& err) {
    if (!isTerminal(STDERR_FILENO)) return analyze(runA, runB, options);
    const auto planned = plannedReads(runA, runB, options);
    const auto& bytes = planned.bytes;
    std::uint64_t total = 0;
    for (auto n : bytes)
        total += n;
    if (total < kProgressMinBytes) return analyze(runA, runB, options);
    // A few lines are enough to explain a slow bar; the report lists every mismatch anyway.
    constexpr std::size_t kNotes = 3;
    for (std::size_t i = 0; i < planned.lengthNotes.size() && i < kNotes; ++i)
        err << "dumpscope-cli: " << planned.lengthNotes[i] << "\n";
    if (planned.lengthNotes.size() > kNotes)
        err << "dumpscope-cli: and " << planned.lengthNotes.size() - kNotes
            << " more pairs whose lengths differ, each read whole\n";
    ProgressBar bar(err, total, bytes.size());
    std::uint64_t doneBytes = 0;
    Analysis an =
        analyze(runA, runB, options,
                [&](std::size_t index, const BufferResult&, std::size_t done, std::size_t) {
                    doneBytes += index < bytes.size() ? bytes[index] : 0;
                    bar.update(done, doneBytes);
                    return true;
                });
    bar.finish();
    return an;
}

} // namespace dumpscope
