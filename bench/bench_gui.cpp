// dumpscope-bench-gui: the window's speed targets measured on the real widgets, offscreen.
//   matrix:  time from MainWindow::openPair on PAIR_DIR/{a,b} to the finished matrix (page cache
//            warm; a fresh window per run, so nothing is reused between runs);
//   stall:   the longest gap between two ticks of a 5 ms QTimer on the GUI thread during those
//            analyses and the 200 ms after each (the repaints the verdict causes); an event
//            loop that never stalls shows gaps of about 5 ms;
//   filter:  a 100-million-element float32 buffer in the element panel: time from selecting it
//            to "only differing elements" showing the differences (the index of differences is
//            built in a thread), with the longest GUI stall meanwhile; then sorting those
//            differences by |Δ| (in a thread too), with its longest GUI stall;
//   scroll:  the longest of 100 jumps to random positions of that buffer, each repainted.
// Prints one "name<TAB>value" line per figure (seconds) for bench/run.sh. Never a unit test:
// these are timings.
//   open:    (--open) one pair of runs as a user opens it, for bench/scale.sh: time from openPair
//            to the first verdict painted (a snapshot naming the first divergent step, or the
//            final one, then the window's next repaint), to the last step compared (the
//            analysis finished), and the longest GUI-thread stall meanwhile.
// Usage: dumpscope-bench-gui PAIR_DIR BIG_DIR [--runs N] [--elements N] [--trace]
//        dumpscope-bench-gui --open RUN_A RUN_B [--schema FILE] [--trace]
//   BIG_DIR/{a,b} get the 100M-element pair (1% of the elements 1 ULP apart) unless present.
//   --trace prints to stderr each gap over 25 ms and each event that took the GUI thread over
//   5 ms (a paint over 1 ms), with its receiver: what a stall was spent on.
// Each window is on screen (exposed, first paint done) before its pair is opened: a user opens
// a pair in a window that is already shown.
#include "models/element_table_model.h"
#include "panels/element_panel.h"
#include "window/main_window.h"
#include "workers/analysis_worker.h"

#include "dumpscope/analyze.h"
#include "dumpscope/schema.h"

#include <QApplication>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QWindow>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

bool g_trace = false; // --trace: what the GUI thread spent each long gap on, on stderr
// --open: the window whose repaint after the first verdict is timed, and when that verdict came.
const QWidget* g_paintedWindow = nullptr;
bool g_verdictShown = false;
QElapsedTimer g_openClock;
double g_verdictPaintedS = -1;

// The longest gap between ticks of a 5 ms timer on the GUI thread while it runs.
class StallMeter {
  public:
    StallMeter() {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(5);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            if (g_trace && now - m_last > 25'000'000)
                std::fprintf(stderr, "gap of %.1f ms from %.1f ms after the start\n",
                             (now - m_last) / 1e6, m_last / 1e6);
            m_maxGap = std::max(m_maxGap, now - m_last);
            m_last = now;
        });
    }
    void start() {
        m_clock.start();
        m_last = 0;
        m_timer.start();
    }
    // The longest gap, counting the one still open.
    double stopSeconds() {
        m_timer.stop();
        m_maxGap = std::max(m_maxGap, m_clock.nsecsElapsed() - m_last);
        return static_cast<double>(m_maxGap) / 1e9;
    }

  private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0, m_maxGap = 0;
};

