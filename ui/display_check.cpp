#include "display_check.h"

#include <algorithm>
#include <string_view>

namespace {

bool isSet(const std::function<const char*(const char*)>& getenv, const char* name) {
    const char* value = getenv(name);
    return value && *value;
}

// Help, version and --screenshot need no window.
bool needsNoWindow(std::string_view arg) {
    for (std::string_view option :
         {"-h", "--help", "--help-all", "-v", "--version", "--screenshot"})
        if (arg == option) return true;
    return arg.substr(0, 13) == "--screenshot=";
}

} // namespace

DisplayCheck checkDisplay(const std::vector<std::string>& args,
                          const std::function<const char*(const char*)>& getenv) {
    DisplayCheck check;
#if defined(__APPLE__) || defined(_WIN32)
    (void)args, (void)getenv; // the platform always has its own window system
#else
    if (isSet(getenv, "QT_QPA_PLATFORM") || isSet(getenv, "DISPLAY") ||
        isSet(getenv, "WAYLAND_DISPLAY"))
        return check;
    if (std::any_of(args.begin(), args.end(),
                    [](const std::string& a) { return needsNoWindow(a); })) {
        check.useOffscreen = true;
        return check;
    }
    check.error =
        "dumpscope: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset). "
        "Run it in a desktop session or over ssh -X; in a terminal, dumpscope-cli gives the same "
        "verdict; --screenshot FILE.png works without a display.";
#endif
    return check;
}
