// SortTrace <-> JSON, for saving traces, the bench's JSON output and comparing runs offline.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sortscope/status.hpp"
#include "sortscope/trace.hpp"

namespace sortscope {

void to_json(nlohmann::json& j, const ScatterSample& s);
void from_json(const nlohmann::json& j, ScatterSample& s);
void to_json(nlohmann::json& j, const KernelTiming& k);
void from_json(const nlohmann::json& j, KernelTiming& k);
void to_json(nlohmann::json& j, const LookbackRow& r);
void from_json(const nlohmann::json& j, LookbackRow& r);
void to_json(nlohmann::json& j, const RadixSection& p);
void from_json(const nlohmann::json& j, RadixSection& p);
void to_json(nlohmann::json& j, const MergeSplit& m);
void from_json(const nlohmann::json& j, MergeSplit& m);
void to_json(nlohmann::json& j, const MergeSection& m);
void from_json(const nlohmann::json& j, MergeSection& m);
void to_json(nlohmann::json& j, const NetworkSection& n);
void from_json(const nlohmann::json& j, NetworkSection& n);
void to_json(nlohmann::json& j, const BucketSection& b);
void from_json(const nlohmann::json& j, BucketSection& b);
void to_json(nlohmann::json& j, const StageTrace& s);
void from_json(const nlohmann::json& j, StageTrace& s);
void to_json(nlohmann::json& j, const SortTrace& t);
void from_json(const nlohmann::json& j, SortTrace& t);

Status save_trace(const SortTrace& t, const std::string& path);
Status load_trace(const std::string& path, SortTrace* t);

}  // namespace sortscope
