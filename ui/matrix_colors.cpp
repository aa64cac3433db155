#include "matrix_colors.h"

#include <algorithm>
#include <cmath>

namespace matrix_colors {

using dumpscope::Status;

QColor equal() {
    return QColor(0x81, 0xc7, 0x84);
}
QColor missing() {
    return QColor(0xbd, 0xbd, 0xbd);
}
QColor error() {
    return QColor(0xff, 0x98, 0x00);
}
QColor pending() {
    return QColor(0xec, 0xef, 0xf1);
}
QColor oneSided() {
    return QColor(0x78, 0x78, 0x78);
}
QColor withinTolerance() {
    return QColor(0xe6, 0xee, 0x9c);
} // as the HTML report's "tol"

// The scale spans 1e-8 (a few ULP of a float near 1) to 1e2; gradients of a training step
// rarely leave that range, and anything outside is clamped to the ends.
double divergeShade(double maxAbsDelta) {
    if (std::isnan(maxAbsDelta) || std::isinf(maxAbsDelta)) return 1.0;
    if (maxAbsDelta <= 0) return 0.0;
    return std::clamp((std::log10(maxAbsDelta) + 8.0) / 10.0, 0.0, 1.0);
}

QColor diverge(double maxAbsDelta) {
    const double t = divergeShade(maxAbsDelta);
    const QColor light(0xef, 0x9a, 0x9a), dark(0x7f, 0x00, 0x00);
    auto mix = [t](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * t)); };
    return QColor(mix(light.red(), dark.red()), mix(light.green(), dark.green()),
                  mix(light.blue(), dark.blue()));
}

QBrush cellBrush(Status status, double maxAbsDelta, bool pending) {
    if (dumpscope::isDivergent(status)) return QBrush(diverge(maxAbsDelta));
    if (status == Status::within_tolerance) return QBrush(withinTolerance());
    if (pending) return QBrush(matrix_colors::pending());
    if (dumpscope::isError(status)) return QBrush(error());
    if (dumpscope::isOneSided(status)) return QBrush(oneSided(), Qt::BDiagPattern);
    if (status == Status::equal) return QBrush(equal());
    return QBrush(missing());
}

QColor textColor(Status status, double maxAbsDelta, bool /*pending*/) {
    if (dumpscope::isDivergent(status) && divergeShade(maxAbsDelta) > 0.45) return Qt::white;
    return Qt::black;
}

} // namespace matrix_colors
