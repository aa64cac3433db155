#include "cli_watch.h"

#include "cli_multi.h"
#include "cli_terminal.h"
#include "cli_text.h"

#include "dumpscope/report.h"
#include "dumpscope/result_cache.h"
#include "dumpscope/scan.h"
#include "dumpscope/step_completion.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <map>
#include <ostream>
#include <set>
#include <thread>

#include <signal.h>

namespace dumpscope {

namespace {

using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t g_stopRequested = 0;

extern "C" void requestStop(int) {
    g_stopRequested = 1;
}

// SIGINT and SIGTERM end the watch cleanly (verdict, exit code) instead of killing the process;
// the previous handlers come back afterwards.
class StopSignals {
  public:
    StopSignals() {
        g_stopRequested = 0;
        struct sigaction sa {};
        sa.sa_handler = requestStop;
        sigemptyset(&sa.sa_mask);
        ::sigaction(SIGINT, &sa, &m_oldInt);
        ::sigaction(SIGTERM, &sa, &m_oldTerm);
    }
    ~StopSignals() {
        ::sigaction(SIGINT, &m_oldInt, nullptr);
        ::sigaction(SIGTERM, &m_oldTerm, nullptr);
    }
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;
    static bool requested() { return g_stopRequested != 0; }

  private:
    struct sigaction m_oldInt {
    }, m_oldTerm{};
};

// The analysis restricted to one step, with its own matrix row and verdict.
Analysis stepAnalysis(const Analysis& an, std::uint64_t step) {
    Analysis one;
    one.runA = an.runA;
    one.runB = an.runB;
    one.schema = an.schema;
    one.tolerance = an.tolerance;
    one.verdictTolerance = an.verdictTolerance;
    one.roundingThreshold = an.roundingThreshold;
    one.steps = {step};
    for (const auto& b : an.buffers)
        if (b.step == step) {
            one.buffers.push_back(b);
            if (b.group == kOtherGroup) one.unclassified.push_back(b.fileName);
        }
    summarize(one);
    return one;
}

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v)
        s += (s.empty() ? "" : ", ") + x;
    return s;
}

// How a step line lists a group; nullptr for a group with no file at that step.
const char* stepStatusText(const GroupCell& cell) {
    if (cell.nDivergent) return "diverging";
    if (isError(cell.status)) return "errors";
    if (cell.status == Status::within_tolerance) return "within tolerance";
    if (isOneSided(cell.status)) return "one-sided";
    if (cell.status == Status::equal) return "equal";
    return nullptr;
}

// The polling loop of runWatch() and what it remembers between polls.
class Watch {
  public:
    Watch(const WatchRequest& request, std::ostream& out, std::ostream& err)
        : m_request(request), m_out(out), m_err(err), m_cache(std::make_shared<ResultCache>()),
          m_completion(std::chrono::round<Clock::duration>(
              std::chrono::duration<double>(request.settleSeconds))) {}

    int run() {
        StopSignals signals;
        m_err << "watching " << shown(m_request.runA) << " and " << shown(m_request.runB)
              << " for completed steps (Ctrl+C to stop)" << std::endl;
        for (;;) {
            // A failed write to stdout ends the watch (runCli reports it): nothing more reaches the
            // reader.
            if (!poll() || !m_out) return 2;
            if (reachedUntilStep() || StopSignals::requested()) break;
            const auto wake = Clock::now() + std::chrono::duration<double>(m_request.pollSeconds);
            while (Clock::now() < wake && !StopSignals::requested())
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            if (StopSignals::requested()) break;
        }
        return finish();
    }

  private:
    std::string warningLabel() const {
        return paint("warning:", Paint::yellow, m_request.colorErr);
    }
    std::string errorLabel() const { return paint("error:", Paint::red, m_request.colorErr); }

