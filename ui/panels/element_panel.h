#pragma once

#include "dumpscope/diff_index.h"
#include "dumpscope/element_order.h"
#include "dumpscope/result.h"

#include <QList>
#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class ElementTableModel;
class QCheckBox;
class QLabel;
class QLineEdit;
class QScrollBar;
class QTableView;
class QToolButton;

// The selected buffer's elements: the lazily formatted table, "only differing elements", go to
// index, next / previous difference (N / Shift+N), copy (Ctrl+C), CSV export of the differing
// elements, the histogram-bar range filter, and sorting the differences by a column. The table
// scrolls through a window of rows with its own scroll bar (see ElementTableModel), and the index
// of differences is built off the GUI thread for big buffers while the table already shows all
// elements.
class ElementPanel : public QWidget {
    Q_OBJECT
  public:
    explicit ElementPanel(QWidget* parent = nullptr);
    ~ElementPanel() override;

    void setBuffer(std::shared_ptr<const dumpscope::Analysis> analysis, int bufferIndex);
    // -1 in setBuffer does the same.
    void clear();

    // Writes the differing elements (those of the range filter when one is active) as CSV.
    // Written by the core's writeFileAtomically: refused inside either run directory, however
    // the path reaches it, and whole or not at all. False with `error` set on failure.
    bool exportCsv(const QString& path, QString* error = nullptr);
    // The selected rows, whole, as the table shows them (values exact) under a line of column
    // titles, tab-separated: what Ctrl+C copies.
    QString selectionText() const;
    // The same rows in the CSV export's form (kDiffCsvHeader and its lines).
    QString selectionCsv() const;

    // For the window and the tests.
    ElementTableModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QCheckBox* onlyDifferingBox() const { return m_onlyDiffering; }
    QScrollBar* scrollBar() const { return m_scroll; }
    QString rangeFilterText() const;
    QString statusText() const;
    bool isIndexReady() const { return m_diffs != nullptr; }
    bool hasRangeFilter() const { return m_rangeFilter.has_value(); }
    // The sort in force: the table lists the differing elements (those of the histogram filter
    // when one is on) by a column, the first orderLimit() of them; index order when none.
    bool isOrdered() const { return m_order != nullptr; }
    bool isOrderPending() const { return m_orderRequest && !m_order; }
    QString orderText() const;
    // Rows a sort keeps (the heap's size): 100,000 unless a test lowers it.
    void setOrderLimit(std::size_t rows) { m_orderLimit = rows; }
    std::size_t orderLimit() const { return m_orderLimit; }
    std::optional<quint64> currentElement() const { return m_current; }
    int bufferIndex() const { return m_bufferIndex; }
    // Buffers with at most this many elements are indexed on the GUI thread (a few ms); larger
    // ones in a worker. Tests lower it to exercise the worker.
    void setSyncIndexLimit(quint64 elements) { m_syncLimit = elements; }
    // The panel's own N / Shift+N (on by default); off where the window provides them.
    void setNavigationShortcutsEnabled(bool enabled);

  public slots:
    void filterToDeltaDecade(int decade);
    void filterToUlpBin(int bin);
    void clearRangeFilter();
    void goToIndex(quint64 index);
    // Goes to `element` as goToIndex does, but clears a histogram filter that leaves it out
    // (the divergence map's clicks: the block's first difference must show).
    void showElement(quint64 element);
    // Goes to an index typed as the table shows it ("(31, 8)", "31, 8", "31 8" or a flat
    // index); false, with the reason in the status line, when it names no element.
    bool goToText(const QString& text);
    void nextDifference();
    void previousDifference();
    void copySelection();
    // Sorts by a column as a click on its header does: A, B, |Δ|, relative Δ and ULP order the
    // differing elements (off the GUI thread for big buffers), Index goes back to index order,
    // the bits columns do not sort.
    void sortByColumn(int column, Qt::SortOrder order);
    void clearOrder();