// Runs the event loop until `done()` holds (checked on every event-loop pass), or dies. The
// loop sleeps between events as the window's own exec() does: processEvents(flags, maxTime)
// ignores WaitForMoreEvents and returns at once, and looping on it kept a core busy that the
// analysis being timed competes for. A 20 ms tick wakes it to check `done()` on a clock.
template <typename Done> void waitFor(Done done, const char* what) {
    QElapsedTimer clock;
    clock.start();
    QTimer tick;
    tick.start(20);
    while (!done()) {
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
        if (clock.elapsed() > 600'000) {
            std::fprintf(stderr, "dumpscope-bench-gui: gave up waiting for %s\n", what);
            std::exit(2);
        }
    }
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// A float32 buffer of `n` elements per run, B 1 ULP from A at every 100th element.
void writeBigPair(const fs::path& dir, std::uint64_t n, const std::string& file) {
    if (fs::exists(dir / "a" / file) && fs::file_size(dir / "a" / file) == n * 4) return;
    fs::create_directories(dir / "a");
    fs::create_directories(dir / "b");
    std::ofstream a(dir / "a" / file, std::ios::binary), b(dir / "b" / file, std::ios::binary);
    std::vector<std::uint32_t> chunkA(1 << 20), chunkB(1 << 20);
    std::uint64_t s = 1;
    for (std::uint64_t i = 0; i < n; i += chunkA.size()) {
        const std::size_t len =
            static_cast<std::size_t>(std::min<std::uint64_t>(chunkA.size(), n - i));
        for (std::size_t k = 0; k < len; ++k) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            const std::uint64_t r = s >> 11;
            chunkA[k] = static_cast<std::uint32_t>((r & 1) << 31 | (107 + (r >> 1) % 20) << 23 |
                                                   (r >> 8 & 0x7FFFFF));
            chunkB[k] = (i + k) % 100 == 0 ? chunkA[k] ^ 1u : chunkA[k];
        }
        a.write(reinterpret_cast<const char*>(chunkA.data()),
                static_cast<std::streamsize>(len * 4));
        b.write(reinterpret_cast<const char*>(chunkB.data()),
                static_cast<std::streamsize>(len * 4));
    }
    if (!a || !b) {
        std::fprintf(stderr, "dumpscope-bench-gui: cannot write %s\n", dir.c_str());
        std::exit(2);
    }
}

// With --trace, every event the GUI thread took more than 5 ms over (paints: 1 ms) is printed
// with its receiver (class/objectName in its parent's), so that a gap the stall meter reports
// can be read as the work that made it.
class TracingApp : public QApplication {
  public:
    using QApplication::QApplication;
    bool notify(QObject* receiver, QEvent* event) override {
        // The window's widgets are painted in its UpdateRequest: once that returns after the
        // first verdict arrived, the verdict is on screen.
        if (g_verdictShown && g_verdictPaintedS < 0 && receiver == g_paintedWindow &&
            event->type() == QEvent::UpdateRequest) {
            const bool result = QApplication::notify(receiver, event);
            g_verdictPaintedS = static_cast<double>(g_openClock.nsecsElapsed()) / 1e9;
            return result;
        }
        if (!g_trace) return QApplication::notify(receiver, event);
        // Who received it, taken before delivery (it may delete the receiver) without building
        // a string: the names are only formatted for the few events worth printing.
        const Who who(receiver), parent(receiver->parent());
        const QEvent::Type type = event->type();
        QElapsedTimer clock;
        clock.start();
        const bool result = QApplication::notify(receiver, event);
        const qint64 took = clock.nsecsElapsed();
        if (took > (type == QEvent::Paint ? 1'000'000 : 5'000'000))
            std::fprintf(stderr, "  event %d to %s%s%s: %.1f ms\n", int(type),
                         qPrintable(who.text()), parent.className ? " in " : "",
                         qPrintable(parent.text()), took / 1e6);
        return result;
    }

  private:
    struct Who {
        explicit Who(const QObject* o)
            : className(o ? o->metaObject()->className() : nullptr),
              objectName(o ? o->objectName() : QString()) {}
        QString text() const {
            return className ? QString::fromLatin1(className) + QLatin1Char('/') + objectName
                             : QString();
        }
        const char* className; // static metadata: outlives the object
        QString objectName;    // implicitly shared: a copy allocates nothing
    };
};

void print(const char* name, double seconds) {
    std::printf("%s\t%.4f\n", name, seconds);
}

// The window on screen, first paint done: a user opens a pair in a window already shown.
void showSettled(MainWindow& window) {
    window.resize(1400, 900);
    window.show();
    waitFor([&] { return window.windowHandle() && window.windowHandle()->isExposed(); },
            "the window's first expose");
    QElapsedTimer settle;
    settle.start();
    waitFor([&] { return settle.elapsed() >= 100; }, "the window's first paint");
}

