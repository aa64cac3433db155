// The window's verdict panel on the toy trainer's dumps opened with their schema: every source
// with its kind, the note that a group may be a second source with the declaration to add, and
// the note that half-precision inputs hide noise.
#include "panels/verdict_panel.h"
#include "test_support.h"
#include "ui_test_util.h"
#include "window/main_window.h"
#include "window/triage_view.h"

#include "dataflow_fixture.h"

#include <QLabel>

#include <gtest/gtest.h>

using namespace dumpscope;
using dumpscope::test::Change;
using dumpscope::test::TempDir;
using dumpscope::test::ToyChange;

namespace {

QString q(const std::filesystem::path& p) {
    return QString::fromStdString(p.string());
}

// The root-cause label's text of the toy pair in `runs`, opened with its schema.
QString rootCauseText(const TempDir& runs) {
    TempDir settingsDir;
    MainWindow window{{std::make_shared<const Schema>(loadSchemaFile(runs / "schema.json")),
                       q(settingsDir / "settings.ini")}};
    window.show();
    window.openPair({q(runs / "a"), q(runs / "b")});
    EXPECT_TRUE(uitest::waitForFinished(window));
    auto* label =
        window.triageView()->verdictPanel()->findChild<QLabel*>(QStringLiteral("rootCause"));
    return label ? label->text() : QString();
}

const std::map<std::string, ToyChange> kTwoSources{{"sampled_log_pi_old", {2, Change::stale}},
                                                   {"cfc_grad_w_in_scratch", {2, Change::noise}}};

} // namespace

TEST(WindowBufferDataflow, BothSourcesAreLinkedWithTheirKinds) {
    TempDir runs;
    test::writeToyPair(runs, kTwoSources, {{"cfc_grad_w_in_scratch", {"sampled_h_t", "J"}}});
    const QString text = rootCauseText(runs);
    EXPECT_TRUE(text.contains(QStringLiteral(">sampled_log_pi_old</a> (numeric)")))
        << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral(">cfc_grad_w_in_scratch</a> (rounding)")))
        << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("group <a href"))) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("note:"))) << text.toStdString();
}

TEST(WindowBufferDataflow, GroupEdgesAloneShowTheDeclarationThatDecides) {
    TempDir runs;
    test::writeToyPair(runs, kTwoSources);
    const QString text = rootCauseText(runs);
    EXPECT_TRUE(text.contains(QStringLiteral(">sampled_log_pi_old</a>"))) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral(">cfc_grad_w_in_scratch</a>"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("<b>note:</b> group I (toy) diverges")))
        << text.toStdString();
    EXPECT_TRUE(text.contains(
        QStringLiteral("&quot;inputs&quot;: [&quot;sampled_h_t&quot;, &quot;sampled_h_tp1&quot;, "
                       "&quot;sampled_rewards&quot;, &quot;J&quot;]")))
        << text.toStdString();
}

TEST(WindowBufferDataflow, HalfPrecisionInputsAreNoted) {
    TempDir runs;
    test::writeToyPair(runs, {{"q_logits", {1, Change::stale}}}, {}, {{"sampled_h_t", DType::f16}});
    const QString text = rootCauseText(runs);
    EXPECT_TRUE(text.contains(QStringLiteral("computed from sampled_h_t (f16), equal only at half "
                                             "precision: differences below about 2^-11")))
        << text.toStdString();
}
