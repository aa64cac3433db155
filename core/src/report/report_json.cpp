// The --json document. Keys come in a fixed, readable order (ordered_json).
// Two rules keep it valid for every input: non-finite numbers are the strings "nan", "inf",
// "-inf", and every string from outside (paths, names, messages) goes through validUtf8, which
// shows bytes that are not UTF-8 as the text "\xNN".

#include "dumpscope/buffer_source.h"
#include "dumpscope/fingerprint.h"
#include "dumpscope/growth.h"
#include "dumpscope/report.h"
#include "dumpscope/shape.h"
#include "dumpscope/shards.h"
#include "dumpscope/tolerance_to_pass.h"
#include "dumpscope/verdict.h"
#include "dumpscope/version.h"

#include "report/alignment_json.h"
#include "report/floor_json.h"
#include "report/report_text.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <optional>

namespace dumpscope {

namespace {

using Json = nlohmann::ordered_json;
using report::validUtf8;

Json number(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    return v;
}

Json optionalIndex(const std::optional<std::uint64_t>& v) {
    return v ? Json(*v) : Json(nullptr);
}

template <typename Strings> Json strings(const Strings& list) {
    Json out = Json::array();
    for (const auto& s : list)
        out.push_back(validUtf8(s));
    return out;
}

Json nullIfEmpty(const std::string& s) {
    return s.empty() ? Json(nullptr) : Json(validUtf8(s));
}

// An element as a JSON number: integers exactly (i64/u64 do not fit a double), floats as their
// value, non-finite ones as strings.
Json elementValue(DType t, std::uint64_t bits) {
    if (isFloat(t)) return number(bitsToDouble(t, bits));
    if (!isSignedInt(t)) return bits;
    const unsigned shift = static_cast<unsigned>(64 - 8 * dtypeSize(t));
    return static_cast<std::int64_t>(bits << shift) >> shift;
}

// `at` is the index as a tuple for a buffer of two or more dimensions ("(3, 17)"), absent
// otherwise.
Json diffs(const BufferResult& b, const std::vector<ElementDiff>& list) {
    const DType t = b.dtype;
    Json out = Json::array();
    for (const auto& d : list) {
        out.push_back({{"index", d.index},
                       {"a", elementValue(t, d.bitsA)},
                       {"b", elementValue(t, d.bitsB)},
                       {"a_bits", formatBits(t, d.bitsA)},
                       {"b_bits", formatBits(t, d.bitsB)},
                       {"abs_delta", number(d.absDelta)}});
        if (b.shape.size() >= 2) out.back()["at"] = formatIndex(d.index, b.shape);
    }
    return out;
}

Json histograms(const BufferStats& s) {
    Json decades = Json::array();
    for (int d = DeltaHistogram::kMinDecade; d <= DeltaHistogram::kMaxDecade; ++d)
        if (const auto count = s.deltaHistogram.at(d))
            decades.push_back({{"decade", d}, {"count", count}});
    Json ulp = Json::array();
    for (unsigned k = 0; k < 64; ++k)
        if (const auto count = s.ulpHistogram.counts[k])
            ulp.push_back({{"bin", k}, {"from", std::uint64_t{1} << k}, {"count", count}});
    return {{"log10_abs_delta",
             {{"bins", decades},
              {"zero", s.deltaHistogram.zero},
              {"nan", s.deltaHistogram.nan},
              {"infinite", s.deltaHistogram.infinite}}},
            {"ulp", {{"bins", ulp}, {"undefined", s.ulpHistogram.undefined}}}};
}

// The smallest --atol, --rtol and --ulp that would each alone make the buffer within_tolerance
// (null: none would); the object is null where no tolerance could change the status.
Json toPass(const BufferResult& b) {
    const auto t = toleranceToPass(b);
    if (!t) return nullptr;
    return {{"atol", t->atol ? Json(*t->atol) : Json(nullptr)},
            {"rtol", t->rtol ? Json(*t->rtol) : Json(nullptr)},
            {"ulp", t->ulp ? Json(*t->ulp) : Json(nullptr)}};
}

// The kind describes a comparison; a buffer never compared as a pair has none.
bool compared(const BufferResult& b) {
    return !b.pending && !isOneSided(b.status) && !isError(b.status);
}

Json loggedFingerprint(const std::shared_ptr<const LoggedFingerprint>& side) {
    return side ? Json(fingerprintHex(side->fingerprint)) : Json(nullptr);
}

// A pair the runs hold at different float precisions, judged by the narrow type's rounding.
Json precision(const CrossPrecision& p) {
    return {{"narrow", dtypeName(p.narrow)},
            {"wide", dtypeName(p.wide)},
            {"narrow_run", p.narrowInA ? "a" : "b"},
            {"within_rounding", p.withinRounding()},
            {"text", precisionText(p)},
            {"max_ulps", p.maxUlpsIndex ? Json(p.maxUlps) : Json(nullptr)},
            {"max_ulps_index", optionalIndex(p.maxUlpsIndex)},
            {"n_beyond", p.nBeyond},
            {"first_beyond", optionalIndex(p.firstBeyond)},
            {"first_beyond_narrow",
             p.firstBeyond ? elementValue(p.narrow, p.firstBeyondNarrowBits) : Json(nullptr)},
            {"first_beyond_wide",
             p.firstBeyond ? elementValue(p.wide, p.firstBeyondWideBits) : Json(nullptr)},
            {"non_finite_mismatches", p.nonFiniteMismatches}};
}

// A buffer a run holds as shards: each side's ranks, and where the first difference lies.
Json shards(const ShardedPair& s, const std::optional<std::uint64_t>& firstDiff) {
    const auto ranks = [](const std::vector<ShardPiece>& side) {
        Json out = Json::array();
        for (const auto& piece : side)
            out.push_back(piece.rank);
        return out;
    };
    return {{"rule", validUtf8(s.rule)},
            {"axis", s.axis},
            {"ranks_a", ranks(s.a)},
            {"ranks_b", ranks(s.b)},
            {"first_diff_rank_a", optionalIndex(s.firstDiffRankA)},
            {"first_diff_rank_b", optionalIndex(s.firstDiffRankB)},
            {"text", validUtf8(shardText(s, firstDiff))}};
}

Json crossRank(const BufferResult& b) {
    if (!b.crossRank()) return nullptr;
    Json out = Json::array();
    for (const CrossRankDivergence& d : *b.crossRank())
        out.push_back({{"run", d.inA ? "A" : "B"},
                       {"rank", d.rank},
                       {"reference_rank", d.reference},
                       {"agreeing_ranks", d.agreeing},
                       {"ranks", d.ranks},
                       {"first_index", optionalIndex(d.firstIndex)},
                       {"n_diff", d.nDiffer},
                       {"count", d.count},
                       {"reference_count", d.referenceCount},
                       {"pair_status", statusName(b.reading->pairStatus)},
                       {"text", validUtf8(crossRankText(d))}});
    return out;
}

Json buffer(const Analysis& analysis, const BufferResult& b, const NoiseFloor* floor) {
    const auto& s = b.stats;
    // Compared by fingerprint: no element was read, so no count of differing ones, and no hash.
    // A pair across precisions was read element by element, though no view reads it as one type.
    const bool elements = hasElementData(b) || b.precision() || b.shards() || b.crossRank();
    // A buffer read over a noise floor carries its magnitudes against the floor's, so a
    // within_floor buffer hides nothing.
    Json againstFloor = nullptr;
    if (floor && compared(b) && differsBitwise(b.status))
        againstFloor = report::floorMagnitudes(judgeAgainstFloor(*floor, b));
    return {{"name", validUtf8(b.name)},
            {"file", validUtf8(b.fileName)},
            {"rank", optionalIndex(b.rank)},
            {"dtype", dtypeName(b.dtype)},
            // A buffer a cancelled analysis never compared must not read as "equal".
            {"status", b.pending ? std::string_view("pending") : statusName(b.status)},
            {"kind", compared(b) ? Json(kindName(b.kind)) : Json(nullptr)},
            {"n_a", s.nA},
            {"n_b", s.nB},
            {"n_diff", elements ? Json(s.nDiff) : Json(nullptr)},
            {"first_diff", optionalIndex(s.firstDiff)},
            {"last_diff", optionalIndex(s.lastDiff)},
            {"max_abs_delta", number(s.maxAbsDelta)},
            {"max_abs_delta_index", optionalIndex(s.maxAbsDeltaIndex)},
            {"max_rel_delta", number(s.maxRelDelta)},
            {"max_ulp", s.maxUlp},
            {"tolerance_to_pass", toPass(b)},
            {"nan_a", s.nanA},
            {"nan_b", s.nanB},
            {"inf_a", s.infA},
            {"inf_b", s.infB},
            {"signed_zero_diffs", s.signedZeroDiffs},
            // Only a compared pair hashes its sides; a side never read has no hash, not zero.
            {"hash_a", compared(b) && elements ? Json(report::hex16(s.hashA)) : Json(nullptr)},
            {"hash_b", compared(b) && elements ? Json(report::hex16(s.hashB)) : Json(nullptr)},
            {"fingerprint_a", loggedFingerprint(b.loggedA)},
            {"fingerprint_b", loggedFingerprint(b.loggedB)},
            {"full_tensors_call", elements ? Json(nullptr) : Json(fullTensorsCall(analysis, b))},
            {"error", nullIfEmpty(b.error)},
            {"shape", b.shape.empty() ? Json(nullptr) : Json(b.shape)},
            {"shape_error", nullIfEmpty(b.shapeError)},
            {"placement", nullIfEmpty(placementSummary(s, b.shape))},
            {"first_diffs", diffs(b, s.firstDiffs)},
            {"largest_diffs", diffs(b, s.largestDiffs)},
            {"histograms", histograms(s)},
            {"against_floor", againstFloor},
            {"precision", b.precision() && compared(b) ? precision(*b.precision()) : Json(nullptr)},
            {"shards", b.shards() ? shards(*b.shards(), b.stats.firstDiff) : Json(nullptr)},
            {"cross_rank", crossRank(b)}};
}

Json stepJson(const Analysis& analysis, const StepResult& step) {
    Json groups = Json::array();
    for (const auto& cell : step.cells) {
        Json buffers = Json::array();
        for (std::size_t i : cell.buffers)
            if (i < analysis.buffers.size())
                buffers.push_back(buffer(analysis, analysis.buffers[i], analysis.noiseFloor.get()));
        groups.push_back({{"id", validUtf8(cell.group)},
                          {"status", statusName(cell.status)},
                          {"n_divergent", cell.nDivergent},
                          {"n_pending", cell.nPending},
                          {"max_abs_delta", number(cell.maxAbsDelta)},
                          {"buffers", std::move(buffers)}});
    }
    return {{"step", step.step}, {"groups", std::move(groups)}};
}

// Containers are pretty-printed down to this depth (the buffer objects and their lists); what
// lies deeper, one element pair or one histogram, goes on a single line, as does any object
// holding only scalars. The file stays
// readable and is about a third of dump(2)'s size.
constexpr int kPrettyDepth = 7;

void newline(std::string& out, int depth) {
    out += '\n';
    out.append(static_cast<std::size_t>(2 * depth), ' ');
}

// An object of scalars only (one element pair, one growth point) reads best on one line.
bool flatObject(const Json& j) {
    if (!j.is_object()) return false;
    for (const auto& v : j)
        if (v.is_structured()) return false;
    return true;
}

void write(std::string& out, const Json& j, int depth) {
    if (!j.is_structured() || j.empty() || depth > kPrettyDepth || flatObject(j)) {
        out += j.dump();
        return;
    }
    const bool object = j.is_object();
    out += object ? '{' : '[';
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it != j.begin()) out += ',';
        newline(out, depth + 1);
        if (object) out += Json(it.key()).dump() + ": ";
        write(out, *it, depth + 1);
    }
    newline(out, depth);
    out += object ? '}' : ']';
}