    // One scan of both runs; compares and prints every step that became complete.
    bool poll() {
        const ScanOptions listing{m_request.options.layout};
        const RunScan scanA = scanRun(m_request.runA, listing),
                      scanB = scanRun(m_request.runB, listing);
        for (const auto* e : {&scanA.error, &scanB.error})
            if (!e->empty()) m_err << errorLabel() << " " << shown(*e) << "\n";
        if (!scanA.error.empty() || !scanB.error.empty()) return false;
        for (const auto* scan : {&scanA, &scanB})
            for (const auto& w : scan->warnings)
                if (m_warned.insert(w).second) m_err << warningLabel() << " " << shown(w) << "\n";

        // Which steps are complete is the core's rule, the one the window's RunWatcher follows.
        m_completion.observe(scanA, scanB, Clock::now());
        std::set<std::uint64_t> complete;
        for (auto step : m_completion.completeSteps())
            if (pending(step)) complete.insert(step);
        if (complete.empty()) return true;

        AnalyzeOptions options = m_request.options;
        options.steps = complete;
        options.cache = m_cache;
        const Analysis an = analyze(m_request.runA, m_request.runB, options);
        if (!an.errorA.empty() || !an.errorB.empty()) {
            for (const auto* e : {&an.errorA, &an.errorB})
                if (!e->empty()) m_err << errorLabel() << " " << shown(*e) << "\n";
            return false;
        }
        for (auto step : an.steps) {
            const Analysis one = stepAnalysis(an, step);
            bool settled = true;
            for (const auto& b : one.buffers)
                settled = settled && b.status != Status::changed_while_reading;
            if (!settled) {
                m_completion.restart(step, Clock::now()); // wait for it to keep still again
                continue;
            }
            m_out << watchStepLine(one, m_request.colorOut) << notDumpedHere(one) << std::endl;
            m_reported.insert(step);
        }
        return true;
    }

    // The groups a step lacks in both runs that an earlier reported step had: a hole in the
    // dumps, said on the step's own line (the final verdict's warning names every such step).
    std::string notDumpedHere(const Analysis& one) {
        std::vector<std::string> missing;
        if (!one.matrix.empty())
            for (const auto& cell : one.matrix.front().cells) {
                if (cell.group == kOtherGroup) continue;
                if (!cell.buffers.empty())
                    m_dumpedGroups.insert(cell.group);
                else if (m_dumpedGroups.count(cell.group))
                    missing.push_back(shown(cell.group));
            }
        return missing.empty() ? std::string() : "  not dumped: " + joined(missing);
    }

    // --until-step N: a step at or past N was reported, and no step up to N is still pending
    // with files in both runs.
    bool reachedUntilStep() const {
        if (!m_request.untilStep || m_reported.empty() ||
            *m_reported.rbegin() < *m_request.untilStep)
            return false;
        for (const auto& [step, files] : m_completion.latest().steps)
            if (step <= *m_request.untilStep && pending(step) && !files.a.empty() &&
                !files.b.empty())
                return false;
        return true;
    }

    // Limited by --steps.
    bool wanted(std::uint64_t step) const {
        return !m_request.options.steps || m_request.options.steps->count(step);
    }
    // Not reported yet, and one to report.
    bool pending(std::uint64_t step) const { return !m_reported.count(step) && wanted(step); }

    // The verdict over every reported step (from the cache: nothing is read again unless it
    // changed after it was reported).
    int finish() {
        std::vector<std::uint64_t> oneSided;
        for (const auto& [step, files] : m_completion.latest().steps)
            if (pending(step) && files.a.empty() != files.b.empty()) oneSided.push_back(step);
        if (!oneSided.empty()) {
            std::string list;
            for (auto s : oneSided)
                list += (list.empty() ? "" : ", ") + std::to_string(s);
            m_err << warningLabel() << " step(s) " << list << " in one run only; not reported\n";
        }
        if (m_reported.empty()) {
            m_err << errorLabel() << " no step was complete in both runs; nothing compared\n";
            return 2;
        }
        AnalyzeOptions options = m_request.options;
        options.steps = m_reported;
        options.cache = m_cache;
        Analysis an = analyze(m_request.runA, m_request.runB, options);
        writeProblems(an, m_err, warningLabel(), errorLabel());
        int code = m_request.strict ? strictExitCode(an, m_err, errorLabel()) : an.verdict.exitCode;
        an.verdict.exitCode = code;
        writeTextReport(an, true, m_out, m_request.colorOut);
        if (!m_request.report.empty()) {
            try {
                writeReport(an, m_request.report);
            } catch (const std::exception& e) {
                m_err << errorLabel() << " " << shown(e.what()) << "\n";
                code = 2;
            }
        }
        return code;
    }

