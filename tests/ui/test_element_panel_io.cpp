// ElementPanel's output and edges: copy, CSV export, the indexing worker on a big buffer,
// unequal lengths and one-sided buffers, a real sample, and a dump gone after the analysis.
#include "element_panel_fixture.h"
#include "panels/histogram_panel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QBarSet>
#include <QCheckBox>
#include <QClipboard>
#include <QFile>
#include <QMenu>
#include <QSignalSpy>
#include <QTableView>
#include <QTimer>

using namespace element_panel_test;

TEST_F(ElementPanelTest, CopyGivesWholeRowsUnderTheColumnTitles) {
    GeneratedPair pair(200);
    panel.setBuffer(pair.analysis, pair.buffer);
    panel.onlyDifferingBox()->setChecked(true);
    ElementTableModel* model = panel.model();
    EXPECT_EQ(panel.view()->selectionBehavior(), QAbstractItemView::SelectRows);
    auto* selection = panel.view()->selectionModel();
    // A click selects a whole row; cells picked one by one still copy as their rows.
    QTest::mouseClick(panel.view()->viewport(), Qt::LeftButton, Qt::NoModifier,
                      panel.view()->visualRect(model->index(0, 1)).center());
    EXPECT_EQ(selection->selectedIndexes().size(), ElementTableModel::ColumnCount);
    selection->select(QItemSelection(model->index(0, 0), model->index(2, 2)),
                      QItemSelectionModel::ClearAndSelect);
    const QStringList lines = panel.selectionText().split('\n', Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 4);
    EXPECT_EQ(lines[0], QStringLiteral("Index\tA\tB\t|Δ|\tRelative Δ\tULP\tA bits\tB bits"));
    const auto fields = [&](int k) { return lines[k].split('\t'); };
    for (int k = 1; k <= 3; ++k)
        EXPECT_EQ(fields(k).size(), ElementTableModel::ColumnCount) << lines[k].toStdString();
    EXPECT_EQ(fields(1).mid(0, 3),
              (QStringList{"3", text(formatValue(DType::f32, test::bitsOfFloat(pair.a[3]))),
                           text(formatValue(DType::f32, test::bitsOfFloat(pair.b[3])))}));
    EXPECT_EQ(
        fields(2).mid(0, 3),
        (QStringList{"10", text(formatValue(DType::f32, test::bitsOfFloat(pair.a[10]))), "nan"}));
    EXPECT_EQ(fields(3).mid(0, 3), (QStringList{"11", "0", "-0"}));
    // |Δ| in full, not the six digits the cell shows.
    EXPECT_EQ(fields(1)[3].toDouble(), double(std::fabs(pair.b[3] - pair.a[3])));
    EXPECT_EQ(fields(1)[6], text(formatBits(DType::f32, test::bitsOfFloat(pair.a[3]))));
    QTest::keyClick(panel.view(), Qt::Key_C, Qt::ControlModifier);
    EXPECT_EQ(QApplication::clipboard()->text(), panel.selectionText());

    // As CSV: the export's own header and lines for the same elements.
    const QString out = QString::fromStdString((pair.dir / "diffs.csv").string());
    ASSERT_TRUE(panel.exportCsv(out));
    QFile file(out);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QStringList exported = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    EXPECT_EQ(panel.selectionCsv().split('\n', Qt::SkipEmptyParts), exported.mid(0, 4));
}

