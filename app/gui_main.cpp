// dumpscope: the triage window. Thin: parses the command line and hands over to MainWindow.
#include "startup/display_check.h"
#include "startup/platform_guard.h"
#include "startup/startup_error.h"
#include "window/main_window.h"

#include "dumpscope/option_ranges.h"
#include "dumpscope/report.h"
#include "dumpscope/scan.h"
#include "dumpscope/schema.h"
#include "dumpscope/version.h"

#include <QApplication>
#include <QBuffer>
#include <QCommandLineParser>
#include <QTimer>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

int main(int argc, char** argv) {
    const DisplayCheck display = checkDisplay(std::vector<std::string>(argv + 1, argv + argc),
                                              [](const char* name) { return std::getenv(name); });
    if (!display.error.empty()) {
        std::fprintf(stderr, "%s\n", display.error.c_str());
        return 2;
    }
    if (display.useOffscreen) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    auto guard = std::make_unique<PlatformStartGuard>(
        unusableDisplayMessage([](const char* name) { return std::getenv(name); }));
    QApplication app(argc, argv);
    guard.reset();
    QApplication::setOrganizationName(QStringLiteral("dumpscope"));
    QApplication::setApplicationName(QStringLiteral("dumpscope"));
    QApplication::setApplicationVersion(
        QString::fromUtf8(dumpscope::version().data(), dumpscope::version().size()));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Compare the buffer dumps of two runs and triage where they first diverge."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("RUN_A RUN_B"),
        QStringLiteral(
            "the two runs' dump folders; more folders are candidates compared with RUN_A"),
        QStringLiteral("[RUN_A RUN_B [MORE_RUNS…]]"));
    const QCommandLineOption demo(QStringLiteral("demo"),
                                  QStringLiteral("Open the built-in demo pair."));
    const QCommandLineOption schema(QStringLiteral("schema"),
                                    QStringLiteral("Group and buffer schema (JSON)."),
                                    QStringLiteral("FILE"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Once the analysis has finished, save the window as PNG and exit."),
        QStringLiteral("FILE.png"));
    const QCommandLineOption floor(
        QStringLiteral("floor"),
        QStringLiteral("A rerun of RUN_A's build (repeatable): the pair is read over their noise "
                       "floor."),
        QStringLiteral("RERUN"));
    const QCommandLineOption layout(
        QStringLiteral("layout"),
        QStringLiteral("Where the runs' files are, as a pattern with {rank}, {step}, {group}, "
                       "{file} and {name} (default: found by itself)."),
        QStringLiteral("PATTERN"));
    const QCommandLineOption groupDepth(
        QStringLiteral("group-depth"),
        QStringLiteral("Group buffers read without a schema by this many components of their "
                       "dotted names (default: chosen by itself)."),
        QStringLiteral("N"));
    parser.addOptions({demo, schema, screenshot, floor, layout, groupDepth});
    parser.process(app);

    const QStringList runs = parser.positionalArguments();
    if (parser.isSet(floor) && runs.size() != 2) {
        reportStartupError(QStringLiteral("--floor reads a pair over reruns of RUN_A's build: "
                                          "give RUN_A and RUN_B"),
                           platformShowsWindows());
        return 2;
    }
    if (runs.size() == 1 || (parser.isSet(demo) && !runs.isEmpty())) {
        reportStartupError(
            QStringLiteral("give two run folders (or a base and several candidates), "
                           "or --demo, or nothing"),
            platformShowsWindows());
        return 2;
    }

    MainWindow::Options options;
    if (parser.isSet(schema)) {
        try {
            options.schema = std::make_shared<const dumpscope::Schema>(
                dumpscope::loadSchemaFile(parser.value(schema).toStdString()));
        } catch (const std::exception& e) {
            // Said as the CLI says it: the file, line and column alone do not say it is the
            // schema that stopped the start.
            reportStartupError(QStringLiteral("schema refused: ") + QString::fromUtf8(e.what()),
                               platformShowsWindows());
            return 2;
        }
    }

    if (parser.isSet(layout)) {
        const std::string pattern = parser.value(layout).toStdString();
        if (const std::string why = dumpscope::layoutPatternError(pattern); !why.empty()) {
            reportStartupError(QStringLiteral("--layout %1: %2")
                                   .arg(parser.value(layout), QString::fromStdString(why)),
                               platformShowsWindows());
            return 2;
        }
    }

    std::size_t depth = 0;
    if (parser.isSet(groupDepth)) {
        bool ok = false;
        const qulonglong value = parser.value(groupDepth).toULongLong(&ok);
        if (!ok || !dumpscope::kGroupDepthRange.contains(value)) {
            reportStartupError(
                QStringLiteral("--group-depth %1: expected %2")
                    .arg(parser.value(groupDepth),
                         QString::fromUtf8(
                             dumpscope::kGroupDepthRange.words.data(),
                             static_cast<qsizetype>(dumpscope::kGroupDepthRange.words.size()))),
                platformShowsWindows());
            return 2;
        }
        depth = static_cast<std::size_t>(value);
    }

    MainWindow window(options);
    if (parser.isSet(layout)) window.setDumpLayout(parser.value(layout));
    window.setGroupDepth(depth);
    window.show();

    if (parser.isSet(screenshot)) {
        const QString file = parser.value(screenshot);
        // The picture goes through the core's writer, as reports and CSV exports do: never
        // into a run being compared (a stray file there is a new "unclassified" buffer), and
        // whole or not at all.
        auto save = [&window, file, runs] {
            QByteArray png;
            QBuffer buffer(&png);
            buffer.open(QIODevice::WriteOnly);
            QString error;
            if (!window.grab().save(&buffer, "PNG")) {
                error = QStringLiteral("cannot encode the window as PNG");
            } else {
                std::vector<std::filesystem::path> runDirs;
                for (const QString& run : runs)
                    runDirs.emplace_back(run.toStdString());
                if (const auto pair = window.currentPair()) { // the demo's, or one opened later
                    runDirs.emplace_back(pair->runA.toStdString());
                    runDirs.emplace_back(pair->runB.toStdString());
                }
                try {
                    dumpscope::writeFileAtomically(
                        file.toStdString(), runDirs, "screenshot",
                        [&png](const dumpscope::WriteSink& sink) {
                            sink(std::string_view(png.constData(), std::size_t(png.size())));
                        });
                } catch (const std::exception& e) {
                    error = QString::fromUtf8(e.what());
                }
            }
            if (!error.isEmpty()) std::fprintf(stderr, "dumpscope: %s\n", qPrintable(error));
            QCoreApplication::exit(error.isEmpty() ? 0 : 2);
        };
        // Queued: the panels lay out the final snapshot before the window is grabbed.
        auto later = [save] { QTimer::singleShot(0, save); };
        QObject::connect(&window, &MainWindow::analysisFinished, &app, later);
        QObject::connect(&window, &MainWindow::analysisFailed, &app, [] {
            std::fprintf(stderr, "dumpscope: the analysis failed\n");
            QCoreApplication::exit(2);
        });
        if (runs.isEmpty() && !parser.isSet(demo)) later(); // the start page
    }

    if (parser.isSet(demo)) {
        if (!window.openDemo()) return 2;
    } else if (runs.size() == 2) {
        window.openPairWithFloor({runs[0], runs[1]}, parser.values(floor));
    } else if (runs.size() > 2) {
        window.openCandidates(runs.front(), runs.mid(1));
    }
    return app.exec();
}
