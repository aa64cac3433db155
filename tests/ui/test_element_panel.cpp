// ElementPanel and its model on real files: a generated run pair analysed by the core, the
// table's rows and values checked against the core's statistics, in both modes, under
// QAbstractItemModelTester; navigation, go to, the range filter, copy, CSV export, the worker.
#include "element_panel.h"
#include "element_table_model.h"
#include "histogram_panel.h"

#include "dumpscope/analyze.h"
#include "test_support.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QBarSet>
#include <QCheckBox>
#include <QClipboard>
#include <QFile>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace dumpscope;
using dumpscope::test::TempDir;
using dumpscope::test::writeDump;

namespace {

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

// Run A and B with one f32 buffer (step 0, h_q_logits) of n elements; B differs at every 7th
// element by a Δ whose decade cycles through 1e-6 .. 1e+1, plus a NaN, a ±0 and a large jump.
struct GeneratedPair {
    TempDir dir;
    std::vector<float> a, b;
    std::shared_ptr<const Analysis> analysis;
    int buffer = -1;

    explicit GeneratedPair(std::size_t n, std::size_t tailB = 0) {
        std::mt19937 rng(42);
        std::uniform_real_distribution<float> value(1.0f, 2.0f);
        a.resize(n);
        for (auto& x : a)
            x = value(rng);
        b = a;
        for (std::size_t i = 3; i < n; i += 7) {
            const int decade = int(i / 7 % 8) - 6;
            b[i] = a[i] + 3.0f * std::pow(10.0f, float(decade)); // 3e-6 .. 3e+1, mid-decade
        }
        if (n > 20) {
            b[10] = std::nanf("");
            a[11] = 0.0f, b[11] = -0.0f;
        }
        for (std::size_t i = 0; i < tailB; ++i)
            b.push_back(5.0f);
        writeDump(dir / "a", 0, "h_q_logits", a);
        writeDump(dir / "b", 0, "h_q_logits", b);
        auto result = std::make_shared<Analysis>(analyze(dir / "a", dir / "b"));
        for (std::size_t i = 0; i < result->buffers.size(); ++i)
            if (result->buffers[i].fileName == "step_0_h_q_logits.bin") buffer = int(i);
        analysis = result;
    }
    const BufferResult& result() const { return analysis->buffers[std::size_t(buffer)]; }
};

// Visits every logical row by moving the window, as the scroll bar does.
template <typename Fn> void forEachRow(ElementPanel& panel, Fn fn) {
    ElementTableModel* model = panel.model();
    QScrollBar* scroll = panel.scrollBar();
    const quint64 total = model->logicalRowCount();
    scroll->setValue(0);
    quint64 seen = 0;
    while (seen < total) {
        const quint64 first = model->firstRow();
        for (int r = 0; r < model->rowCount(); ++r)
            if (first + quint64(r) >= seen) fn(first + quint64(r), r);
        seen = first + quint64(model->rowCount());
        if (scroll->value() == scroll->maximum()) break;
        scroll->setValue(scroll->value() + scroll->pageStep());
    }
    ASSERT_EQ(seen, total);
}

class ElementPanelTest : public ::testing::Test {
  protected:
    void SetUp() override {
        panel.resize(900, 500);
        panel.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
        // Keyboard shortcuts only reach the active window.
        panel.activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowActive(&panel));
    }
    ElementPanel panel;
};

} // namespace

