#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dumpscope {

// A buffer known from a run's capture log alone (docs/reference/fingerprint.md): the dsfp1
// fingerprint of its bytes, and the element type and shape logged beside it. No file of the run
// holds its bytes, so it is compared by fingerprint, never read.
struct LoggedFingerprint {
    std::string file; // the log, relative to the run directory
    std::uint64_t fingerprint = 0;
    std::string typeName; // dumpscope's type name ("f32"), as logged
    std::vector<std::uint64_t> shape;
};

} // namespace dumpscope
