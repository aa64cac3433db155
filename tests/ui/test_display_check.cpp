// checkDisplay (ui/startup/display_check.h): which command lines may run without a display.
#include "startup/display_check.h"

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
// Help and version never need the display, and one that is set but unreachable would stop them;
// a screenshot with a display uses it (the user's look), as does the window.
TEST(DisplayCheck, HelpAndVersionRunOffscreenEvenWithADisplay) {
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY"}) {
        for (const char* arg : {"--help", "-h", "--help-all", "--version", "-v"}) {
            const auto c = check({arg}, {{name, ":1"}});
            EXPECT_TRUE(c.useOffscreen) << name << " " << arg;
            EXPECT_TRUE(c.error.empty());
        }
        EXPECT_FALSE(check({"--demo", "--screenshot", "x.png"}, {{name, ":1"}}).useOffscreen);
        EXPECT_FALSE(check({"a", "b"}, {{name, ":1"}}).useOffscreen);
    }
    EXPECT_FALSE(check({"--version"}, {{"DISPLAY", ":1"}, {"QT_QPA_PLATFORM", "xcb"}}).useOffscreen)
        << "a platform the user chose is left alone";
}

TEST(DisplayCheck, TheUnusableDisplayMessageNamesItAndWhatWorksInstead) {
    const auto message = [](const std::map<std::string, std::string>& env) {
        return unusableDisplayMessage([&env](const char* name) -> const char* {
            const auto it = env.find(name);
            return it == env.end() ? nullptr : it->second.c_str();
        });
    };
    const std::string x = message({{"DISPLAY", ":99"}});
    EXPECT_NE(x.find("DISPLAY=:99"), std::string::npos) << x;
    EXPECT_NE(x.find("dumpscope-cli"), std::string::npos) << x;
    EXPECT_NE(x.find("QT_QPA_PLATFORM=offscreen"), std::string::npos) << x;
    const std::string both = message({{"DISPLAY", ":1"}, {"WAYLAND_DISPLAY", "wayland-0"}});
    EXPECT_NE(both.find("DISPLAY=:1, WAYLAND_DISPLAY=wayland-0"), std::string::npos) << both;
}

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
