// The recent list is written on a thread of its own (ui/workers/recent_pairs_writer.h): QSettings'
// file write, with its fdatasyncs, stays off the GUI thread after an open. The tests hold
// QSettings' own lock file, so that a write cannot finish: were it made on the GUI thread,
// that thread would wait for the lock until the watchdog releases it (10 s), and the file
// would then hold the pair before the test looks.
#include "state/settings.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "window/main_window.h"
#include "workers/recent_pairs_writer.h"

#include <QAction>
#include <QFile>
#include <QLockFile>
#include <QMenu>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

using dumpscope::test::TempDir;
namespace uitest = dumpscope::uitest;

namespace {

QString q(const std::filesystem::path& p) {
    return QString::fromStdString(p.string());
}

// The settings file as it is on disk (other QSettings objects of this process would also see
// changes not yet written).
QString onDisk(const QString& ini) {
    QFile file(ini);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// QSettings' lock file for `ini`, held until release(), or for 10 s at most: a write blocked on
// the test's own thread would otherwise wait for it forever, and the test would hang instead
// of failing.
class HeldSettingsLock {
  public:
    explicit HeldSettingsLock(const QString& ini) : m_lock(ini + QStringLiteral(".lock")) {
        m_held = m_lock.tryLock(0);
        m_watchdog = std::thread([this] {
            std::unique_lock lock(m_mutex);
            if (!m_cv.wait_for(lock, std::chrono::seconds(10), [this] { return m_released; }))
                releaseLocked();
        });
    }
    ~HeldSettingsLock() {
        release();
        m_watchdog.join();
    }
    bool held() const { return m_held; }
    void release() {
        {
            std::lock_guard lock(m_mutex);
            releaseLocked();
        }
        m_cv.notify_all();
    }

  private:
    void releaseLocked() {
        if (!m_released) m_lock.unlock();
        m_released = true;
    }
    QLockFile m_lock;
    bool m_held = false;
    bool m_released = false;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::thread m_watchdog;
};

} // namespace

TEST(RecentPairsWriter, WritesOnItsOwnThreadInTheOrderAdded) {
    TempDir dir;
    const QString ini = q(dir / "settings.ini");
    HeldSettingsLock qsettingsLock(ini);
    ASSERT_TRUE(qsettingsLock.held());
    const RunPair first{QStringLiteral("/runs/first_a"), QStringLiteral("/runs/first_b")};
    const RunPair second{QStringLiteral("/runs/second_a"), QStringLiteral("/runs/second_b")};
    const RunPair older{QStringLiteral("/runs/older_a"), QStringLiteral("/runs/older_b")};
    RecentPairsWriter writer(ini);
    QSignalSpy written(&writer, &RecentPairsWriter::written);
    writer.add(first);
    QTest::qWait(200);  // the first write starts, and waits for the lock
    writer.add(second); // queued behind it
    QTest::qWait(200);
    EXPECT_FALSE(onDisk(ini).contains(first.runA))
        << "the write waits for the lock, the GUI thread does not";
    EXPECT_EQ(written.count(), 0);
    // Lists shown meanwhile have the pending pairs in front, the latest first.
    EXPECT_EQ(writer.withPending({older, first}), (QList<RunPair>{second, first, older}));

    qsettingsLock.release();
    ASSERT_TRUE(QTest::qWaitFor([&] { return onDisk(ini).contains(second.runA); }, 20000));
    ASSERT_TRUE(QTest::qWaitFor([&] { return written.count() == 2; }, 20000)) << "one batch each";
    EXPECT_EQ(Settings(ini).recentPairs(), (QList<RunPair>{second, first}));
    EXPECT_EQ(writer.withPending({older}), QList<RunPair>{older}) << "nothing pending once written";
}

TEST(RecentPairsWriter, TheWindowListsAPairAtOnceAndWritesItOffTheGuiThread) {
    TempDir settingsDir, runs;
    uitest::writeMixedPair(runs.path());
    const QString ini = q(settingsDir / "settings.ini");
    HeldSettingsLock qsettingsLock(ini);
    ASSERT_TRUE(qsettingsLock.held());
    {
        MainWindow window({nullptr, ini});
        window.openPair({q(runs / "a"), q(runs / "b")});
        ASSERT_TRUE(uitest::waitForFinished(window))
            << "the analysis does not wait for the settings";
        EXPECT_FALSE(onDisk(ini).contains(q(runs / "a")));
        auto* menu = window.findChild<QMenu*>(QStringLiteral("recentPairsMenu"));
        ASSERT_NE(menu, nullptr);
        ASSERT_EQ(menu->actions().size(), 1);
        EXPECT_TRUE(menu->actions().front()->text().startsWith(q(runs / "a")));
        qsettingsLock.release();
    }
    EXPECT_TRUE(onDisk(ini).contains(q(runs / "a"))) << "written by the time the window is gone";
}
