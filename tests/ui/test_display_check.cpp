// checkDisplay (ui/display_check.h): which command lines may run without a display.
#include "display_check.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace {

DisplayCheck check(const std::vector<std::string>& args,
                   const std::map<std::string, std::string>& env) {
    return checkDisplay(args, [&env](const char* name) -> const char* {
        const auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
    });
}

TEST(DisplayCheck, AnyDisplayOrChosenPlatformLeavesQtAlone) {
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}) {
        const auto c = check({"--demo"}, {{name, "x"}});
        EXPECT_FALSE(c.useOffscreen) << name;
        EXPECT_TRUE(c.error.empty()) << name;
    }
}

#if !defined(__APPLE__) && !defined(_WIN32)
TEST(DisplayCheck, WithoutADisplayOnlyWindowlessCommandLinesRunOffscreen) {
    const std::map<std::string, std::string> none{{"DISPLAY", ""}, {"QT_QPA_PLATFORM", ""}};
    for (const auto& args :
         std::vector<std::vector<std::string>>{{"--help"},
                                               {"-h"},
                                               {"--help-all"},
                                               {"--version"},
                                               {"-v"},
                                               {"a", "b", "--screenshot", "x.png"},
                                               {"--demo", "--screenshot=x.png"}}) {
        const auto c = check(args, none);
        EXPECT_TRUE(c.useOffscreen) << args.front();
        EXPECT_TRUE(c.error.empty()) << args.front();
    }
    for (const auto& args :
         std::vector<std::vector<std::string>>{{}, {"--demo"}, {"a", "b"}, {"--screenshots"}}) {
        const auto c = check(args, none);
        EXPECT_FALSE(c.useOffscreen);
        EXPECT_NE(c.error.find("no display"), std::string::npos);
    }
}
#endif

} // namespace