// The steps are serialised one at a time, so memory holds one step's JSON tree, never the
// whole document's (tens of thousands of buffers would otherwise need gigabytes).
void writeSteps(std::string& out, const Analysis& analysis) {
    if (analysis.matrix.empty()) {
        out += "[]";
        return;
    }
    out += '[';
    for (std::size_t i = 0; i < analysis.matrix.size(); ++i) {
        if (i) out += ',';
        newline(out, 2);
        write(out, stepJson(analysis, analysis.matrix[i]), 2);
    }
    newline(out, 1);
    out += ']';
}

// "not_judged": nothing divergent, but a buffer without a pair result, so not known equal.
std::string_view culpritState(const CulpritRow& row) {
    if (notJudged(row)) return "not_judged";
    if (!row.divergentBuffers.empty()) return "diverge";
    return row.present ? "equal" : "no_dump";
}

Json culprits(const Verdict& v) {
    Json out = Json::array();
    for (const auto& row : v.culprits) {
        Json unjudged = Json::array();
        for (const auto& b : row.unjudged)
            unjudged.push_back(
                {{"buffer", validUtf8(b.name)},
                 {"status", b.pending ? std::string_view("pending") : statusName(b.status)},
                 {"reason", unjudgedReason(b)}});
        out.push_back({{"group", validUtf8(row.group)},
                       {"label", validUtf8(row.label)},
                       {"present", row.present},
                       {"state", culpritState(row)},
                       {"divergent_buffers", strings(row.divergentBuffers)},
                       {"not_judged", std::move(unjudged)}});
    }
    return out;
}

