// The element table shows whole values: columns fit what the rows show, the digits where A and
// B part are marked, and Go to index reads an index as the table writes it.
#include "element_panel_fixture.h"
#include "widgets/differing_suffix_delegate.h"
#include "widgets/matrix_colors.h"

#include "dumpscope/shape.h"

#include <QCheckBox>
#include <QHeaderView>
#include <QImage>
#include <QLineEdit>
#include <QTableView>

using namespace element_panel_test;

namespace {

// The width a cell's text needs as the delegate paints it.
int neededWidth(QTableView* view, const QModelIndex& index) {
    QStyleOptionViewItem option;
    option.initFrom(view->viewport());
    option.font = view->font();
    return view->itemDelegateForIndex(index)->sizeHint(option, index).width();
}

// Pixels of `colour` (within a small distance) inside `rect` of `image`.
int pixelsOf(const QImage& image, const QRect& rect, const QColor& colour) {
    int n = 0;
    for (int y = rect.top(); y <= rect.bottom(); ++y)
        for (int x = rect.left(); x <= rect.right(); ++x) {
            const QColor c = image.pixelColor(x, y);
            n += std::abs(c.red() - colour.red()) + std::abs(c.green() - colour.green()) +
                     std::abs(c.blue() - colour.blue()) <
                 40;
        }
    return n;
}

} // namespace

TEST(DifferingSuffix, StartsAtTheFirstCharacterThatDiffers) {
    EXPECT_EQ(DifferingSuffixDelegate::differingFrom("0.00044066841", "0.00044066844"), 12);
    EXPECT_EQ(DifferingSuffixDelegate::differingFrom("0x39e70c2a", "0x39e70c2d"), 9);
    EXPECT_EQ(DifferingSuffixDelegate::differingFrom("1.5", "1.25"), 2);
    EXPECT_EQ(DifferingSuffixDelegate::differingFrom("-0", "0"), 0);
    EXPECT_EQ(DifferingSuffixDelegate::differingFrom("1.5", "1.5"), -1);
    EXPECT_EQ(DifferingSuffixDelegate::differingFrom("1.5", "1.5e-07"), 3);
}

TEST_F(ElementPanelTest, ColumnsFitEveryValueShownAndSpareWidthStaysRight) {
    panel.resize(520, 400); // narrower than the columns: the table scrolls sideways instead
    GeneratedPair pair(4000);
    panel.setBuffer(pair.analysis, pair.buffer);
    QTableView* view = panel.view();
    QHeaderView* header = view->horizontalHeader();
    EXPECT_FALSE(header->stretchLastSection());
    EXPECT_EQ(view->textElideMode(), Qt::ElideNone);
    const auto everyCellFits = [&] {
        ElementTableModel* model = panel.model();
        for (int r = 0; r < model->rowCount(); ++r)
            for (int c = 0; c < model->columnCount(); ++c) {
                const QModelIndex index = model->index(r, c);
                ASSERT_GE(header->sectionSize(c), neededWidth(view, index))
                    << "column " << c << " cuts " << index.data().toString().toStdString();
            }
    };
    everyCellFits();
    // Further down the values differ; the columns grow to them and never shrink back.
    std::vector<int> widths;
    for (int c = 0; c < header->count(); ++c)
        widths.push_back(header->sectionSize(c));
    for (quint64 element : {1500u, 2999u, 3990u, 10u}) {
        panel.goToIndex(element);
        everyCellFits();
        for (int c = 0; c < header->count(); ++c) {
            EXPECT_GE(header->sectionSize(c), widths[std::size_t(c)]);
            widths[std::size_t(c)] = header->sectionSize(c);
        }
    }
    // A and B, and both sides' bits, sit next to each other.
    EXPECT_EQ(header->visualIndex(ElementTableModel::BColumn),
              header->visualIndex(ElementTableModel::AColumn) + 1);
    EXPECT_EQ(header->visualIndex(ElementTableModel::BBitsColumn),
              header->visualIndex(ElementTableModel::ABitsColumn) + 1);
}

