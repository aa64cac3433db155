#include "dumpscope/report.h"

#include <stdexcept>

namespace dumpscope {

// Link stubs so the CLI can call them while the writers are implemented.
std::optional<ReportFormat> reportFormatFor(const std::filesystem::path&) { return std::nullopt; }
std::string renderReport(const Analysis&, ReportFormat) { return {}; }
void writeReport(const Analysis&, const std::filesystem::path& path) {
    throw std::runtime_error("cannot write report " + path.string() + ": not implemented yet");
}

} // namespace dumpscope