TEST_F(ElementPanelTest, TheContextMenuCopiesAValueAndShowsTheElementInTheMap) {
    GeneratedPair pair(200);
    panel.setBuffer(pair.analysis, pair.buffer);
    QSignalSpy shown(&panel, &ElementPanel::elementShown);
    const QModelIndex cell = panel.model()->index(3, ElementTableModel::BColumn);
    QStringList titles;
    // The menu is modal: the timer acts on it once it is open.
    const auto pick = [&](const QString& startOfTitle) {
        QTimer::singleShot(0, [&, startOfTitle] {
            auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
            ASSERT_NE(menu, nullptr);
            titles.clear();
            for (QAction* action : menu->actions())
                if (!action->isSeparator()) titles << action->text();
            for (QAction* action : menu->actions())
                if (action->text().startsWith(startOfTitle)) {
                    action->trigger();
                    break;
                }
            menu->close();
        });
        emit panel.view()->customContextMenuRequested(panel.view()->visualRect(cell).center());
    };
    pick(QStringLiteral("Copy Value"));
    EXPECT_EQ(titles, (QStringList{"Copy Value", "Copy Rows", "Copy Rows as CSV",
                                   "Show Element 3 in the Divergence Map"}));
    EXPECT_EQ(QApplication::clipboard()->text(),
              text(formatValue(DType::f32, test::bitsOfFloat(pair.b[3]))));
    pick(QStringLiteral("Show Element"));
    ASSERT_EQ(shown.size(), 1);
    EXPECT_EQ(shown.front().front().toULongLong(), 3u);
}

TEST_F(ElementPanelTest, TabLeavesTheTable) {
    GeneratedPair pair(200);
    panel.setBuffer(pair.analysis, pair.buffer);
    panel.view()->setFocus();
    ASSERT_TRUE(panel.view()->hasFocus());
    EXPECT_FALSE(panel.view()->tabKeyNavigation());
    QTest::keyClick(panel.view(), Qt::Key_Tab);
    EXPECT_FALSE(panel.view()->hasFocus()) << "Tab stayed in the table";
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

// A run reached through a symlinked alias of its directory is still the run: the destination
// is resolved before the check, so "alias/x.csv" is refused and nothing appears in the run.
TEST_F(ElementPanelTest, CsvExportRefusesARunDirectoryReachedThroughASymlinkedAlias) {
    GeneratedPair pair(100);
    panel.setBuffer(pair.analysis, pair.buffer);
    const auto before = dumpscope::test::listDir(pair.dir / "a");
    std::filesystem::create_directory_symlink(pair.dir / "a", pair.dir / "alias");
    const auto through = pair.dir / "alias" / "x.csv";
    QString error;
    EXPECT_FALSE(panel.exportCsv(text(through.string()), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("inside a run directory"))) << error.toStdString();
    EXPECT_TRUE(error.contains(text(through.string()))) << error.toStdString();
    EXPECT_EQ(dumpscope::test::listDir(pair.dir / "a"), before);
}

// A destination that is itself a symlink into a run is refused too: following it would replace
// the dump it points at. A dangling one is replaced by the export, its target never created.
TEST_F(ElementPanelTest, CsvExportNeverWritesThroughAFileSymlinkIntoARun) {
    GeneratedPair pair(100);
    panel.setBuffer(pair.analysis, pair.buffer);
    const auto dump = pair.dir / "a" / "step_0_h_q_logits.bin";
    const std::string dumpBytes = dumpscope::test::readFile(dump);
    const auto before = dumpscope::test::listDir(pair.dir / "a");
    const auto toDump = pair.dir / "to-dump.csv";
    std::filesystem::create_symlink(dump, toDump);
    QString error;
    EXPECT_FALSE(panel.exportCsv(text(toDump.string()), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("inside a run directory"))) << error.toStdString();
    EXPECT_EQ(dumpscope::test::readFile(dump), dumpBytes);

    const auto dangling = pair.dir / "dangling.csv";
    std::filesystem::create_symlink(pair.dir / "a" / "new.csv", dangling);
    EXPECT_TRUE(panel.exportCsv(text(dangling.string()), &error)) << error.toStdString();
    EXPECT_FALSE(std::filesystem::is_symlink(dangling));
    EXPECT_EQ(dumpscope::test::readFile(dangling).substr(0, 6), "index,");
    EXPECT_EQ(dumpscope::test::listDir(pair.dir / "a"), before);
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
    writeDump(dir / "b", 0, "h_v_pred", std::vector<float>{1}); // run B has dumps, not this one
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
