#include "dialogs/about_box.h"

#include "dumpscope/version.h"

#include <QIcon>

AboutBox::AboutBox(QWidget* parent) : QMessageBox(parent) {
    setObjectName(QStringLiteral("aboutBox"));
    setWindowTitle(tr("About dumpscope"));
    setIconPixmap(QIcon(QStringLiteral(":/icons/dumpscope.svg")).pixmap(64, 64));
    setTextFormat(Qt::RichText);
    setText(aboutText());
    setStandardButtons(QMessageBox::Close);
}

QString AboutBox::aboutText() {
    const auto version = dumpscope::version();
    return tr("<h3>dumpscope %1</h3>"
              "<p>Finds the first kernel that made two runs of the same training job differ: "
              "compares their buffer dumps bit for bit and names the root cause by dataflow.</p>"
              "<p>Qt %2 (built with Qt %3)</p>")
        .arg(QString::fromUtf8(version.data(), static_cast<qsizetype>(version.size())),
             QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR));
}
