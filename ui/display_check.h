#pragma once

// Before QApplication exists: can the window open? Without a display (no DISPLAY and no
// WAYLAND_DISPLAY, as over plain ssh) Qt would abort in its platform plugin. The command lines
// that need no window — help, version, a screenshot — run on the offscreen platform instead;
// the others get a message saying what to do. Qt-free, so it runs before Qt is set up.
#include <functional>
#include <string>
#include <vector>

struct DisplayCheck {
    bool useOffscreen = false; // set QT_QPA_PLATFORM=offscreen before QApplication
    std::string error;         // non-empty: print it and exit 2
};

// `args` without argv[0]; `getenv` returns a variable's value or nullptr.
DisplayCheck checkDisplay(const std::vector<std::string>& args,
                          const std::function<const char*(const char*)>& getenv);
