#pragma once

#include <filesystem>

namespace dumpscope {

// Writes a small deterministic demo pair, DIR/a and DIR/b, in the default schema's layout:
// steps 0-3, every buffer of groups G..K. From step 1 on, q_logits (group H) differs by a few
// ULP and the difference spreads to group J and group I, as in a real noisy head. The bytes are
// the same on every machine. Creates DIR if needed; throws std::runtime_error on failure.
void makeDemo(const std::filesystem::path& dir);

} // namespace dumpscope
