#include "startup/startup_error.h"

#include "dumpscope/display_text.h"

#include <QGuiApplication>
#include <QMessageBox>

#include <cstdio>
#include <string>
#include <string_view>

void reportStartupError(const QString& message, bool showDialog) {
    // Escaped as the CLI and the reports show names: a file name quoted in the message can
    // neither end the line nor send the terminal an escape sequence.
    const QByteArray utf8 = message.toUtf8();
    const std::string shown = dumpscope::report::displayText(
        std::string_view(utf8.constData(), std::size_t(utf8.size())));
    std::fprintf(stderr, "dumpscope: %s\n", shown.c_str());
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
