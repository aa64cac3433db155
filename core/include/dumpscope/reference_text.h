#pragma once

#include <string_view>

// The reference script's verdict wording, word for word. Each text is the block the reference
// prints, with its indentation and line breaks, without the trailing newline.
namespace dumpscope::reference_text {

std::string_view allEqual();   // "VERDICT: all dumped backward-pipeline buffers match ..."
std::string_view gOnly();      // subcase (1)
std::string_view hWithoutG();  // subcase (2)
std::string_view iDiverges();  // subcase (3)
std::string_view jWithoutI();  // subcase (4)
std::string_view unexpected(); // "\n  WARNING: divergent group(s) not in expected G/H/I/J set..."
std::string_view crossCheck(); // "\n  Cross-check: if mamba2 dump shows ..."

} // namespace dumpscope::reference_text