  signals:
    void indexReady();         // the buffer's differences are indexed
    void rangeFilterApplied(); // the table shows the range filter's elements
    void rangeFilterCleared(); // ... and no longer
    void indexFailed(const QString& error);
    void elementShown(quint64 index); // "show in the divergence map" from the context menu
    void orderReady();                // the table lists the elements in the requested order

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    using IndexPtr = std::shared_ptr<const dumpscope::DiffIndex>;
    struct IndexJob;
    using JobPtr = std::shared_ptr<IndexJob>;
    // Builds the index of `filter`'s elements and hands it to `done` on the GUI thread: at once
    // for a small buffer (null job), else from a BackgroundJob, which the caller may stop.
    JobPtr buildIndex(const dumpscope::DiffFilter& filter,
                      std::function<void(IndexPtr, const QString&)> done);
    // Runs `scan` over a pair of `elements` and hands its result to `done` on the GUI thread:
    // at once up to the sync limit (null job), else from a BackgroundJob showing `what` and its
    // progress in the status line.
    using ScanFn =
        std::function<std::shared_ptr<const void>(const dumpscope::ScanProgressFn&, std::string*)>;
    using ScanDoneFn = std::function<void(std::shared_ptr<const void>, const QString&)>;
    JobPtr runScan(quint64 elements, const QString& what, ScanFn scan, ScanDoneFn done);
    using OrderPtr = std::shared_ptr<const dumpscope::ElementOrder>;
    struct OrderRequest {
        dumpscope::ElementOrderKey key;
        bool descending;
    };
    QWidget* setUpOrdering();
    // Puts the asked-for order on the table, or starts the scan for it once the differences it
    // orders are indexed. True when the table shows it; false while it is being computed (the
    // rows stay as they are) and when none is asked for.
    bool applyOrder();
    void resetOrder();
    void syncSortIndicator();
    static void stopJob(JobPtr& job);
    void applyRangeFilter(const dumpscope::DiffFilter& filter);
    void applyMode();
    const dumpscope::DiffIndex* navigationIndex() const;
    void setFirstRow(quint64 first);
    void updateWindowSize();
    void fitColumns(bool restart);
    std::vector<quint64> selectedElements() const;
    void showContextMenu(const QPoint& at);
    void syncScrollBar();
    void placeCurrent();
    void goToLogicalRow(quint64 row);
    void goToElement(quint64 element);
    void moveCurrentBy(qint64 rows);
    void updateControls();
    void chooseExportFile();

    ElementTableModel* m_model;
    QTableView* m_view;
    QScrollBar* m_scroll;
    QCheckBox* m_onlyDiffering;
    QLineEdit* m_goTo;
    QToolButton* m_previous;
    QToolButton* m_next;
    QToolButton* m_copy;
    QToolButton* m_export;
    QWidget* m_filterBar;
    QLabel* m_filterLabel;
    QLabel* m_status;

    std::shared_ptr<const dumpscope::Analysis> m_analysis;
    int m_bufferIndex = -1;
    std::shared_ptr<dumpscope::BufferView> m_a, m_b;
    IndexPtr m_diffs;      // every difference; null until built
    IndexPtr m_rangeIndex; // the range filter's differences; null until built
    std::optional<dumpscope::DiffFilter> m_rangeFilter;
    std::optional<quint64> m_current; // the element the cursor is on
    bool m_placing = false;           // placeCurrent() is moving the view's cursor
    quint64 m_scrollStep = 1;         // logical rows per scroll-bar unit (int range)

    // Stale worker results are dropped by sequence number; a superseded scan is stopped.
    std::uint64_t m_diffSequence = 0, m_rangeSequence = 0;
    JobPtr m_indexJob, m_rangeJob; // the scans in flight for m_diffs and m_rangeIndex
    std::vector<JobPtr> m_jobs;    // every scan not joined yet, stopped ones included
    quint64 m_syncLimit = 1u << 20;

    // The sort: asked for, computed over m_orderSet (m_diffs or m_rangeIndex), in flight.
    std::optional<OrderRequest> m_orderRequest;
    OrderPtr m_order;
    IndexPtr m_orderSet, m_orderJobSet;
    std::uint64_t m_orderSequence = 0;
    JobPtr m_orderJob;
    std::size_t m_orderLimit = 100000;
    QWidget* m_orderBar = nullptr;
    QLabel* m_orderLabel = nullptr;
};
