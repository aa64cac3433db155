#include "workers/deferred_progress.h"

#include <QProgressBar>

void setProgressDeferred(QProgressBar& bar, int value, int maximum) {
    bar.setUpdatesEnabled(false);
    bar.setMaximum(maximum);
    bar.setValue(value);
    bar.setUpdatesEnabled(true); // schedules the bar's repaint
}