TEST_F(ElementPanelTest, TheDigitsWhereAAndBPartAreMarkedOnlyInDifferingRows) {
    panel.resize(1400, 900);
    GeneratedPair pair(400);
    panel.setBuffer(pair.analysis, pair.buffer);
    panel.goToIndex(0);
    QTableView* view = panel.view();
    view->selectionModel()->clear();
    view->viewport()->repaint();
    const QImage image = view->viewport()->grab().toImage();
    ElementTableModel* model = panel.model();
    const QColor mark = matrix_colors::divergeText();
    int markedDiffering = 0;
    for (int r = 0; r < model->rowCount(); ++r) {
        const quint64 element =
            model->index(r, 0).data(ElementTableModel::ElementIndexRole).toULongLong();
        const bool differs = model->index(r, 0).data(ElementTableModel::DiffersRole).toBool();
        const QRect cell = view->visualRect(model->index(r, ElementTableModel::BColumn));
        const int marked = pixelsOf(image, cell, mark);
        if (!differs)
            EXPECT_EQ(marked, 0) << "element " << element << " is equal but has marked digits";
        else if (element != 10 && element != 11) // NaN and ±0 print differently from the start
            markedDiffering += marked > 0;
    }
    EXPECT_GE(markedDiffering, 4) << "no differing row had its differing digits marked";
}

TEST_F(ElementPanelTest, GoToIndexReadsAnIndexAsTheTableWritesIt) {
    TempDir dir;
    std::vector<float> a(64 * 16, 1.0f), b = a;
    b[31 * 16 + 9] = 2.0f; // (31, 9)
    writeDump(dir / "a", 0, "h_q_logits", a);
    writeDump(dir / "b", 0, "h_q_logits", b);
    AnalyzeOptions options;
    options.shapes["q_logits"] = {"64", "16"};
    auto analysis = std::make_shared<const Analysis>(analyze(dir / "a", dir / "b", options));
    int buffer = -1;
    for (std::size_t i = 0; i < analysis->buffers.size(); ++i)
        if (analysis->buffers[i].name == "q_logits") buffer = int(i);
    ASSERT_GE(buffer, 0);
    ASSERT_EQ(analysis->buffers[std::size_t(buffer)].shape, (std::vector<std::uint64_t>{64, 16}));
    panel.setBuffer(analysis, buffer);

    for (const char* typed : {"(31, 8)", "31, 8", "31 8", " ( 31 ,8 ) ", "504"}) {
        panel.goToIndex(0);
        EXPECT_TRUE(panel.goToText(QString::fromLatin1(typed))) << typed;
        EXPECT_EQ(panel.currentElement(), 31u * 16 + 8) << typed;
    }
    for (const char* typed : {"(64, 0)", "1, 2, 3", "(31, 8", "", "99999"}) {
        panel.goToIndex(0);
        EXPECT_FALSE(panel.goToText(QString::fromLatin1(typed))) << typed;
        EXPECT_EQ(panel.currentElement(), 0u) << typed << " moved the cursor";
        EXPECT_TRUE(panel.statusText().startsWith(QStringLiteral("Go to"))) << typed;
    }
    EXPECT_TRUE(panel.statusText().contains(QStringLiteral("(63, 15)")))
        << "past the end names the last element: " << panel.statusText().toStdString();

    // Only differing: an equal element says so instead of landing silently elsewhere.
    panel.onlyDifferingBox()->setChecked(true);
    ASSERT_TRUE(panel.goToText(QStringLiteral("(31, 8)")));
    EXPECT_EQ(panel.currentElement(), 31u * 16 + 9);
    EXPECT_TRUE(panel.statusText().contains(QStringLiteral("(31, 8) is equal")))
        << panel.statusText().toStdString();
    EXPECT_TRUE(panel.statusText().contains(QStringLiteral("(31, 9)")));

    // The field itself: Enter goes there, and it is wide enough for such an index.
    auto* field = panel.findChild<QLineEdit*>(QStringLiteral("goToIndex"));
    ASSERT_NE(field, nullptr);
    EXPECT_GE(field->minimumWidth(),
              field->fontMetrics().horizontalAdvance(QStringLiteral("(000000, 00000)")));
    panel.onlyDifferingBox()->setChecked(false);
    field->setText(QStringLiteral("(2, 3)"));
    QTest::keyClick(field, Qt::Key_Return);
    EXPECT_EQ(panel.currentElement(), 2u * 16 + 3);
}
