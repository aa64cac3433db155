// The buffer table's "to pass" columns on a real analysis of dumps written to a temp dir: the
// smallest --atol, --rtol and --ulp that would each alone make a buffer within tolerance, as the
// exact text the core gives (it reads back to the same number), "none" where no value would,
// empty where no tolerance changes the status; sorted as numbers, "none" above every value.
#include "models/buffer_list_model.h"
#include "test_support.h"
#include "ui_test_util.h"

#include "dumpscope/analyze.h"
#include "dumpscope/tolerance_to_pass.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>

#include <gtest/gtest.h>

#include <cmath>

using namespace dumpscope;
using dumpscope::test::TempDir;

namespace {

// Four float32 buffers in one group: tolerance needed small, large, none (NaN against a
// number) and not applicable (equal).
struct ToPassPair {
    TempDir dir;
    Analysis analysis;
    ToPassPair() {
        const float nan = std::nanf("");
        const auto write = [&](const char* file, std::vector<float> a, std::vector<float> b) {
            dumpscope::test::writeDump(dir / "a", 0, file, a);
            dumpscope::test::writeDump(dir / "b", 0, file, b);
        };
        write("w_small", {1, 2, 3}, {1, 2.0000002f, 3});
        write("w_large", {1, 2, 3}, {1, 2.5f, 7});
        write("w_nan", {1, nan, 3}, {1, 2, 3});
        write("w_equal", {1, 2, 3}, {1, 2, 3});
        dumpscope::test::writeText(dir / "s.json", R"({"groups": [{"id": "W", "buffers": [
            {"name": "small", "file": "w_small", "dtype": "f32"},
            {"name": "large", "file": "w_large", "dtype": "f32"},
            {"name": "nan", "file": "w_nan", "dtype": "f32"},
            {"name": "equal", "file": "w_equal", "dtype": "f32"}]}]})");
        AnalyzeOptions options;
        options.schema = std::make_shared<const Schema>(loadSchemaFile(dir / "s.json"));
        analysis = analyze(dir / "a", dir / "b", options);
    }
};

} // namespace

TEST(BufferListModel, ToPassColumnsShowAndSortTheCoreValues) {
    ToPassPair pair;
    const Analysis& an = pair.analysis;
    ASSERT_EQ(an.buffers.size(), 4u);
    BufferListModel model;
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(BufferListModel::SortRole);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester proxyTester(&proxy,
                                         QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setBuffers(uitest::finishedSnapshot(an), {0, 1, 2, 3});
    ASSERT_EQ(model.rowCount(), 4);

    const int columns[] = {BufferListModel::AtolToPassColumn, BufferListModel::RtolToPassColumn,
                           BufferListModel::UlpToPassColumn};
    for (int c : columns) {
        EXPECT_FALSE(model.headerData(c, Qt::Horizontal).toString().isEmpty());
        EXPECT_TRUE(model.headerData(c, Qt::Horizontal, Qt::ToolTipRole)
                        .toString()
                        .contains(QStringLiteral("within tolerance")));
    }
    for (int r = 0; r < model.rowCount(); ++r) {
        const BufferResult& b = an.buffers[static_cast<std::size_t>(r)];
        SCOPED_TRACE(b.name);
        const auto cell = [&](int column) { return model.index(r, column).data().toString(); };
        const auto pass = toleranceToPass(b);
        if (b.name == "equal") {
            ASSERT_FALSE(pass);
            for (int c : columns)
                EXPECT_TRUE(cell(c).isEmpty());
            continue;
        }
        ASSERT_TRUE(pass);
        if (b.name == "nan") {
            for (int c : columns)
                EXPECT_EQ(cell(c), QStringLiteral("none"));
            continue;
        }
        // The exact value: typed back, it is the core's number.
        EXPECT_EQ(cell(BufferListModel::AtolToPassColumn).toDouble(), *pass->atol);
        EXPECT_EQ(cell(BufferListModel::RtolToPassColumn).toDouble(), *pass->rtol);
        EXPECT_EQ(cell(BufferListModel::UlpToPassColumn).toULongLong(), *pass->ulp);
    }
    const auto& small = an.buffers[0].stats;
    EXPECT_EQ(model.index(0, BufferListModel::AtolToPassColumn).data().toString(),
              QStringLiteral("2.384185791015625e-07"))
        << "2.0000002f is 2 + 2^-22 in float32";
    EXPECT_EQ(model.index(0, BufferListModel::UlpToPassColumn).data().toString(),
              QStringLiteral("1"));
    EXPECT_EQ(small.maxUlp, 1u);
    // large: |7 - 3| / 7 needs more than |2.5 - 2| / 2.5.
    EXPECT_EQ(model.index(1, BufferListModel::AtolToPassColumn).data().toString(),
              QStringLiteral("4"));

    // Ascending: the equal buffer (nothing to pass), small, large, then NaN's "none".
    const char* const ascending[] = {"equal", "small", "large", "nan"};
    for (int c : columns) {
        proxy.sort(c, Qt::AscendingOrder);
        for (int r = 0; r < 4; ++r)
            EXPECT_EQ(proxy.index(r, BufferListModel::NameColumn).data().toString(),
                      QString::fromLatin1(ascending[r]))
                << "column " << c << " row " << r;
    }
}
