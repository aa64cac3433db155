#pragma once

// Before QApplication exists: can the window open? Without a display (no DISPLAY and no
// WAYLAND_DISPLAY, as over plain ssh) Qt would abort in its platform plugin. The command lines
// that need no window — help, version, a screenshot — run on the offscreen platform instead;
// the others get a message saying what to do. Help and version run offscreen with a display
// too: they never need it, and a display that is set but unreachable would stop them. Qt-free,
// so it runs before Qt is set up.
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

// What to tell the user when a display is set but Qt cannot use it (no X server answers at
// DISPLAY, access refused, no platform plugin): names the variables and what works instead.
std::string unusableDisplayMessage(const std::function<const char*(const char*)>& getenv);
