#pragma once

#include <string>

// While it lives (around QApplication's construction): a fatal Qt message, which is how Qt
// reports that no platform plugin could start (a DISPLAY no X server answers, say), prints Qt's
// message and then `message`, and exits with status 2 instead of aborting. Other messages go
// to the handler that was installed before.
class PlatformStartGuard {
  public:
    explicit PlatformStartGuard(std::string message);
    ~PlatformStartGuard();
    PlatformStartGuard(const PlatformStartGuard&) = delete;
    PlatformStartGuard& operator=(const PlatformStartGuard&) = delete;
};
