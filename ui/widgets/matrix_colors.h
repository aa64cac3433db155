#pragma once

#include "dumpscope/result.h"

#include <QBrush>
#include <QColor>

// The matrix's colour code, shared by the model, its delegate and the legend so the three can
// never disagree. Every colour follows the application palette: a dark window colour (the
// desktop's dark mode) gives the dark set, so read them when painting, never cache them.
namespace matrix_colors {

// The application palette's window colour is dark (lightness below the middle).
bool darkPalette();

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
// Behind a hatched (one-sided) cell.
QColor hatchBackground();
// The element table's rows: a differing element, and a tail element present on one side only.
QColor differingRow();
QColor oneSidedRow();
// Status words written in colour over the window's background (buffer list, verdict).
QColor divergeText();
QColor equalText();
QColor toleratedText();
QColor errorText();

} // namespace matrix_colors
