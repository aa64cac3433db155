#include "dialogs/shortcuts_dialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {

QString plain(QString text) {
    return text.remove(QLatin1Char('&'));
}

// Menu path ("Go → Next Difference") and shortcut of every action under `menu` that has one.
void collect(const QMenu* menu, const QString& path, QList<QPair<QString, QString>>& rows) {
    for (const QAction* action : menu->actions()) {
        if (action->isSeparator()) continue;
        const QString here = path + QStringLiteral(" → ") + plain(action->text());
        if (const QMenu* sub = action->menu()) {
            collect(sub, here, rows);
            continue;
        }
        QStringList keys;
        for (const QKeySequence& k : action->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        if (!keys.isEmpty()) rows.append({keys.join(QStringLiteral(", ")), here});
    }
}

} // namespace

ShortcutsDialog::ShortcutsDialog(const QMenuBar* menuBar, QWidget* parent)
    : QDialog(parent), m_table(new QTableWidget(this)) {
    setWindowTitle(tr("Keyboard Shortcuts"));
    QList<QPair<QString, QString>> rows;
    for (const QAction* action : menuBar->actions())
        if (const QMenu* menu = action->menu()) collect(menu, plain(menu->title()), rows);
    // Keys of the panes themselves: no menu action carries them.
    rows.append({tr("Arrow keys, Tab"), tr("Move between matrix cells; Tab leaves a table")});
    rows.append({tr("Enter"), tr("Matrix → buffer list → element table")});
    rows.append({tr("Up, Down, Page Up, Page Down, Ctrl+Home, Ctrl+End"),
                 tr("Move through the element table")});
    rows.append({tr("Ctrl+C"), tr("Copy the selected element-table rows, with the titles")});
    m_table->setObjectName(QStringLiteral("shortcutsTable"));
    m_table->setColumnCount(2);
    m_table->setHorizontalHeaderLabels({tr("Keys"), tr("What")});
    m_table->setRowCount(int(rows.size()));
    for (int r = 0; r < int(rows.size()); ++r) {
        m_table->setItem(r, 0, new QTableWidgetItem(rows[r].first));
        m_table->setItem(r, 1, new QTableWidgetItem(rows[r].second));
    }
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_table);
    layout->addWidget(buttons);
    resize(640, 520);
}
