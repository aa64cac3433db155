#include "startup/display_check.h"

#include <algorithm>
#include <string_view>

namespace {

bool isSet(const std::function<const char*(const char*)>& getenv, const char* name) {
    const char* value = getenv(name);
    return value && *value;
}

// Help and version only print.
bool onlyPrints(std::string_view arg) {
    for (std::string_view option : {"-h", "--help", "--help-all", "-v", "--version"})
        if (arg == option) return true;
    return false;
}

// Neither do they nor --screenshot need a window.
bool needsNoWindow(std::string_view arg) {
    return onlyPrints(arg) || arg == "--screenshot" || arg.substr(0, 13) == "--screenshot=";
}

constexpr const char* kWhatWorks =
    "Run it in a desktop session or over ssh -X; in a terminal, dumpscope-cli gives the same "
    "verdict";

} // namespace

DisplayCheck checkDisplay(const std::vector<std::string>& args,
                          const std::function<const char*(const char*)>& getenv) {
    DisplayCheck check;
#if defined(__APPLE__) || defined(_WIN32)
    (void)args, (void)getenv; // the platform always has its own window system
#else
    if (isSet(getenv, "QT_QPA_PLATFORM")) return check;
    const bool display = isSet(getenv, "DISPLAY") || isSet(getenv, "WAYLAND_DISPLAY");
    if (std::any_of(args.begin(), args.end(), [display](const std::string& a) {
            return display ? onlyPrints(a) : needsNoWindow(a);
        })) {
        check.useOffscreen = true;
        return check;
    }
    if (display) return check;
    check.error = std::string("dumpscope: no display to open the window on (DISPLAY and "
                              "WAYLAND_DISPLAY are unset). ") +
                  kWhatWorks + "; --screenshot FILE.png works without a display.";
#endif
    return check;
}

std::string unusableDisplayMessage(const std::function<const char*(const char*)>& getenv) {
    std::string where;
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY"})
        if (isSet(getenv, name))
            where += (where.empty() ? "" : ", ") + std::string(name) + "=" + getenv(name);
    return "dumpscope: cannot open the window: Qt could not use the display (" +
           (where.empty() ? std::string("none set") : where) +
           "): no server answers there, access is refused, or Qt's platform plugin is missing. " +
           kWhatWorks +
           "; with QT_QPA_PLATFORM=offscreen, --screenshot FILE.png works without one.";
}
