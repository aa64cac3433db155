#include "dialogs/unread_pair_dialog.h"

#include "dumpscope/display_text.h"

#include <QMessageBox>

#include <algorithm>

namespace {

constexpr int kListed = 5;

} // namespace

QString unreadPairMessage(const dumpscope::Analysis& analysis) {
    const auto& buffers = analysis.buffers;
    const bool noneRead =
        !buffers.empty() && std::all_of(buffers.begin(), buffers.end(), [](const auto& b) {
            return !b.pending && (dumpscope::isError(b.status) || dumpscope::isOneSided(b.status));
        });
    const auto errors = std::count_if(buffers.begin(), buffers.end(),
                                      [](const auto& b) { return dumpscope::isError(b.status); });
    if (!noneRead || errors == 0) return {};
    QString message = QObject::tr("No buffer of this pair could be read:");
    int listed = 0;
    for (const auto& b : buffers) {
        if (!dumpscope::isError(b.status)) continue;
        if (listed++ == kListed) {
            message += QObject::tr("\n… and %1 more (see the buffer list)").arg(errors - kListed);
            break;
        }
        // Escaped as the CLI shows it: a file name cannot break the list or carry escapes.
        message += QStringLiteral("\n• ") +
                   QString::fromStdString(dumpscope::report::displayText(b.error));
    }
    return message;
}

void showUnreadPairDialog(QWidget* parent, const QString& message) {
    auto* box = new QMessageBox(QMessageBox::Critical, QObject::tr("Nothing could be read"),
                                message, QMessageBox::Close, parent);
    box->setTextFormat(Qt::PlainText); // a file name with "<b>" in it is a name, not markup
    box->setObjectName(QStringLiteral("unreadPairDialog"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}
