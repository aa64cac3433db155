#pragma once

#include "dumpscope/result.h"

#include <QBrush>
#include <QColor>

// The matrix's colour code, shared by the model, its delegate and the legend so the three can
// never disagree.
namespace matrix_colors {

QColor equal();
QColor missing();
QColor error();
QColor pending();
QColor oneSided();        // drawn hatched over the base colour
QColor withinTolerance(); // differs bitwise, every difference within the given tolerance
// Light red for a divergence of a few ULP at unit scale, dark red for a large one. NaN and
// infinite |Δ| take the darkest shade; 0 (sign of zero only) the lightest.
QColor diverge(double maxAbsDelta);
// 0 (lightest) .. 1 (darkest): where |Δ| falls on the diverge scale.
double divergeShade(double maxAbsDelta);

// The brush a cell in `status` is painted with (one-sided: a hatch pattern).
QBrush cellBrush(dumpscope::Status status, double maxAbsDelta, bool pending);
// Readable text over that brush.
QColor textColor(dumpscope::Status status, double maxAbsDelta, bool pending);

} // namespace matrix_colors