Json kinds(const std::vector<Kind>& list) {
    Json out = Json::array();
    for (Kind k : list)
        out.push_back(kindName(k));
    return out;
}

Json tolerance(const Analysis& a) {
    const auto opt = [](const auto& v) { return v ? Json(*v) : Json(nullptr); };
    return {{"atol", opt(a.tolerance.atol)},
            {"rtol", opt(a.tolerance.rtol)},
            {"ulp", opt(a.tolerance.ulp)},
            {"verdict_tolerance", a.verdictTolerance}};
}

// Only buffers that differ at some step: the rest would be rows of zeros.
Json growth(const Analysis& a) {
    Json out = Json::array();
    for (const auto& series : growthSeries(a)) {
        if (!series.anyDifference()) continue;
        Json points = Json::array();
        for (const auto& p : series.points)
            points.push_back({{"step", p.step},
                              {"status", statusName(p.status)},
                              {"n_diff", p.nDiff},
                              {"max_abs_delta", number(p.maxAbsDelta)}});
        out.push_back({{"group", validUtf8(series.group)},
                       {"name", validUtf8(series.name)},
                       {"points", std::move(points)}});
    }
    return out;
}

// The root cause by buffer-level dataflow: every source, with its equal half-precision inputs;
// the buffers undecided by their declared inputs; the groups that may be second sources.
void addRootSources(Json& root, const Analysis& analysis) {
    const RootCause& rc = analysis.verdict.rootCause;
    Json sources = Json::array();
    for (const auto& s : rc.sources) {
        Json half = Json::array();
        for (const auto& h : s.halfPrecisionInputs)
            half.push_back({{"buffer", validUtf8(h.buffer)},
                            {"dtype", dtypeName(h.dtype)},
                            {"relative_precision", relativePrecision(h.dtype)}});
        sources.push_back({{"group", validUtf8(s.group)},
                           {"buffer", validUtf8(s.buffer)},
                           {"dtype", dtypeName(s.dtype)},
                           {"kind", kindName(s.kind)},
                           {"declared_inputs", s.declaredInputs},
                           {"half_precision_inputs", half},
                           {"rank", optionalIndex(s.rank)}});
    }
    Json undecided = Json::array();
    for (const auto& u : rc.undecidedBuffers) {
        Json inputs = Json::array();
        for (const auto& i : u.unjudgedInputs)
            inputs.push_back({{"buffer", validUtf8(i.name)}, {"reason", unjudgedReason(i)}});
        undecided.push_back({{"group", validUtf8(u.group)},
                             {"buffer", validUtf8(u.buffer)},
                             {"unjudged_inputs", inputs}});
    }
    Json unclear = Json::array();
    for (const auto& u : rc.unclearSources)
        unclear.push_back({{"group", validUtf8(u.group)},
                           {"buffers", strings(u.buffers)},
                           {"divergent_inputs", strings(u.divergentInputs)},
                           {"inputs_declaration", {{"inputs", strings(u.declaration)}}}});
    root["sources"] = sources;
    root["undecided_buffers"] = undecided;
    root["unclear_sources"] = unclear;
    root["notes"] = strings(rootCauseNotes(analysis));
    root["downstream"] = strings(rc.downstream);
    root["order"] = rc.order ? Json(orderSourceName(*rc.order)) : Json(nullptr);
}

} // namespace

