#include "widgets/matrix_view.h"

#include "models/matrix_model.h"
#include "widgets/matrix_colors.h"

#include <QFontMetrics>
#include <QHeaderView>
#include <QPainter>
#include <QStyleOptionHeader>
#include <QStyledItemDelegate>

#include <algorithm>
#include <array>

namespace {

// Paints each cell as a flat swatch: the default style would tint it with the selection colour
// and hide the very colour the cell is there to show, so selection is drawn as a frame instead.
class MatrixDelegate : public QStyledItemDelegate {
  public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override {
        painter->save();
        const QRect r = option.rect.adjusted(1, 1, -1, -1);
        const auto brush = index.data(Qt::BackgroundRole).value<QBrush>();
        if (brush.style() != Qt::SolidPattern)
            painter->fillRect(r, matrix_colors::hatchBackground());
        painter->fillRect(r, brush);

        QFont font = option.font;
        if (const QVariant f = index.data(Qt::FontRole); f.isValid()) font = f.value<QFont>();
        painter->setFont(font);
        painter->setPen(index.data(Qt::ForegroundRole).value<QColor>());
        painter->drawText(r, Qt::AlignCenter, index.data(Qt::DisplayRole).toString());

        // Selection hugs the cell's edge and the root-cause outline sits inside it, so a
        // selected root cause shows both.
        if (index.data(MatrixModel::RootCauseRole).toBool()) {
            painter->setBrush(Qt::NoBrush);
            painter->setPen(
                QPen(QColor(0xff, 0xd6, 0x00), 3, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
            painter->drawRect(r.adjusted(5, 5, -6, -6));
            painter->setPen(QPen(Qt::black, 1));
            painter->drawRect(r.adjusted(3, 3, -4, -4));
        }
        // An input that could not be judged stops the root cause: dashed where a root cause
        // would be outlined solid, so the eye finds the unknown in the same place.
        if (index.data(MatrixModel::UnjudgedInputRole).toBool()) {
            painter->setBrush(Qt::NoBrush);
            painter->setPen(
                QPen(QColor(0xff, 0xd6, 0x00), 3, Qt::DashLine, Qt::SquareCap, Qt::MiterJoin));
            painter->drawRect(r.adjusted(5, 5, -6, -6));
        }
        if (option.state & QStyle::State_Selected) {
            painter->setBrush(Qt::NoBrush);
            painter->setPen(QPen(option.palette.color(QPalette::Highlight), 2));
            painter->drawRect(option.rect.adjusted(1, 1, -2, -2));
        } else if (option.state & QStyle::State_HasFocus) {
            painter->setBrush(Qt::NoBrush);
            painter->setPen(QPen(option.palette.color(QPalette::Highlight), 1, Qt::DashLine));
            painter->drawRect(option.rect.adjusted(1, 1, -2, -2));
        }
        painter->restore();
    }
};

// Draws each group's header elided at the right: the style would centre the text and clip both
// ends, cutting into the group id the header starts with.
class ElidingHeader : public QHeaderView {
  public:
    explicit ElidingHeader(MatrixView* view) : QHeaderView(Qt::Horizontal, view), m_view(view) {}

  protected:
    void paintSection(QPainter* painter, const QRect& rect, int logicalIndex) const override {
        if (!rect.isValid()) return;
        QStyleOptionHeader option;
        initStyleOption(&option);
        option.rect = rect;
        option.section = logicalIndex;
        option.text = m_view->headerText(logicalIndex);
        option.textAlignment = Qt::AlignCenter;
        painter->save();
        style()->drawControl(QStyle::CE_Header, &option, painter, this);
        painter->restore();
    }

  private:
    MatrixView* m_view;
};

} // namespace

QString MatrixView::headerText(int column) const {
    QHeaderView* header = horizontalHeader();
    if (!model()) return {};
    const int margin = 2 * style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    return header->fontMetrics().elidedText(model()->headerData(column, Qt::Horizontal).toString(),
                                            Qt::ElideRight, header->sectionSize(column) - margin);
}

MatrixView::MatrixView(QWidget* parent) : QTableView(parent) {
    setHorizontalHeader(new ElidingHeader(this));
    setItemDelegate(new MatrixDelegate(this));
    setSelectionMode(QAbstractItemView::SingleSelection);
    setSelectionBehavior(QAbstractItemView::SelectItems);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setTabKeyNavigation(false); // Tab leaves the matrix; arrows move inside it
    setShowGrid(false);
    setWordWrap(false); // single-line cells: a wrapped text layout per cell made each repaint slow
    setMouseTracking(true); // tooltips per cell
    horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    horizontalHeader()->setMinimumSectionSize(48);
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    verticalHeader()->setDefaultSectionSize(34);
    setAccessibleName(tr("Step by group matrix"));
}

void MatrixView::setModel(QAbstractItemModel* model) {
    QTableView::setModel(model);
    if (!model) return;
    connect(selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { emit cellChanged(current); });
    // A reset (new pair) drops the current cell without a currentChanged for the old one.
    connect(model, &QAbstractItemModel::modelReset, this, [this] { emit cellChanged({}); });
    connect(model, &QAbstractItemModel::modelReset, this, &MatrixView::fitHeaderMinimum);
    connect(model, &QAbstractItemModel::headerDataChanged, this, [this](Qt::Orientation o) {
        if (o == Qt::Horizontal) fitHeaderMinimum();
    });
    fitHeaderMinimum();
}

// Many groups share the matrix's width, so the headers' words elide, but never into the group
// id they lead with: no column is narrower than its id and an ellipsis, and past that the matrix
// scrolls sideways. The tooltip has the whole label.
void MatrixView::fitHeaderMinimum() {
    QHeaderView* header = horizontalHeader();
    const QFontMetrics metrics = header->fontMetrics();
    // A run of 100,000 groups has as many ids: shaping each one took longer than the matrix's
    // whole update. An ASCII id's width is the sum of its characters' advances (kerning only
    // narrows it, so the minimum errs wide); anything else is measured whole.
    std::array<int, 128> advance{};
    for (int c = 32; c < 127; ++c)
        advance[std::size_t(c)] = metrics.horizontalAdvance(QChar(c));
    // The ids are read as the model holds them: a QVariant and a QString a column made the loop
    // cost as much again as the measuring.
    const auto width = [&](const std::string& id) {
        int sum = 0;
        for (const unsigned char ch : id) {
            if (ch < 32 || ch >= 127) return metrics.horizontalAdvance(QString::fromStdString(id));
            sum += advance[ch];
        }
        return sum;
    };
    const auto* matrix = qobject_cast<const MatrixModel*>(model());
    int widest = 0;
    for (int c = 0; matrix && c < matrix->columnCount(); ++c)
        widest = std::max(widest, width(matrix->groupId(c)));
    const int margin = 2 * style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header) + 4;
    header->setMinimumSectionSize(
        std::max(48, widest + metrics.horizontalAdvance(QStringLiteral(" …")) + margin));
}

void MatrixView::mousePressEvent(QMouseEvent* event) {
    m_userNavigated = true;
    QTableView::mousePressEvent(event);
}

void MatrixView::keyPressEvent(QKeyEvent* event) {
    m_userNavigated = true;
    QTableView::keyPressEvent(event);
}
