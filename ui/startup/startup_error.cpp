#include "startup/startup_error.h"

#include <QGuiApplication>
#include <QMessageBox>

#include <cstdio>

namespace {

// The message's control characters as "\xNN", as the CLI shows names: a file name quoted in it
// can neither end the line nor send the terminal an escape sequence.
QByteArray terminalSafe(const QString& message) {
    QByteArray out;
    for (const char c : message.toUtf8()) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f)
            out += QByteArrayLiteral("\\x") +
                   QByteArray::number(u, 16).rightJustified(2, '0').toUpper();
        else
            out += c;
    }
    return out;
}

} // namespace

void reportStartupError(const QString& message, bool showDialog) {
    std::fprintf(stderr, "dumpscope: %s\n", terminalSafe(message).constData());
    if (!showDialog) return;
    QMessageBox box(QMessageBox::Critical, QObject::tr("dumpscope cannot start"), message,
                    QMessageBox::Close);
    box.setTextFormat(Qt::PlainText); // a name with "<b>" in it is a name, not markup
    box.setObjectName(QStringLiteral("startupError"));
    box.exec();
}

bool platformShowsWindows() {
    const QString platform = QGuiApplication::platformName();
    return platform != QLatin1String("offscreen") && platform != QLatin1String("minimal");
}
