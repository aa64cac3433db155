#pragma once

namespace dumpscope::detail {

// A test hook, defined only in the core's tests (tests/support/test_hooks.cpp): told of each
// stat() of a path that fileIdentity() makes, so that a test can hold the result cache to none
// on a pair's first comparison and two on each lookup.
namespace hooks {
[[gnu::weak]] void countIdentityStat();
} // namespace hooks

inline void countIdentityStat() {
    if (hooks::countIdentityStat) hooks::countIdentityStat();
}

} // namespace dumpscope::detail
