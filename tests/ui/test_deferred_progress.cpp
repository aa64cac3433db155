// setProgressDeferred: the progress bar's new value is painted in the next turn of the event
// loop, with the window's other pending changes, not at once inside the caller's turn.
#include "ui_test_util.h"
#include "workers/deferred_progress.h"

#include <QLabel>
#include <QProgressBar>
#include <QTest>
#include <QVBoxLayout>

#include <gtest/gtest.h>

TEST(DeferredProgress, TheNewValueIsPaintedInTheNextTurnWithTheRestOfTheWindow) {
    QWidget window;
    auto* layout = new QVBoxLayout(&window);
    auto* label = new QLabel(QStringLiteral("before"));
    auto* bar = new QProgressBar;
    bar->setFormat(QStringLiteral("%v / %m buffers")); // the window's format: it repaints at once
    bar->setRange(0, 10);
    layout->addWidget(label);
    layout->addWidget(bar);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QTest::qWait(20);
    dumpscope::uitest::PaintCounter labelPaints(label), barPaints(bar);

    label->setText(QStringLiteral("after")); // a pending change elsewhere in the window
    setProgressDeferred(*bar, 3, 12);
    EXPECT_EQ(bar->value(), 3);
    EXPECT_EQ(bar->maximum(), 12);
    EXPECT_EQ(barPaints.count, 0) << "painted inside the caller's turn";
    EXPECT_EQ(labelPaints.count, 0)
        << "the window's pending changes were painted inside the caller's turn";

    // The timeout only guards against a hang.
    EXPECT_TRUE(
        QTest::qWaitFor([&] { return barPaints.count > 0 && labelPaints.count > 0; }, 10000));
    EXPECT_EQ(bar->text(), QStringLiteral("3 / 12 buffers"));
}
