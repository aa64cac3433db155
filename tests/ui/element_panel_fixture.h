#pragma once
// Shared by the element panel's test files: a generated run pair analysed by the core, a walk
// over every logical row of the windowed table, and a shown, active panel fixture.
#include "models/element_table_model.h"
#include "panels/element_panel.h"

#include "dumpscope/analyze.h"
#include "test_support.h"

#include <QScrollBar>
#include <QTest>

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <vector>

namespace element_panel_test {

using namespace dumpscope;
using dumpscope::test::TempDir;
using dumpscope::test::writeDump;

inline QString text(const std::string& s) {
    return QString::fromStdString(s);
}

// Run A and B with one f32 buffer (step 0, h_q_logits) of n elements; B differs at every 7th
// element by a Δ whose decade cycles through 1e-6 .. 1e+1, plus a NaN (10) and a ±0 (11).
struct GeneratedPair {
    TempDir dir;
    std::vector<float> a, b;
    std::shared_ptr<const Analysis> analysis;
    int buffer = -1;

    explicit GeneratedPair(std::size_t n, std::size_t tailB = 0) {
        std::mt19937 rng(42);
        std::uniform_real_distribution<float> value(1.0f, 2.0f);
        a.resize(n);
        for (auto& x : a)
            x = value(rng);
        b = a;
        for (std::size_t i = 3; i < n; i += 7) {
            const int decade = int(i / 7 % 8) - 6;
            b[i] = a[i] + 3.0f * std::pow(10.0f, float(decade)); // 3e-6 .. 3e+1, mid-decade
        }
        if (n > 20) {
            b[10] = std::nanf("");
            a[11] = 0.0f, b[11] = -0.0f;
        }
        for (std::size_t i = 0; i < tailB; ++i)
            b.push_back(5.0f);
        writeDump(dir / "a", 0, "h_q_logits", a);
        writeDump(dir / "b", 0, "h_q_logits", b);
        auto result = std::make_shared<Analysis>(analyze(dir / "a", dir / "b"));
        for (std::size_t i = 0; i < result->buffers.size(); ++i)
            if (result->buffers[i].fileName == "step_0_h_q_logits.bin") buffer = int(i);
        analysis = result;
    }
    const BufferResult& result() const { return analysis->buffers[std::size_t(buffer)]; }
};

// Visits every logical row by moving the window, as the scroll bar does.
template <typename Fn> inline void forEachRow(ElementPanel& panel, Fn fn) {
    ElementTableModel* model = panel.model();
    QScrollBar* scroll = panel.scrollBar();
    const quint64 total = model->logicalRowCount();
    scroll->setValue(0);
    quint64 seen = 0;
    while (seen < total) {
        const quint64 first = model->firstRow();
        for (int r = 0; r < model->rowCount(); ++r)
            if (first + quint64(r) >= seen) fn(first + quint64(r), r);
        seen = first + quint64(model->rowCount());
        if (scroll->value() == scroll->maximum()) break;
        scroll->setValue(scroll->value() + scroll->pageStep());
    }
    ASSERT_EQ(seen, total);
}

class ElementPanelTest : public ::testing::Test {
  protected:
    void SetUp() override {
        panel.resize(900, 500);
        panel.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
        // Keyboard shortcuts only reach the active window.
        panel.activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowActive(&panel));
    }
    ElementPanel panel;
};

} // namespace element_panel_test