TEST_F(ElementPanelTest, RowsAndValuesMatchTheCoreStatisticsInBothModes) {
    GeneratedPair pair(5000);
    ASSERT_GE(pair.buffer, 0);
    const BufferResult& r = pair.result();
    ASSERT_EQ(r.status, Status::diverge);
    QAbstractItemModelTester tester(panel.model(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    panel.setBuffer(pair.analysis, pair.buffer);
    ASSERT_TRUE(panel.isIndexReady()); // small buffer: indexed at once
    ElementTableModel* model = panel.model();
    EXPECT_GT(model->rowCount(), 5);
    EXPECT_LT(model->rowCount(), 100); // a window, not every row

    // All elements: one row per element, differing rows flagged exactly where the bits differ.
    EXPECT_EQ(model->logicalRowCount(), 5000u);
    quint64 flagged = 0;
    forEachRow(panel, [&](quint64 row, int windowRow) {
        const QModelIndex index = model->index(windowRow, ElementTableModel::IndexColumn);
        ASSERT_EQ(index.data(ElementTableModel::ElementIndexRole).toULongLong(), row);
        ASSERT_EQ(index.data().toString(), QString::number(row));
        const bool differs = index.data(ElementTableModel::DiffersRole).toBool();
        ASSERT_EQ(differs, std::memcmp(&pair.a[row], &pair.b[row], 4) != 0) << row;
        ASSERT_EQ(index.data(Qt::BackgroundRole).isValid(), differs);
        flagged += differs;
    });
    EXPECT_EQ(flagged, r.stats.nDiff);

    // Only differing: nDiff rows, the first ones exactly the core's firstDiffs.
    panel.onlyDifferingBox()->setChecked(true);
    EXPECT_EQ(model->logicalRowCount(), r.stats.nDiff);
    EXPECT_EQ(model->firstRow(), 0u);
    const std::size_t shown = std::min<std::size_t>(r.stats.firstDiffs.size(), model->rowCount());
    ASSERT_GT(shown, 3u);
    for (std::size_t k = 0; k < shown; ++k) {
        const ElementDiff& d = r.stats.firstDiffs[k];
        const int row = int(k);
        EXPECT_EQ(model->index(row, ElementTableModel::IndexColumn).data().toString(),
                  QString::number(d.index));
        EXPECT_EQ(model->index(row, ElementTableModel::AColumn).data().toString(),
                  text(formatValue(r.dtype, d.bitsA)));
        EXPECT_EQ(model->index(row, ElementTableModel::BColumn).data().toString(),
                  text(formatValue(r.dtype, d.bitsB)));
        EXPECT_EQ(model->index(row, ElementTableModel::ABitsColumn).data().toString(),
                  text(formatBits(r.dtype, d.bitsA)));
        EXPECT_EQ(model->index(row, ElementTableModel::BBitsColumn).data().toString(),
                  text(formatBits(r.dtype, d.bitsB)));
        // Six digits on screen, the exact double in the tooltip.
        const QModelIndex deltaCell = model->index(row, ElementTableModel::DeltaColumn);
        const double delta = deltaCell.data(Qt::ToolTipRole).toString().toDouble();
        EXPECT_EQ(deltaCell.data().toString(), QString::number(d.absDelta, 'g', 6));
        if (std::isnan(d.absDelta))
            EXPECT_TRUE(std::isnan(delta));
        else
            EXPECT_EQ(delta, d.absDelta) << d.index;
    }
    // Every row of the differing mode differs, and the rows run in index order.
    quint64 previous = 0, rows = 0;
    forEachRow(panel, [&](quint64, int windowRow) {
        const QModelIndex index = model->index(windowRow, 0);
        const quint64 element = index.data(ElementTableModel::ElementIndexRole).toULongLong();
        ASSERT_TRUE(index.data(ElementTableModel::DiffersRole).toBool());
        ASSERT_TRUE(rows == 0 || element > previous);
        previous = element;
        ++rows;
    });
    EXPECT_EQ(rows, r.stats.nDiff);
    EXPECT_EQ(previous, *r.stats.lastDiff);
    EXPECT_NE(panel.statusText().indexOf(QString::number(r.stats.nDiff)), -1);

    panel.onlyDifferingBox()->setChecked(false);
    EXPECT_EQ(model->logicalRowCount(), 5000u);
    panel.clear();
    EXPECT_EQ(model->rowCount(), 0);
}

TEST_F(ElementPanelTest, NextPreviousAndGoToFollowTheDifferences) {
    GeneratedPair pair(3000);
    const BufferResult& r = pair.result();
    panel.setBuffer(pair.analysis, pair.buffer);
    ASSERT_TRUE(panel.isIndexReady());

    panel.nextDifference();
    ASSERT_EQ(panel.currentElement(), r.stats.firstDiff);
    for (std::size_t k = 1; k < r.stats.firstDiffs.size(); ++k) {
        panel.nextDifference();
        ASSERT_EQ(panel.currentElement(), r.stats.firstDiffs[k].index);
        // The cursor sits on that element's row in the window.
        const QModelIndex current = panel.view()->currentIndex();
        ASSERT_TRUE(current.isValid());
        EXPECT_EQ(current.data(ElementTableModel::ElementIndexRole).toULongLong(),
                  r.stats.firstDiffs[k].index);
    }
    panel.previousDifference();
    EXPECT_EQ(panel.currentElement(), r.stats.firstDiffs[r.stats.firstDiffs.size() - 2].index);

    // N and Shift+N reach the same slots through the keyboard.
    panel.view()->setFocus();
    const auto before = *panel.currentElement();
    QTest::keyClick(panel.view(), Qt::Key_N);
    EXPECT_EQ(panel.currentElement(), before + 7);
    QTest::keyClick(panel.view(), Qt::Key_N, Qt::ShiftModifier);
    EXPECT_EQ(panel.currentElement(), before);

    // Far away: the window moves there and the cursor follows.
    panel.goToIndex(2500);
    EXPECT_EQ(panel.currentElement(), 2500u);
    EXPECT_LE(panel.model()->firstRow(), 2500u);
    EXPECT_GT(panel.model()->firstRow() + quint64(panel.model()->rowCount()), 2500u);
    panel.nextDifference();
    EXPECT_EQ(panel.currentElement(), 2502u); // 3 + 7 * 357
    panel.goToIndex(1'000'000);               // past the end: the last element
    EXPECT_EQ(panel.currentElement(), 2999u);
    panel.nextDifference(); // none after: stays
    EXPECT_EQ(panel.currentElement(), 2999u);

    // Only differing: going to an equal element lands on the next differing one.
    panel.onlyDifferingBox()->setChecked(true);
    panel.goToIndex(100);
    EXPECT_EQ(panel.currentElement(), 101u);
    // Keyboard moves leave the window: Down from the last row scrolls.
    const quint64 firstBefore = panel.model()->firstRow();
    for (int i = 0; i < panel.model()->windowRows() + 2; ++i)
        QTest::keyClick(panel.view(), Qt::Key_Down);
    EXPECT_GT(panel.model()->firstRow(), firstBefore);
    EXPECT_EQ(*panel.currentElement(), 101u + 7u * quint64(panel.model()->windowRows() + 2));
}

TEST_F(ElementPanelTest, HistogramBarFiltersTheTableToExactlyItsElements) {
    GeneratedPair pair(4000);
    const BufferResult& r = pair.result();
    HistogramPanel histogram;
    QObject::connect(&histogram, &HistogramPanel::deltaDecadeClicked, &panel,
                     &ElementPanel::filterToDeltaDecade);
    QObject::connect(&histogram, &HistogramPanel::ulpBinClicked, &panel,
                     &ElementPanel::filterToUlpBin);
    panel.setBuffer(pair.analysis, pair.buffer);
    histogram.setBuffer(pair.analysis, pair.buffer);
    ASSERT_GE(histogram.barCount(), 8);

    for (HistogramPanel::Mode mode : {HistogramPanel::Mode::delta, HistogramPanel::Mode::ulp}) {
        histogram.setMode(mode);
        for (int bar = 0; bar < histogram.barCount(); ++bar) {
            SCOPED_TRACE(histogram.barLabel(bar).toStdString());
            emit histogram.barSet()->clicked(bar);
            ASSERT_TRUE(panel.hasRangeFilter());
            ASSERT_EQ(panel.model()->logicalRowCount(), histogram.barValue(bar));
            EXPECT_FALSE(panel.rangeFilterText().isEmpty());
            EXPECT_FALSE(panel.onlyDifferingBox()->isEnabled());
            const bool ulp = mode == HistogramPanel::Mode::ulp;
            const DiffFilter filter = ulp ? DiffFilter::ulpBin(histogram.barBin(bar))
                                          : DiffFilter::deltaDecade(histogram.barBin(bar));
            forEachRow(panel, [&](quint64, int windowRow) {
                const quint64 i = panel.model()
                                      ->index(windowRow, 0)
                                      .data(ElementTableModel::ElementIndexRole)
                                      .toULongLong();
                std::uint32_t x, y;
                std::memcpy(&x, &pair.a[i], 4);
                std::memcpy(&y, &pair.b[i], 4);
                ASSERT_NE(x, y);
                ASSERT_TRUE(filter.matches(DType::f32, x, y)) << i;
                if (!ulp && filter.bin <= DeltaHistogram::kMaxDecade) {
                    // Independently of the shared helper: the generated Δs sit mid-decade.
                    const double delta = std::fabs(double(pair.a[i]) - double(pair.b[i]));
                    ASSERT_EQ(int(std::floor(std::log10(delta))), filter.bin) << i;
                }
            });
            // Next difference walks inside the filter (empty bars between others list nothing).
            if (histogram.barValue(bar) == 0) continue;
            panel.goToIndex(0);
            panel.nextDifference();
            ASSERT_TRUE(panel.currentElement().has_value());
            EXPECT_TRUE(panel.model()->rowIndex()->contains(*panel.currentElement()));
            EXPECT_EQ(panel.model()->rowIndex()->rank(*panel.currentElement()),
                      std::min<quint64>(1, histogram.barValue(bar) - 1));
        }
    }
    panel.clearRangeFilter();
    EXPECT_FALSE(panel.hasRangeFilter());
    EXPECT_TRUE(panel.rangeFilterText().isEmpty());
    EXPECT_EQ(panel.model()->logicalRowCount(), 4000u);
    EXPECT_EQ(panel.model()->rowIndex(), nullptr);
    EXPECT_TRUE(panel.onlyDifferingBox()->isEnabled());
    EXPECT_GT(r.stats.nDiff, 0u);
}

TEST_F(ElementPanelTest, CopyGivesTheSelectedCellsAsTabSeparatedRows) {
    GeneratedPair pair(200);
    panel.setBuffer(pair.analysis, pair.buffer);
    panel.onlyDifferingBox()->setChecked(true);
    ElementTableModel* model = panel.model();
    auto* selection = panel.view()->selectionModel();
    selection->select(QItemSelection(model->index(0, 0), model->index(2, 2)),
                      QItemSelectionModel::ClearAndSelect);
    const QString expected = QStringLiteral("3\t%1\t%2\n10\t%3\tnan\n11\t0\t-0\n")
                                 .arg(text(formatValue(DType::f32, test::bitsOfFloat(pair.a[3]))),
                                      text(formatValue(DType::f32, test::bitsOfFloat(pair.b[3]))),
                                      text(formatValue(DType::f32, test::bitsOfFloat(pair.a[10]))));
    EXPECT_EQ(panel.selectionText(), expected);
    QTest::keyClick(panel.view(), Qt::Key_C, Qt::ControlModifier);
    EXPECT_EQ(QApplication::clipboard()->text(), expected);
}

TEST_F(ElementPanelTest, CsvExportWritesTheDifferingElementsAndRefusesRunDirectories) {
    GeneratedPair pair(1000);
    const BufferResult& r = pair.result();
    panel.setBuffer(pair.analysis, pair.buffer);
    const QString out = QString::fromStdString((pair.dir / "diffs.csv").string());
    QString error;
    ASSERT_TRUE(panel.exportCsv(out, &error)) << error.toStdString();
    QFile file(out);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    ASSERT_EQ(quint64(lines.size()), r.stats.nDiff + 1);
    EXPECT_EQ(lines[0], QStringLiteral("index,a,b,abs_delta,rel_delta,ulp,a_bits,b_bits"));
    for (std::size_t k = 0; k < r.stats.firstDiffs.size(); ++k) {
        const ElementDiff& d = r.stats.firstDiffs[k];
        const QStringList fields = lines[int(k) + 1].split(',');
        ASSERT_EQ(fields.size(), 8);
        EXPECT_EQ(fields[0], QString::number(d.index));
        EXPECT_EQ(fields[1], text(formatValue(r.dtype, d.bitsA)));
        EXPECT_EQ(fields[2], text(formatValue(r.dtype, d.bitsB)));
        EXPECT_EQ(fields[6], text(formatBits(r.dtype, d.bitsA)));
    }
    EXPECT_TRUE(lines.last().startsWith(QString::number(*r.stats.lastDiff) + ','));

    // With a range filter, the export holds that bar's elements only.
    panel.filterToDeltaDecade(kDecadeNan);
    ASSERT_TRUE(panel.exportCsv(out, &error));
    file.close();
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_EQ(
        QString::fromUtf8(file.readAll()),
        QStringLiteral(
            "index,a,b,abs_delta,rel_delta,ulp,a_bits,b_bits\n10,%1,nan,nan,nan,,%2,0x7fc00000\n")
            .arg(text(formatValue(DType::f32, test::bitsOfFloat(pair.a[10]))),
                 text(formatBits(DType::f32, test::bitsOfFloat(pair.a[10])))));

    for (const char* run : {"a", "b"}) {
        const auto inside = pair.dir / run / "diffs.csv";
        EXPECT_FALSE(panel.exportCsv(QString::fromStdString(inside.string()), &error));
        EXPECT_TRUE(error.contains(QStringLiteral("run directory"))) << error.toStdString();
        EXPECT_FALSE(std::filesystem::exists(inside));
    }
}

TEST_F(ElementPanelTest, BigBuffersAreIndexedByAWorkerWhileTheTableShowsAllElements) {
    GeneratedPair pair(300'000);
    const BufferResult& r = pair.result();
    panel.setSyncIndexLimit(1000);
    QSignalSpy ready(&panel, &ElementPanel::indexReady);
    panel.onlyDifferingBox()->setChecked(true);
    panel.setBuffer(pair.analysis, pair.buffer);
    // Until the index exists the table lists every element, and it is usable.
    // The result comes back as a queued call: never before the event loop runs.
    ASSERT_FALSE(panel.isIndexReady());
    {
        EXPECT_EQ(panel.model()->logicalRowCount(), 300'000u);
        panel.goToIndex(149'999);
        EXPECT_EQ(panel.currentElement(), 149'999u);
        ASSERT_TRUE(ready.wait(30000));
    }
    EXPECT_TRUE(panel.isIndexReady());
    EXPECT_EQ(panel.model()->logicalRowCount(), r.stats.nDiff);
    // The cursor stayed on its element, now found among the differing rows.
    EXPECT_EQ(panel.currentElement(), 149'999u);

    QSignalSpy applied(&panel, &ElementPanel::rangeFilterApplied);
    panel.filterToDeltaDecade(1);
    ASSERT_TRUE(applied.isEmpty());
    EXPECT_TRUE(panel.hasRangeFilter());
    EXPECT_TRUE(panel.rangeFilterText().startsWith(QStringLiteral("Filtering to")));
    ASSERT_TRUE(applied.wait(30000));
    EXPECT_EQ(panel.model()->logicalRowCount(), r.stats.deltaHistogram.at(1));

    // Switching buffers while a worker runs drops its result: the last buffer set wins.
    GeneratedPair other(200'000);
    ready.clear();
    panel.setBuffer(other.analysis, other.buffer);
    panel.setBuffer(pair.analysis, pair.buffer);
    ASSERT_TRUE(ready.wait(30000));
    EXPECT_EQ(panel.model()->logicalRowCount(), r.stats.nDiff);
    QTest::qWait(200); // a late result of the superseded scan would land here
    EXPECT_EQ(panel.model()->logicalRowCount(), r.stats.nDiff);
    EXPECT_EQ(ready.count(), 1);
}

TEST_F(ElementPanelTest, LongerSideAndOneSidedBuffersShowWhatExists) {
    GeneratedPair pair(100, 3); // B has 3 more elements
    const BufferResult& r = pair.result();
    ASSERT_EQ(r.status, Status::length_mismatch);
    panel.setBuffer(pair.analysis, pair.buffer);
    ElementTableModel* model = panel.model();
    EXPECT_EQ(model->logicalRowCount(), 103u);
    panel.goToIndex(101);
    const QModelIndex row = panel.view()->currentIndex();
    ASSERT_TRUE(row.isValid());
    EXPECT_TRUE(model->index(row.row(), ElementTableModel::AColumn).data().toString().isEmpty());
    EXPECT_EQ(model->index(row.row(), ElementTableModel::BColumn).data().toString(), "5");
    EXPECT_TRUE(model->index(row.row(), 0).data(ElementTableModel::DiffersRole).toBool());

    TempDir dir;
    writeDump(dir / "a", 0, "h_q_logits", std::vector<float>{1, 2, 3});
    std::filesystem::create_directories(dir / "b");
    auto analysis = std::make_shared<Analysis>(analyze(dir / "a", dir / "b"));
    int index = -1;
    for (std::size_t i = 0; i < analysis->buffers.size(); ++i)
        if (analysis->buffers[i].status == Status::only_in_a) index = int(i);
    ASSERT_GE(index, 0);
    panel.setBuffer(analysis, index);
    EXPECT_EQ(model->logicalRowCount(), 3u);
    EXPECT_EQ(model->index(2, ElementTableModel::AColumn).data().toString(), "3");
    EXPECT_FALSE(panel.onlyDifferingBox()->isEnabled());
}

TEST_F(ElementPanelTest, NoisyHeadSampleListsEachBuffersDifferences) {
    if (test::sharedDir().empty()) GTEST_SKIP() << "../shared is absent: no sample dumps";
    TempDir dir;
    ASSERT_TRUE(test::unpackSample("h200-noisy-head.tar.xz", dir.path()));
    const auto runA = dir / "s2_noisy_head" / "a", runB = dir / "s2_noisy_head" / "b";
    ASSERT_TRUE(std::filesystem::is_directory(runA));
    auto analysis = std::make_shared<Analysis>(analyze(runA, runB));
    int checked = 0;
    for (std::size_t i = 0; i < analysis->buffers.size() && checked < 4; ++i) {
        const BufferResult& r = analysis->buffers[i];
        if (r.status != Status::diverge) continue;
        panel.setBuffer(analysis, int(i));
        panel.onlyDifferingBox()->setChecked(true);
        ASSERT_TRUE(panel.isIndexReady());
        EXPECT_EQ(panel.model()->logicalRowCount(), r.stats.nDiff) << r.fileName;
        panel.nextDifference();
        EXPECT_EQ(panel.currentElement(), r.stats.firstDiff) << r.fileName;
        ++checked;
    }
    EXPECT_GT(checked, 0);
}

TEST_F(ElementPanelTest, AFileGoneSinceTheAnalysisIsReportedNotCrashedOn) {
    GeneratedPair pair(100);
    std::filesystem::remove(pair.dir / "b" / "step_0_h_q_logits.bin");
    panel.setBuffer(pair.analysis, pair.buffer);
    EXPECT_TRUE(panel.statusText().contains(QStringLiteral("step_0_h_q_logits.bin")))
        << panel.statusText().toStdString();
    EXPECT_EQ(panel.model()->logicalRowCount(), 100u); // run A's side still shows
    EXPECT_FALSE(panel.isIndexReady());
    QString error;
    EXPECT_FALSE(panel.exportCsv(QString::fromStdString((pair.dir / "x.csv").string()), &error));
    EXPECT_FALSE(error.isEmpty());
    panel.nextDifference(); // no index: nothing to go to, and no crash
    EXPECT_FALSE(panel.currentElement().has_value());
}
