#include "report/alignment_json.h"

#include "dumpscope/name_alignment.h"
#include "report/report_text.h"

namespace dumpscope::report {

nlohmann::ordered_json pairAlignment(const Analysis& an) {
    using Json = nlohmann::ordered_json;
    if (!an.alignment) return nullptr;
    const NameAlignment& al = *an.alignment;
    Json pairs = Json::array();
    for (const auto& p : al.pairs)
        pairs.push_back({{"a", validUtf8(p.nameA)},
                         {"b", validUtf8(p.nameB)},
                         {"by", pairedByName(p.by)},
                         {"places", p.places},
                         {"rule", p.rule.empty() ? Json(nullptr) : Json(validUtf8(p.rule))}});
    auto names = [](const std::vector<std::string>& list) {
        Json out = Json::array();
        for (const auto& n : list)
            out.push_back(validUtf8(n));
        return out;
    };
    return {{"mode", alignModeName(al.mode)},
            {"map", al.mapped},
            {"pairs", std::move(pairs)},
            {"unpaired_a", names(al.unpairedA)},
            {"unpaired_b", names(al.unpairedB)}};
}

} // namespace dumpscope::report
