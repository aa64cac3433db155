#include "ui_test_util.h"

#include "test_support.h"
#include "window/main_window.h"

#include "dumpscope/schema.h"

#include <QSignalSpy>

#include <cstdint>
#include <vector>

namespace dumpscope::uitest {

namespace fs = std::filesystem;
using test::writeDump;

void writeMixedPair(const fs::path& dir) {
    const fs::path a = dir / "a", b = dir / "b";
    const std::vector<float> base{1.0f, 2.0f, 3.0f, 4.0f};
    const std::vector<std::int32_t> labels{1, 0, 1};
    for (std::uint64_t step = 0; step < 3; ++step) {
        for (const auto& run : {a, b}) {
            writeDump(run, step, "g_sampled_h_t", base);
            writeDump(run, step, "k_outcome_labels", labels);
        }
    }
    writeDump(a, 0, "h_q_logits", base);
    writeDump(b, 0, "h_q_logits", base);
    test::writeText(a / "step_0_zz_notes.bin", "abc");
    test::writeText(b / "step_0_zz_notes.bin", "abc");

    writeDump(a, 1, "h_q_logits", base);
    writeDump(b, 1, "h_q_logits", std::vector<float>{1.0f, 2.0f, 3.0f, 4.0f + 4.76837158e-7f});
    writeDump(a, 1, "i_cfc_grad_b_scratch", base);

    writeDump(a, 2, "h_q_logits", base);
    writeDump(b, 2, "h_q_logits", std::vector<float>{11.0f, 2.0f, 3.0f, 4.0f});
    writeDump(a, 2, "k_outcome_w", std::vector<float>{0.5f, 0.25f});
    test::writeText(b / "step_2_k_outcome_w.bin", "123456"); // not a multiple of 4 bytes
}

void writeLargePair(const fs::path& dir, int steps, std::size_t elements) {
    const fs::path a = dir / "a", b = dir / "b";
    std::vector<float> values(elements);
    for (std::size_t i = 0; i < elements; ++i)
        values[i] = static_cast<float>(i) * 0.5f;
    for (int step = 0; step < steps; ++step) {
        for (const auto& group : defaultSchema().groups) {
            for (const auto& buffer : group.buffers) {
                writeDump(a, static_cast<std::uint64_t>(step), buffer.file, values);
                std::vector<float> other = values;
                if (step > 0) other[elements / 2] += 1.0f;
                writeDump(b, static_cast<std::uint64_t>(step), buffer.file, other);
            }
        }
    }
}

SnapshotPtr finishedSnapshot(Analysis analysis) {
    auto s = std::make_shared<AnalysisSnapshot>();
    s->total = s->nDone = analysis.buffers.size();
    s->finished = true;
    s->analysis = std::make_shared<const Analysis>(std::move(analysis));
    return s;
}

SnapshotPtr plannedSnapshot(Analysis analysis) {
    auto s = std::make_shared<AnalysisSnapshot>();
    s->total = analysis.buffers.size();
    s->analysis = std::make_shared<const Analysis>(std::move(analysis));
    return s;
}

bool waitForFinished(MainWindow& window) {
    QSignalSpy spy(&window, &MainWindow::analysisFinished);
    // The timeout only guards against a hang; nothing is asserted about how long it took.
    return spy.count() > 0 || spy.wait(120000);
}

} // namespace dumpscope::uitest
