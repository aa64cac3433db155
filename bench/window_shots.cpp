// dumpscope-window-shots: the triage window as a person sees it, at the sizes and palettes the
// layout must hold in, for docs/ and for looking at a change. Offscreen, the real widgets: a
// fresh MainWindow per picture opens RUN_A RUN_B, waits until every panel shows the finished
// analysis, selects the root cause's first differing element, and grabs the window.
// Usage: dumpscope-window-shots RUN_A RUN_B OUT_DIR
//   writes OUT_DIR/window-{1024x700,1500x950,2560x1440}-{light,dark}.png, and the same with the
//   Heatmaps tab shown as window-...-heatmaps.png
#include "panels/element_panel.h"
#include "panels/value_heatmap_panel.h"
#include "window/main_window.h"
#include "window/triage_view.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QPalette>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTemporaryDir>

#include <cstdio>
#include <cstdlib>
#include <functional>

namespace {

// A dark palette as a dark desktop gives one: Fusion's roles on dark greys.
QPalette darkPalette() {
    QPalette p;
    const QColor window(0x2d, 0x2d, 0x30), base(0x1e, 0x1e, 0x1e), text(0xe6, 0xe6, 0xe6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xff));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x6e, 0xa8));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Mid, QColor(0x55, 0x55, 0x55));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    return p;
}

bool waitFor(const std::function<bool()>& done, int ms) {
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > ms) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return true;
}

bool save(QWidget& window, const QString& file) {
    if (!window.grab().save(file)) {
        std::fprintf(stderr, "dumpscope-window-shots: cannot write %s\n", qPrintable(file));
        return false;
    }
    std::printf("%s\n", qPrintable(file));
    return true;
}

} // namespace

int main(int argc, char** argv) {
    setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QStandardPaths::setTestModeEnabled(true); // the user's settings are not touched
    QApplication app(argc, argv);
    if (argc != 4) {
        std::fprintf(stderr, "usage: dumpscope-window-shots RUN_A RUN_B OUT_DIR\n");
        return 2;
    }
    const QString runA = QString::fromLocal8Bit(argv[1]), runB = QString::fromLocal8Bit(argv[2]);
    const QDir out(QString::fromLocal8Bit(argv[3]));
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    const QPalette light = QApplication::style()->standardPalette();
    const QSize sizes[] = {{1024, 700}, {1500, 950}, {2560, 1440}};
    QTemporaryDir settingsDir;
    for (const bool dark : {false, true}) {
        QApplication::setPalette(dark ? darkPalette() : light);
        for (const QSize size : sizes) {
            MainWindow window({nullptr, settingsDir.filePath(QStringLiteral("settings.ini"))});
            window.resize(size);
            window.show();
            bool finished = false;
            QObject::connect(&window, &MainWindow::analysisFinished, [&] { finished = true; });
            window.openPair({runA, runB});
            if (!waitFor([&] { return finished; }, 120000)) {
                std::fprintf(stderr, "dumpscope-window-shots: the analysis did not finish\n");
                return 2;
            }
            window.triageView()->elementPanel()->nextDifference();
            waitFor([] { return false; }, 300); // the map and the repaints settle
            const QString name = QStringLiteral("window-%1x%2-%3")
                                     .arg(size.width())
                                     .arg(size.height())
                                     .arg(dark ? "dark" : "light");
            if (!save(window, out.filePath(name + QStringLiteral(".png")))) return 2;
            // The same window with the heatmaps of that buffer in the details pane.
            ValueHeatmapPanel* heat = window.triageView()->valueHeatmapPanel();
            window.triageView()
                ->findChild<QTabWidget*>(QStringLiteral("bufferDetailTabs"))
                ->setCurrentWidget(heat);
            waitFor([heat] { return !heat->isComputing(); }, 60000);
            waitFor([] { return false; }, 300);
            if (!save(window, out.filePath(name + QStringLiteral("-heatmaps.png")))) return 2;
        }
    }
    return 0;
}
