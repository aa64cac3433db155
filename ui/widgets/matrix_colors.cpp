#include "widgets/matrix_colors.h"

#include <QGuiApplication>
#include <QPalette>

#include <algorithm>
#include <cmath>

namespace matrix_colors {

using dumpscope::Status;

namespace {

// The light colour, or its dark-palette counterpart (darker fills, light text on them).
QColor pick(QColor light, QColor dark) {
    return darkPalette() ? dark : light;
}

} // namespace

// Qt 6.4 has no QStyleHints::colorScheme (6.5); the platform theme's palette carries the
// desktop's choice, and a change of it reaches every widget as a PaletteChange.
bool darkPalette() {
    return QGuiApplication::palette().color(QPalette::Window).lightness() < 128;
}

QColor equal() {
    return pick(QColor(0x81, 0xc7, 0x84), QColor(0x2e, 0x7d, 0x32));
}
QColor missing() {
    return pick(QColor(0xbd, 0xbd, 0xbd), QColor(0x5f, 0x63, 0x68));
}
QColor error() {
    return pick(QColor(0xff, 0x98, 0x00), QColor(0xc6, 0x5a, 0x00));
}
QColor pending() {
    return pick(QColor(0xec, 0xef, 0xf1), QColor(0x37, 0x47, 0x4f));
}
QColor oneSided() {
    return pick(QColor(0x78, 0x78, 0x78), QColor(0xb0, 0xb0, 0xb0));
}
QColor withinTolerance() {
    return pick(QColor(0xe6, 0xee, 0x9c), QColor(0x82, 0x77, 0x17));
} // light: as the HTML report's "tol"
QColor hatchBackground() {
    return pick(QColor(0xee, 0xee, 0xee), QColor(0x30, 0x30, 0x30));
}
QColor differingRow() {
    return pick(QColor(255, 214, 214), QColor(0x6d, 0x2a, 0x2a));
}
QColor oneSidedRow() {
    return pick(QColor(255, 232, 190), QColor(0x6d, 0x4c, 0x1f));
}
QColor divergeText() {
    return pick(QColor(0xb7, 0x1c, 0x1c), QColor(0xef, 0x53, 0x50));
}
QColor equalText() {
    return pick(QColor(0x2e, 0x7d, 0x32), QColor(0x81, 0xc7, 0x84));
}
QColor toleratedText() {
    return pick(QColor(0x82, 0x77, 0x17), QColor(0xd4, 0xe1, 0x57));
}
QColor errorText() {
    return pick(QColor(0xe6, 0x51, 0x00), QColor(0xff, 0xb7, 0x4d));
}

// The scale spans 1e-8 (a few ULP of a float near 1) to 1e2; gradients of a training step
// rarely leave that range, and anything outside is clamped to the ends.
double divergeShade(double maxAbsDelta) {
    if (std::isnan(maxAbsDelta) || std::isinf(maxAbsDelta)) return 1.0;
    if (maxAbsDelta <= 0) return 0.0;
    return std::clamp((std::log10(maxAbsDelta) + 8.0) / 10.0, 0.0, 1.0);
}

// Light palette: pale to dark red as |Δ| grows; dark palette: dim to bright red.
QColor diverge(double maxAbsDelta) {
    const double t = divergeShade(maxAbsDelta);
    const bool darkSet = darkPalette();
    const QColor light = darkSet ? QColor(0x6a, 0x2c, 0x2c) : QColor(0xef, 0x9a, 0x9a);
    const QColor dark = darkSet ? QColor(0xe5, 0x39, 0x35) : QColor(0x7f, 0x00, 0x00);
    auto mix = [t](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * t)); };
    return QColor(mix(light.red(), dark.red()), mix(light.green(), dark.green()),
                  mix(light.blue(), dark.blue()));
}

QBrush cellBrush(Status status, double maxAbsDelta, bool pending) {
    if (dumpscope::isDivergent(status)) return QBrush(diverge(maxAbsDelta));
    if (dumpscope::isTolerated(status)) return QBrush(withinTolerance());
    if (pending) return QBrush(matrix_colors::pending());
    if (dumpscope::isError(status)) return QBrush(error());
    if (dumpscope::isOneSided(status)) return QBrush(oneSided(), Qt::BDiagPattern);
    if (status == Status::equal) return QBrush(equal());
    return QBrush(missing());
}

QColor textColor(Status status, double maxAbsDelta, bool /*pending*/) {
    if (darkPalette()) return QColor(0xf5, 0xf5, 0xf5);
    if (dumpscope::isDivergent(status) && divergeShade(maxAbsDelta) > 0.45) return Qt::white;
    return Qt::black;
}

} // namespace matrix_colors
