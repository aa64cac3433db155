#pragma once

#include <cstdint>

namespace dumpscope::detail {

// A test hook, defined only in the core's tests (tests/support/test_hooks.cpp): told how many
// entries the matrix, the extended schema and the verdict looked up by name, so that a test can
// hold that work to the number of buffers and roots rather than their product.
namespace hooks {
[[gnu::weak]] void countNameLookups(std::uint64_t lookups);
} // namespace hooks

inline void countNameLookups(std::uint64_t lookups) {
    if (hooks::countNameLookups) hooks::countNameLookups(lookups);
}

} // namespace dumpscope::detail