std::string reportJson(const Analysis& analysis) {
    const Verdict& v = analysis.verdict;
    Json doc = {
        {"tool", "dumpscope"},
        {"format_version", kJsonFormatVersion},
        {"version", version()},
        {"run_a", validUtf8(report::pathBytes(analysis.runA))},
        {"run_b", validUtf8(report::pathBytes(analysis.runB))},
        // A run in its own terms is read without a schema: its groups are its names'.
        {"schema", analysis.schema && analysis.terms == VerdictTerms::schema
                       ? Json(validUtf8(analysis.schema->name))
                       : Json(nullptr)},
        {"terms", termsName(analysis.terms)},
        {"group_depth", analysis.groupDepth ? Json(analysis.groupDepth) : Json(nullptr)},
        {"exit_code", v.exitCode},
        {"cancelled", analysis.cancelled},
        {"first_divergent_step", optionalIndex(v.firstDivergentStep)},
        {"first_divergent_rank", optionalIndex(v.firstDivergentRank)},
        {"diverged_groups", strings(v.divergedGroups)},
        {"decision", {{"case", decisionCaseName(v.decisionCase)}, {"text", validUtf8(v.text)}}},
        {"root_cause",
         {{"step", optionalIndex(v.rootCause.step)},
          {"groups", strings(v.rootCause.groups)},
          {"buffers", strings(v.rootCause.buffers)},
          {"kinds", kinds(v.rootCause.kinds)},
          {"suggestion", nullIfEmpty(v.rootCause.suggestion)},
          {"undecided_groups", strings(v.rootCause.undecidedGroups)},
          {"unjudged_inputs", strings(v.rootCause.unjudgedInputs)},
          {"rank", optionalIndex(v.firstDivergentRank)},
          {"ranks", v.rootCause.ranks},
          {"earliest", nullIfEmpty(v.rootCause.earliest)},
          {"earliest_rank", optionalIndex(v.rootCause.earliestRank)}}},
        {"one_sided_buffers", v.nOneSided},
        {"precision", nullIfEmpty(precisionVerdict(analysis))},
        {"cross_rank", nullIfEmpty(crossRankVerdict(analysis))},
        {"tolerance", tolerance(analysis)},
        {"culprits", culprits(v)},
        {"steps", nullptr}, // streamed by writeSteps
        {"growth", growth(analysis)},
        {"unclassified", strings(analysis.unclassified)},
        {"warnings", strings(analysis.warnings)},
        {"run_errors", {{"a", nullIfEmpty(analysis.errorA)}, {"b", nullIfEmpty(analysis.errorB)}}},
        {"noise_floor", report::pairNoiseFloor(analysis)},
        {"alignment", report::pairAlignment(analysis)},
    };
    addRootSources(doc["root_cause"], analysis);
    // Every string is valid UTF-8 by now; dump()'s strict mode would throw if one were not,
    // which is what we want to hear about in tests rather than silently emit U+FFFD.
    std::string out = "{";
    for (auto it = doc.begin(); it != doc.end(); ++it) {
        if (it != doc.begin()) out += ',';
        newline(out, 1);
        out += Json(it.key()).dump() + ": ";
        if (it.key() == "steps")
            writeSteps(out, analysis);
        else
            write(out, *it, 1);
    }
    out += "\n}";
    return out; // no trailing newline: callers (stdout, files) add their own
}

} // namespace dumpscope
