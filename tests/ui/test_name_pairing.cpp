// The window's name pairing, on one model saved by torch.save under two module trees
// (tests/data/alignment): the dialog lists each pair "A → B" and the names left unpaired, a
// person types another name of run B beside one of run A, and the pair is compared again with
// that pairing.
#include "dialogs/name_pairing_dialog.h"
#include "models/name_pairing_model.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "window/main_window.h"
#include "window/triage_view.h"

#include "dumpscope/analyze.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCheckBox>
#include <QTableView>

#include <gtest/gtest.h>

#include <algorithm>

using namespace dumpscope;
using dumpscope::test::TempDir;

namespace {

QString data(const char* name) {
    return QString::fromStdString((test::testDataDir() / "alignment" / name).string());
}

std::shared_ptr<const NameAlignment> autoAlignment() {
    AnalyzeOptions o;
    o.align = AlignMode::automatic;
    return plan(data("a").toStdString(), data("b_perturbed").toStdString(), o).alignment;
}

int rowOf(const QAbstractItemModel& model, const QString& nameA) {
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.index(r, NamePairingModel::NameAColumn).data() == nameA) return r;
    return -1;
}

} // namespace

TEST(NamePairingModel, ListsEveryPairThenTheUnpairedNames) {
    const auto alignment = autoAlignment();
    ASSERT_NE(alignment, nullptr);
    NamePairingModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setAlignment(alignment);
    ASSERT_EQ(model.rowCount(), 11); // 9 pairs, one name of each run unpaired
    const int up = rowOf(model, "model.layers.1.mlp.up.out");
    ASSERT_GE(up, 0);
    EXPECT_EQ(model.index(up, NamePairingModel::NameBColumn).data().toString(),
              "layers.1.ffn.w1.out");
    EXPECT_EQ(model.index(up, NamePairingModel::HowColumn).data().toString(),
              "auto: order, type and shape");
    EXPECT_EQ(model.index(9, NamePairingModel::NameAColumn).data().toString(),
              "model.rotary.cache");
    EXPECT_TRUE(model.index(9, NamePairingModel::NameBColumn).data().toString().isEmpty());
    EXPECT_EQ(model.index(10, NamePairingModel::NameBColumn).data().toString(), "extra.scratch");
    // Only run B's name of a row with an A name is editable.
    EXPECT_TRUE(model.flags(model.index(up, NamePairingModel::NameBColumn)) & Qt::ItemIsEditable);
    EXPECT_FALSE(model.flags(model.index(up, NamePairingModel::NameAColumn)) & Qt::ItemIsEditable);
    EXPECT_FALSE(model.flags(model.index(10, NamePairingModel::NameBColumn)) & Qt::ItemIsEditable);
    model.setAlignment(nullptr);
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(NamePairingDialog, ATypedNameBecomesAFixOfThatPairing) {
    NamePairingDialog dialog(autoAlignment(), AlignMode::automatic);
    NamePairingModel* model = dialog.model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_TRUE(dialog.findChild<QCheckBox*>("autoCheck")->isChecked());
    const int head = rowOf(*model, "lm_head.out");
    ASSERT_GE(head, 0);
    const QModelIndex cell = model->index(head, NamePairingModel::NameBColumn);
    EXPECT_TRUE(model->setData(cell, QStringLiteral("norm.out")));
    EXPECT_TRUE(cell.data(NamePairingModel::FixedRole).toBool());
    EXPECT_EQ(cell.data().toString(), "norm.out");
    const NameMap map = dialog.nameMap({});
    ASSERT_EQ(map.rules.size(), 1u);
    EXPECT_TRUE(map.rules[0].exact);
    EXPECT_EQ(map.rules[0].pattern, "lm_head.out");
    EXPECT_EQ(map.rules[0].replacement, "norm.out");
    dialog.findChild<QCheckBox*>("autoCheck")->setChecked(false);
    EXPECT_EQ(dialog.alignMode(), AlignMode::names);
}

TEST(NamePairingWindow, TheFixedPairingIsComparedOnReRun) {
    TempDir settingsDir;
    MainWindow window{{nullptr, QString::fromStdString((settingsDir / "settings.ini").string())}};
    window.show();
    window.setNameAlignment(AlignMode::automatic, nullptr);
    window.openPair({data("a"), data("b_same")});
    ASSERT_TRUE(uitest::waitForFinished(window));
    const auto before = window.triageView()->snapshot()->analysis;
    ASSERT_NE(before->alignment, nullptr);
    EXPECT_EQ(before->alignment->pairs.size(), 9u);
    EXPECT_EQ(before->verdict.exitCode, 0);
    EXPECT_NE(window.findChild<QAction*>("namePairingAction"), nullptr);

    window.applyNamePairing(AlignMode::automatic, withPairing({}, "lm_head.out", "norm.out"));
    ASSERT_TRUE(uitest::waitForFinished(window));
    const auto after = window.triageView()->snapshot()->analysis;
    ASSERT_NE(after->alignment, nullptr);
    const bool fixedDiffers =
        std::any_of(after->buffers.begin(), after->buffers.end(), [](const BufferResult& b) {
            return b.name == "lm_head.out → norm.out" && b.status != Status::equal;
        });
    EXPECT_TRUE(fixedDiffers);
    EXPECT_EQ(after->verdict.exitCode, 1);
}