// --open RUN_A RUN_B [--schema FILE]: one pair, in a fresh window.
int openOnePair(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: dumpscope-bench-gui --open RUN_A RUN_B [--schema FILE]\n");
        return 2;
    }
    QTemporaryDir settingsDir;
    MainWindow::Options options{nullptr, settingsDir.filePath(QStringLiteral("settings.ini"))};
    for (int i = 4; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--schema") == 0) try {
                options.schema =
                    std::make_shared<const dumpscope::Schema>(dumpscope::loadSchemaFile(argv[++i]));
            } catch (const dumpscope::SchemaError& e) {
                std::fprintf(stderr, "dumpscope-bench-gui: %s\n", e.what());
                return 2;
            }
    MainWindow window(options);
    showSettled(window);
    g_paintedWindow = &window;
    double finishedS = -1;
    const auto seen = [&](quint64, const SnapshotPtr& s) {
        if (!g_verdictShown && (s->finished || s->analysis->verdict.firstDivergentStep))
            g_verdictShown = true;
    };
    QObject::connect(window.analysisWorker(), &AnalysisWorker::progressed, seen);
    QObject::connect(window.analysisWorker(), &AnalysisWorker::finished, seen);
    QObject::connect(&window, &MainWindow::analysisFinished,
                     [&] { finishedS = static_cast<double>(g_openClock.nsecsElapsed()) / 1e9; });
    StallMeter stall;
    stall.start();
    g_openClock.start();
    window.openPair({QString::fromUtf8(argv[2]), QString::fromUtf8(argv[3])});
    waitFor([&] { return finishedS >= 0; }, "the analysis");
    window.update(); // a final verdict with nothing left to repaint is on screen already
    waitFor([&] { return g_verdictPaintedS >= 0; }, "the verdict's repaint");
    // The repaints that follow the verdict count too: the stall meter runs 200 ms longer.
    QElapsedTimer linger;
    linger.start();
    waitFor([&] { return linger.elapsed() >= 200; }, "the repaints after the verdict");
    print("first_verdict_painted_s", g_verdictPaintedS);
    print("last_step_compared_s", finishedS);
    print("stall_max_s", stall.stopSeconds());
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QStandardPaths::setTestModeEnabled(true); // keeps the bench's settings away from the user's
    TracingApp app(argc, argv);
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--trace") == 0) g_trace = true;
    if (argc > 1 && std::strcmp(argv[1], "--open") == 0) return openOnePair(argc, argv);
    if (argc < 3) {
        std::fprintf(
            stderr,
            "usage: dumpscope-bench-gui PAIR_DIR BIG_DIR [--runs N] [--elements N] [--trace]\n");
        return 2;
    }
    const fs::path pair = argv[1], big = argv[2];
    int runs = 5;
    std::uint64_t elements = 100'000'000;
    for (int i = 3; i < argc; ++i) {
        if (i + 1 >= argc) continue;
        if (std::strcmp(argv[i], "--runs") == 0)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--elements") == 0)
            elements = std::strtoull(argv[++i], nullptr, 10);
    }
    QTemporaryDir settingsDir;

    // --- the matrix of the pair, and the GUI thread meanwhile ---------------------------------
    std::vector<double> matrixTimes, matrixStalls;
    for (int run = 0; run < runs; ++run) {
        MainWindow window({nullptr, settingsDir.filePath(QStringLiteral("settings.ini"))});
        // Its first expose and paint are not part of the analysis: over before the meter starts.
        showSettled(window);
        bool finished = false;
        StallMeter stall;
        QElapsedTimer clock;
        QObject::connect(&window, &MainWindow::analysisFinished, [&] {
            finished = true;
            if (g_trace)
                std::fprintf(stderr, "analysis finished after %.1f ms\n",
                             clock.nsecsElapsed() / 1e6);
        });
        stall.start();
        clock.start();
        window.openPair({QString::fromStdString((pair / "a").string()),
                         QString::fromStdString((pair / "b").string())});
        waitFor([&] { return finished; }, "the analysis");
        matrixTimes.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e9);
        // The repaints that follow the verdict count too: the stall meter runs 200 ms longer.
        QElapsedTimer linger;
        linger.start();
        waitFor([&] { return linger.elapsed() >= 200; }, "the repaints after the verdict");
        matrixStalls.push_back(stall.stopSeconds());
    }
    print("matrix_complete_s", median(matrixTimes));
    print("matrix_stall_max_s", *std::max_element(matrixStalls.begin(), matrixStalls.end()));
    // Each run's longest stall, in run order (milliseconds): how much of the maximum is one run.
    std::printf("matrix_stall_runs_ms\t");
    for (std::size_t i = 0; i < matrixStalls.size(); ++i)
        std::printf("%s%.0f", i ? "," : "", matrixStalls[i] * 1000);
    std::printf("\n");

    // --- "only differing" on a 100M-element buffer, then scrolling through it ----------------
    const std::string file = "step_0_i_cfc_grad_w_in_scratch.bin"; // a float32 buffer of the schema
    writeBigPair(big, elements, file);
    dumpscope::Analysis analysis = dumpscope::analyze(big / "a", big / "b");
    auto shared = std::make_shared<const dumpscope::Analysis>(std::move(analysis));
    int bufferIndex = -1;
    for (std::size_t i = 0; i < shared->buffers.size(); ++i)
        if (shared->buffers[i].fileName == file) bufferIndex = static_cast<int>(i);
    if (bufferIndex < 0 || shared->buffers[std::size_t(bufferIndex)].stats.nDiff == 0) {
        std::fprintf(stderr, "dumpscope-bench-gui: the big pair was not compared as expected\n");
        return 2;
    }
    const std::uint64_t nDiff = shared->buffers[std::size_t(bufferIndex)].stats.nDiff;
    std::vector<double> filterTimes;
    double filterStall = 0, scrollMax = 0, sortTime = 0, sortStall = 0;
    for (int run = 0; run < runs; ++run) {
        ElementPanel panel;
        panel.resize(1000, 700);
        panel.show();
        QCoreApplication::processEvents();
        StallMeter stall;
        QElapsedTimer clock;
        stall.start();
        clock.start();
        panel.setBuffer(shared, bufferIndex);
        waitFor([&] { return panel.isIndexReady(); }, "the index of differences");
        panel.onlyDifferingBox()->setChecked(true);
        panel.view()->viewport()->repaint();
        filterTimes.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e9);
        filterStall = std::max(filterStall, stall.stopSeconds());
        if (panel.model()->rowCount() == 0) {
            std::fprintf(stderr,
                         "dumpscope-bench-gui: the filtered table is empty (%llu differences)\n",
                         static_cast<unsigned long long>(nDiff));
            return 2;
        }
        if (run > 0) continue;
        // Scrolling: jumps across all elements, each one repainted before the next.
        panel.onlyDifferingBox()->setChecked(false);
        QCoreApplication::processEvents();
        std::uint64_t s = 7;
        for (int jump = 0; jump < 100; ++jump) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            QElapsedTimer one;
            one.start();
            QScrollBar* bar = panel.scrollBar();
            bar->setValue(
                bar->minimum() +
                static_cast<int>((s >> 33) % std::uint64_t(bar->maximum() - bar->minimum() + 1)));
            panel.view()->viewport()->repaint();
            QCoreApplication::processEvents();
            scrollMax = std::max(scrollMax, static_cast<double>(one.nsecsElapsed()) / 1e9);
        }
        // Sorting the differences by |Δ| (the first 100,000 kept), off the GUI thread.
        StallMeter sortMeter;
        QElapsedTimer sortClock;
        sortMeter.start();
        sortClock.start();
        panel.sortByColumn(ElementTableModel::DeltaColumn, Qt::DescendingOrder);
        waitFor([&] { return panel.isOrdered(); }, "the differences sorted by |Δ|");
        panel.view()->viewport()->repaint();
        sortTime = static_cast<double>(sortClock.nsecsElapsed()) / 1e9;
        sortStall = sortMeter.stopSeconds();
    }
    print("filter_ready_s", median(filterTimes));
    print("filter_stall_max_s", filterStall);
    print("scroll_jump_max_s", scrollMax);
    print("sort_by_delta_s", sortTime);
    print("sort_stall_max_s", sortStall);
    std::printf("elements\t%llu\ndifferences\t%llu\n", static_cast<unsigned long long>(elements),
                static_cast<unsigned long long>(nDiff));
    return 0;
}