    const WatchRequest& m_request;
    std::ostream &m_out, &m_err;
    std::shared_ptr<ResultCache> m_cache;
    StepCompletion m_completion;
    std::set<std::uint64_t> m_reported;
    std::set<std::string> m_dumpedGroups; // groups with a buffer at a reported step
    std::set<std::string> m_warned;
};

} // namespace

std::string watchStepLine(const Analysis& an, bool color) {
    const std::uint64_t step = an.steps.empty() ? 0 : an.steps.front();
    std::map<std::string, std::vector<std::string>> byStatus;
    if (!an.matrix.empty())
        for (const auto& cell : an.matrix.front().cells)
            if (const char* what = stepStatusText(cell))
                byStatus[what].push_back(shown(cell.group));
    const bool diverges = byStatus.count("diverging") > 0, errors = byStatus.count("errors") > 0;
    std::string line = "step " + std::to_string(step) + ": " +
                       (diverges ? paint("DIVERGE", Paint::red, color)
                        : errors ? paint("ERROR", Paint::red, color)
                                 : paint("equal", Paint::green, color));
    for (const char* what : {"diverging", "errors", "within tolerance", "one-sided", "equal"})
        if (auto it = byStatus.find(what); it != byStatus.end())
            line += std::string("  ") + what + ": " + joined(it->second);
    if (!diverges) return line;

    const auto& cause = an.verdict.rootCause;
    // An input that could not be judged (a group, or a buffer a divergent one declares) feeds
    // the divergent ones: naming the first divergent buffer here would read as a root cause the
    // verdict refuses to give.
    if (cause.groups.empty() && !cause.undecidedGroups.empty()) {
        std::vector<std::string> unjudged;
        for (const auto& g : cause.unjudgedInputs)
            unjudged.push_back("group " + shown(g));
        for (const auto& b : cause.undecidedBuffers)
            for (const auto& input : b.unjudgedInputs)
                if (const std::string name = "buffer " + shown(input.name);
                    std::find(unjudged.begin(), unjudged.end(), name) == unjudged.end())
                    unjudged.push_back(name);
        return line + "  root cause not determined: " + joined(unjudged) + " could not be judged";
    }
    // The root cause names the first divergent buffers by dataflow; without one (only
    // unclassified files diverge), the first divergent buffer in schema order.
    std::vector<std::string> names;
    for (const auto& b : an.buffers)
        for (const auto& name : cause.buffers)
            if (b.name == name && countsAsDivergent(an, b.status))
                names.push_back(shown(b.group) + "/" + shown(b.name));
    std::string kind = cause.kinds.empty() ? "" : std::string(kindName(cause.kinds.front()));
    if (names.empty())
        for (const auto& b : an.buffers)
            if (countsAsDivergent(an, b.status)) {
                names.push_back(shown(b.group) + "/" + shown(b.name));
                kind = kindName(b.kind);
                break;
            }
    constexpr std::size_t kNamed = 3; // one line per step: the rest are in the verdict
    const std::size_t more = names.size() > kNamed ? names.size() - kNamed : 0;
    names.resize(names.size() - more);
    line += "  first divergent: " + joined(names) +
            (more ? " (+" + std::to_string(more) + " more)" : "");
    if (!kind.empty()) line += " (" + kind + ")";
    return line;
}

int runWatch(const WatchRequest& request, std::ostream& out, std::ostream& err) {
    return Watch(request, out, err).run();
}

} // namespace dumpscope
