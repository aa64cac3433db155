#include "state/analysis_settings.h"

#include "dumpscope/noise_floor.h"

#include <QCoreApplication>
#include <QStringList>

QString toleranceSummary(const dumpscope::Analysis& analysis) {
    const auto tr = [](const char* text) {
        return QCoreApplication::translate("AnalysisSettings", text);
    };
    const dumpscope::Tolerance& t = analysis.tolerance;
    QString text;
    if (!t.any()) {
        text = tr("bitwise");
    } else {
        QStringList parts;
        if (t.atol) parts << QStringLiteral("atol %1").arg(*t.atol, 0, 'g', 6);
        if (t.rtol) parts << QStringLiteral("rtol %1").arg(*t.rtol, 0, 'g', 6);
        if (t.ulp) parts << QStringLiteral("ulp %1").arg(*t.ulp);
        text = tr("tolerance %1 (verdict %2)")
                   .arg(parts.join(QStringLiteral(", ")),
                        analysis.verdictTolerance ? tr("within tolerance") : tr("bitwise"));
    }
    if (analysis.roundingThreshold != dumpscope::kDefaultRoundingThreshold)
        text += tr(", rounding threshold %1").arg(analysis.roundingThreshold, 0, 'g', 6);
    if (analysis.noiseFloor) {
        std::size_t within = 0;
        for (const auto& b : analysis.buffers)
            within += !b.pending && b.status == dumpscope::Status::within_floor;
        text += tr(", over the noise floor of %1 rerun(s): %2 buffer(s) within it")
                    .arg(analysis.noiseFloor->reruns.size())
                    .arg(within);
    }
    return text;
}
