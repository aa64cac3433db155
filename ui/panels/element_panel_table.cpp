// ElementPanel's table side: the scrolled window of rows, the cursor and navigation, copy and
// CSV export. (Setup, buffers and index building are in element_panel.cpp.)
#include "panels/element_panel.h"

#include "models/element_table_model.h"

#include "dumpscope/diff_index.h"
#include "dumpscope/report.h"
#include "dumpscope/shape.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QScrollBar>
#include <QTableView>

#include <algorithm>
#include <climits>
#include <set>
#include <stdexcept>

using namespace dumpscope;

bool ElementPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_view->viewport()) {
        if (event->type() == QEvent::Resize) updateWindowSize();
        // The view has no vertical scroll range of its own: the wheel drives our scroll bar.
        if (event->type() == QEvent::Wheel) {
            QApplication::sendEvent(m_scroll, event);
            return true;
        }
    } else if (watched == m_view && event->type() == QEvent::ShortcutOverride &&
               static_cast<QKeyEvent*>(event)->matches(QKeySequence::Copy)) {
        // QAbstractItemView copies only the current cell on Ctrl+C; take the key for the
        // whole selection.
        event->accept();
        return true;
    } else if (watched == m_view && event->type() == QEvent::KeyPress &&
               static_cast<QKeyEvent*>(event)->matches(QKeySequence::Copy)) {
        copySelection();
        return true;
    } else if (watched == m_view && event->type() == QEvent::KeyPress) {
        // Vertical moves can leave the window, so they are ours; the rest stays the view's.
        const auto* key = static_cast<QKeyEvent*>(event);
        const auto mods = key->modifiers() & ~Qt::KeypadModifier;
        const qint64 page = std::max(1, m_model->windowRows() - 1);
        if (mods == Qt::NoModifier) {
            switch (key->key()) {
            case Qt::Key_Up:
                moveCurrentBy(-1);
                return true;
            case Qt::Key_Down:
                moveCurrentBy(1);
                return true;
            case Qt::Key_PageUp:
                moveCurrentBy(-page);
                return true;
            case Qt::Key_PageDown:
                moveCurrentBy(page);
                return true;
            default:
                break;
            }
        } else if (mods == Qt::ControlModifier) {
            if (key->key() == Qt::Key_Home) {
                goToLogicalRow(0);
                return true;
            }
            if (key->key() == Qt::Key_End) {
                goToLogicalRow(m_model->logicalRowCount());
                return true;
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

// Rows that fit fully in the viewport: the window's size.
void ElementPanel::updateWindowSize() {
    const int rowHeight = std::max(1, m_view->verticalHeader()->defaultSectionSize());
    const int rows = std::max(1, m_view->viewport()->height() / rowHeight);
    m_model->setWindow(m_model->firstRow(), rows);
    syncScrollBar();
    placeCurrent();
}

void ElementPanel::syncScrollBar() {
    const quint64 total = m_model->logicalRowCount();
    const quint64 rows = quint64(m_model->windowRows());
    const quint64 maxFirst = total > rows ? total - rows : 0;
    // A QScrollBar counts in int; past 2^31 rows one unit stands for several rows.
    m_scrollStep = maxFirst <= quint64(INT_MAX) ? 1 : maxFirst / quint64(INT_MAX) + 1;
    const QSignalBlocker block(m_scroll);
    m_scroll->setRange(0, int((maxFirst + m_scrollStep - 1) / m_scrollStep));
    m_scroll->setPageStep(int(std::max<quint64>(1, rows / m_scrollStep)));
    m_scroll->setSingleStep(1);
    m_scroll->setValue(int(m_model->firstRow() / m_scrollStep));
    m_scroll->setEnabled(maxFirst > 0);
}

void ElementPanel::setFirstRow(quint64 first) {
    if (first == m_model->firstRow()) return;
    m_model->setWindow(first, m_model->windowRows());
    // A selection names window rows; once the window moves they would be other elements.
    m_view->selectionModel()->clearSelection();
    syncScrollBar();
    placeCurrent();
}

// Puts the view's cursor on the current element when the window shows it.
void ElementPanel::placeCurrent() {
    m_placing = true;
    QModelIndex target;
    if (m_current) {
        if (const auto row = m_model->logicalRowOfElement(*m_current)) {
            const quint64 first = m_model->firstRow();
            if (*row >= first && *row < first + quint64(m_model->rowCount())) {
                const int column = std::max(0, m_view->currentIndex().column());
                target = m_model->index(int(*row - first), column);
            }
        }
    }
    m_view->selectionModel()->setCurrentIndex(target, QItemSelectionModel::NoUpdate);
    m_placing = false;
}

void ElementPanel::goToLogicalRow(quint64 row) {
    const quint64 total = m_model->logicalRowCount();
    if (total == 0) return;
    row = std::min(row, total - 1);
    const quint64 first = m_model->firstRow();
    const auto rows = quint64(m_model->windowRows());
    if (row < first)
        setFirstRow(row);
    else if (row >= first + rows)
        setFirstRow(row - rows + 1);
    m_current = m_model->elementOfLogicalRow(row);
    placeCurrent();
    const QModelIndex current = m_view->currentIndex();
    if (current.isValid())
        m_view->selectionModel()->select(current, QItemSelectionModel::ClearAndSelect |
                                                      QItemSelectionModel::Rows);
}

// A jump (go to, next difference) lands a third of the way down, with context above it.
void ElementPanel::goToElement(quint64 element) {
    const auto row = m_model->logicalRowOfElement(element);
    if (!row) return;
    const quint64 first = m_model->firstRow();
    const auto rows = quint64(m_model->windowRows());
    if (*row < first || *row >= first + rows) setFirstRow(*row > rows / 3 ? *row - rows / 3 : 0);
    goToLogicalRow(*row);
}

void ElementPanel::moveCurrentBy(qint64 delta) {
    std::optional<quint64> row =
        m_current ? m_model->logicalRowOfElement(*m_current) : std::nullopt;
    const quint64 from = row ? *row : m_model->firstRow();
    const quint64 target =
        delta < 0 ? (from > quint64(-delta) ? from - quint64(-delta) : 0) : from + quint64(delta);
    goToLogicalRow(target);
}

void ElementPanel::goToIndex(quint64 index) {
    const quint64 n = m_model->elementCount();
    if (n == 0) return;
    index = std::min(index, n - 1);
    // A sorted table lists only the first of the differences: an element it does not list is
    // shown in index order, where every element has its place.
    if (m_order && !m_model->logicalRowOfElement(index)) clearOrder();
    // With only some elements listed, go to the listed one nearest after (else before) it, and
    // say so: landing on another element without a word would read as the one asked for.
    if (const auto& rows = m_model->rowIndex(); rows && !rows->contains(index)) {
        auto target = rows->nextAfter(index);
        if (!target) target = rows->previousBefore(index);
        if (!target) return;
        const QString asked = m_model->cellText(index, ElementTableModel::IndexColumn);
        const QString shown = m_model->cellText(*target, ElementTableModel::IndexColumn);
        m_status->setText(
            m_rangeFilter
                ? tr("Element %1 is not in the histogram bar's filter: showing %2, the nearest "
                     "that is")
                      .arg(asked, shown)
                : tr("Element %1 is equal in both runs, and only differing elements are listed: "
                     "showing %2, the nearest difference")
                      .arg(asked, shown));
        index = *target;
    }
    goToElement(index);
}

void ElementPanel::showElement(quint64 element) {
    // A histogram bar's filter that leaves the element out would move the cursor elsewhere: the
    // element asked for wins, and the line under the table says the filter went.
    if (m_rangeFilter && (!m_rangeIndex || !m_rangeIndex->contains(element))) {
        const QString filter = m_filterLabel->text();
        clearRangeFilter();
        goToIndex(element);
        m_status->setText(
            tr("Element %1 is outside the histogram filter (%2): the filter is "
               "cleared")
                .arg(m_model->cellText(element, ElementTableModel::IndexColumn), filter));
        return;
    }
    goToIndex(element);
}

bool ElementPanel::goToText(const QString& text) {
    std::string error;
    const auto index = parseIndex(text.toStdString(), m_model->shape(), &error);
    const quint64 n = m_model->elementCount();
    if (index && *index >= n)
        error = tr("past the last element, %1")
                    .arg(n ? m_model->cellText(n - 1, ElementTableModel::IndexColumn) : "—")
                    .toStdString();
    if (!index || *index >= n) {
        m_status->setText(tr("Go to %1: %2").arg(text.trimmed(), QString::fromStdString(error)));
        return false;
    }
    goToIndex(*index);
    return true;
}

void ElementPanel::nextDifference() {
    if (m_order) { // every row is a difference: the next one in the order
        moveCurrentBy(1);
        return;
    }
    const DiffIndex* nav = navigationIndex();
    if (!nav || nav->count() == 0) return;
    const auto target = m_current ? nav->nextAfter(*m_current) : nav->select(0);
    if (target) goToElement(*target);
}

void ElementPanel::previousDifference() {
    if (m_order) {
        moveCurrentBy(-1);
        return;
    }
    const DiffIndex* nav = navigationIndex();
    if (!nav || nav->count() == 0) return;
    const auto target = m_current ? nav->previousBefore(*m_current) : nav->select(nav->count() - 1);
    if (target) goToElement(*target);
}

// The elements of the selected rows, in order: a selection is of whole rows, and a cell
// selected alone stands for its row.
std::vector<quint64> ElementPanel::selectedElements() const {
    std::set<int> rows;
    for (const QModelIndex& index : m_view->selectionModel()->selectedIndexes())
        rows.insert(index.row());
    std::vector<quint64> elements;
    for (int row : rows)
        if (const auto element = m_model->elementAt(row)) elements.push_back(*element);
    return elements;
}

QString ElementPanel::selectionText() const {
    const std::vector<quint64> elements = selectedElements();
    if (elements.empty()) return {};
    QStringList header;
    for (int c = 0; c < m_model->columnCount(); ++c)
        header << m_model->headerData(c, Qt::Horizontal).toString();
    QString text = header.join(QLatin1Char('\t')) + QLatin1Char('\n');
    for (quint64 element : elements) {
        QStringList line;
        for (int c = 0; c < m_model->columnCount(); ++c)
            line << m_model->cellText(element, c, true);
        text += line.join(QLatin1Char('\t')) + QLatin1Char('\n');
    }
    return text;
}

QString ElementPanel::selectionCsv() const {
    const std::vector<quint64> elements = selectedElements();
    if (elements.empty() || (!m_a && !m_b)) return {};
    const DType dtype = m_a ? m_a->dtype() : m_b->dtype();
    std::string csv(kDiffCsvHeader);
    for (quint64 element : elements) {
        const auto bits = [element](const std::shared_ptr<BufferView>& view) {
            return view && element < view->size() ? view->bits(element) : std::nullopt;
        };
        appendDiffCsvLine(csv, dtype, element, bits(m_a), bits(m_b));
    }
    return QString::fromStdString(csv);
}

void ElementPanel::copySelection() {
    const QString text = selectionText();
    if (!text.isEmpty()) QApplication::clipboard()->setText(text);
}

void ElementPanel::showContextMenu(const QPoint& at) {
    const QModelIndex cell = m_view->indexAt(at);
    if (!cell.isValid()) return;
    // The row under the pointer joins the selection unless it is part of it already.
    if (!m_view->selectionModel()->isSelected(cell))
        m_view->selectionModel()->select(cell, QItemSelectionModel::ClearAndSelect |
                                                   QItemSelectionModel::Rows);
    const auto element = m_model->elementAt(cell.row());
    if (!element) return;
    QMenu menu(this);
    menu.addAction(tr("Copy Value"), this, [this, element, column = cell.column()] {
        QApplication::clipboard()->setText(m_model->cellText(*element, column, true));
    });
    menu.addAction(tr("Copy Rows"), this, &ElementPanel::copySelection);
    menu.addAction(tr("Copy Rows as CSV"), this,
                   [this] { QApplication::clipboard()->setText(selectionCsv()); });
    menu.addSeparator();
    menu.addAction(tr("Show Element %1 in the Divergence Map")
                       .arg(m_model->cellText(*element, ElementTableModel::IndexColumn)),
                   this, [this, element] { emit elementShown(*element); });
    menu.exec(m_view->viewport()->mapToGlobal(at));
}

bool ElementPanel::exportCsv(const QString& path, QString* error) {
    auto fail = [error](const QString& message) {
        if (error) *error = message;
        return false;
    };
    const DiffIndex* index = navigationIndex();
    if (!m_a || !m_b || !m_analysis) return fail(tr("No buffer pair to export."));
    if (!index) return fail(tr("The differences are still being indexed."));
    // The reports' writer: one rule keeps the file out of the dumps being compared (there it
    // would be a new "unclassified" buffer, or replace one) however the path reaches them, and
    // the file appears whole or not at all. The CSV goes to it in pieces, never as one string:
    // the differences of a 10^8-element buffer run to gigabytes of text.
    const auto produce = [&](const WriteSink& sink) {
        const auto toFile = [&sink](std::string_view text) {
            sink(text); // throws when the write fails
            return true;
        };
        std::string readError;
        if (!writeDiffCsv(*m_a, *m_b, *index, toFile, &readError))
            throw std::runtime_error(readError);
    };
    try {
        writeFileAtomically(path.toStdString(), {m_analysis->runA, m_analysis->runB}, "CSV file",
                            produce);
    } catch (const std::exception& e) {
        return fail(QString::fromUtf8(e.what()));
    }
    return true;
}

void ElementPanel::chooseExportFile() {
    if (!m_analysis || m_bufferIndex < 0) return;
    const auto& buffer = m_analysis->buffers[std::size_t(m_bufferIndex)];
    const QString base = QFileInfo(QString::fromStdString(buffer.fileName)).completeBaseName();
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export differing elements"),
        QDir::home().filePath(base + QStringLiteral("_diffs.csv")), tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    if (!exportCsv(path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
}
