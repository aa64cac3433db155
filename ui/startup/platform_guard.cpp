#include "startup/platform_guard.h"

#include <QString>
#include <QtGlobal>

#include <cstdio>
#include <cstdlib>

namespace {

std::string g_message;
QtMessageHandler g_previous = nullptr;

void handle(QtMsgType type, const QMessageLogContext& context, const QString& text) {
    if (type != QtFatalMsg) {
        if (g_previous)
            g_previous(type, context, text);
        else
            std::fprintf(stderr, "%s\n", qPrintable(qFormatLogMessage(type, context, text)));
        return;
    }
    std::fprintf(stderr, "%s\n%s\n", qPrintable(text), g_message.c_str());
    std::fflush(stderr);
    std::_Exit(2); // not abort(): Qt would abort right after this handler returns
}

} // namespace

PlatformStartGuard::PlatformStartGuard(std::string message) {
    g_message = std::move(message);
    g_previous = qInstallMessageHandler(handle);
}

PlatformStartGuard::~PlatformStartGuard() {
    qInstallMessageHandler(g_previous);
}
