#pragma once

// A test hook, defined only in the core's tests (tests/support/test_hooks.cpp): told each time a
// pair's runs are scanned and planned, so a test can know how often a front end listed a pair.
namespace dumpscope::detail::hooks {
[[gnu::weak]] void countPlan();
} // namespace dumpscope::detail::hooks
