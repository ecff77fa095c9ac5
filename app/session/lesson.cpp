// Lesson files read into steps (session/lesson.hpp): the format's rules, each broken one a line.
#include "session/lesson.hpp"

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace sortscope::app {
namespace {

constexpr std::array kFields = {
    CaptionField{"n", "how many keys were sorted"},
    CaptionField{"algorithm", "the algorithm's title"},
    CaptionField{"device", "the GPU or CPU that ran it"},
    CaptionField{"ms", "the median time of a sort"},
    CaptionField{"keys_per_s", "keys sorted per second"},
    CaptionField{"gbps", "the model's bytes over the time"},
    CaptionField{"pct_copy", "GB/s as a share of the measured copy bandwidth"},
    CaptionField{"bytes_per_key", "bytes the algorithm moves per key (its model)"},
    CaptionField{"stages", "how many stages the run recorded"},
    CaptionField{"stage", "the stage on the screen"},
    CaptionField{"stage_name", "what that stage did"},
    CaptionField{"skipped_passes", "radix passes skipped because every key had one digit"},
    CaptionField{"segments_per_store", "128-byte segments a warp's store touched in the stage's scatter"},
    CaptionField{"segments_direct", "the same, had every thread written its own keys"},
    CaptionField{"ideal_segments", "the segments 32 consecutive keys fill"},
    CaptionField{"largest_bucket", "the largest bucket's keys"},
    CaptionField{"largest_bucket_ratio", "the largest bucket over the mean, n/s"},
    CaptionField{"bound", "the bucket bound 2n/s"},
    CaptionField{"swaps", "the pairs the network stage swapped"},
    CaptionField{"race_speedup", "how many times faster the shown sort is than the one it races"},
    CaptionField{"sweep_best", "where the experiment's measure was best"},
    CaptionField{"sweep_best_value", "its best value"},
    CaptionField{"sweep_spread", "how far the experiment's points spread: (largest - smallest) / smallest"},
    CaptionField{"verified", "whether the run's output was checked sorted (and stable, where the sort promises it)"},
    CaptionField{"ladder_fastest", "the fastest rung of the ladder"},
    CaptionField{"devices", "the devices a sort over several ran on"},
    CaptionField{"largest_run", "the most items a device ended with (a radix partition: received to sort)"},
    CaptionField{"largest_run_ratio", "the largest run over the mean, n/G"},
    CaptionField{"run_bound", "the most items the partition lets a device have there"},
    CaptionField{"sent_bytes", "the bytes that crossed from one device to another"},
    CaptionField{"exchange_gbps", "what device 0's exchange moved over the links, per second"},
    CaptionField{"link_gbps", "one device's copy to another, measured beside the sort"},
    CaptionField{"exchange_pct", "the exchange's GB/s as a share of the link's"},
    CaptionField{"local_sort_ms", "device 0's local sort"},
    CaptionField{"splitters_ms", "device 0's step from its samples to the counts"},
    CaptionField{"exchange_ms", "device 0's exchange"},
    CaptionField{"merge_ms", "device 0's merge of the runs it received"},
    CaptionField{"msd_pass_ms", "device 0's MSD pass: its keys counted and scattered by their top digit"},
    CaptionField{"sort_digits_ms", "device 0's sort of the digits it owns, from its first wave to its last"},
    CaptionField{"handoff_ms", "device 0's handoff of the keys past its share"},
};

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

// "key: value" where key is one lower-case word; nullopt for any other line.
std::optional<std::pair<std::string, std::string>> key_value(std::string_view line) {
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  for (char c : line.substr(0, colon))
    if (!(c >= 'a' && c <= 'z')) return std::nullopt;
  return std::make_pair(std::string(line.substr(0, colon)), trim(line.substr(colon + 1)));
}

std::optional<double> number(std::string_view text) {
  const std::string s = trim(text);
  if (s.starts_with("2^")) {
    char* end = nullptr;
    const long k = std::strtol(s.c_str() + 2, &end, 10);
    if (*end || k < 0 || k > 62) return std::nullopt;
    return double(uint64_t(1) << k);
  }
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end) return std::nullopt;
  return v;
}

class Reader {
 public:
  Reader(const std::string& path, Lesson* lesson) : path_(path), lesson_(lesson) {}

  Status fail(int line, const std::string& rule) const {
    return InvalidArgument(path_ + ":" + std::to_string(line) + ": " + rule);
  }

  Status read(std::string_view text) {
    std::istringstream in{std::string(text)};
    std::string raw;
    int line = 0;
    bool titled = false;
    while (std::getline(in, raw)) {
      ++line;
      const std::string l = trim(raw);
      if (!titled) {
        if (l.empty()) continue;
        if (!l.starts_with("# ")) return fail(line, "a lesson starts with its title: '# Title'");
        lesson_->title = trim(std::string_view(l).substr(2));
        titled = true;
        continue;
      }
      if (l.starts_with("## ")) {
        SORTSCOPE_RETURN_IF_ERROR(end_step());
        step_ = LessonStep{};
        step_->line = line;
        step_->title = trim(std::string_view(l).substr(3));
        if (step_->title.empty()) return fail(line, "a step's heading needs a title: '## Title'");
        continue;
      }
      if (l.starts_with("# ")) return fail(line, "one '# Title' a lesson; steps start with '## '");
      SORTSCOPE_RETURN_IF_ERROR(step_ ? step_line(l, line) : header_line(l, line));
    }
    if (!titled) return fail(line, "the file is empty: a lesson starts with its title, '# Title'");
    SORTSCOPE_RETURN_IF_ERROR(end_step());
    if (lesson_->steps.empty()) return fail(line, "a lesson needs at least one step ('## Step title')");
    if (lesson_->steps.front().run.empty())
      return fail(lesson_->steps.front().line, "the first step needs a 'run:' line: what to sort, and how");
    while (!lesson_->about.empty() && lesson_->about.back() == '\n') lesson_->about.pop_back();
    return Status::Ok();
  }

 private:
  Status header_line(const std::string& l, int line) {
    const auto kv = key_value(l);
    if (!kv) {
      if (!lesson_->about.empty() || !l.empty()) lesson_->about += l + "\n";
      return Status::Ok();
    }
    const auto& [key, value] = *kv;
    if (key == "chapter") lesson_->chapter = value;
    else if (key == "paper") lesson_->paper = value;
    else if (key == "claim") lesson_->claim = value;
    else if (key == "recording") lesson_->recording = value;
    else if (key == "kind") {
      if (value != "claim" && value != "tour") return fail(line, "kind: is 'claim' or 'tour', not '" + value + "'");
      lesson_->kind = value;
    } else if (key == "gpu") {
      if (value != "yes" && value != "no") return fail(line, "gpu: is 'yes' or 'no', not '" + value + "'");
      lesson_->gpu = value == "yes";
    } else {
      return fail(line, "unknown header '" + key + ":' (chapter, paper, claim, kind, gpu, recording)");
    }
    return Status::Ok();
  }

  Status step_line(const std::string& l, int line) {
    LessonStep& s = *step_;
    if (l.starts_with("- [")) {
      if (!s.question) return fail(line, "a choice ('- [ ] ...') belongs under an 'ask:' line");
      if (l.size() < 6 || (l[3] != ' ' && l[3] != 'x') || l[4] != ']')
        return fail(line, "a choice is '- [ ] text', or '- [x] text' for the answer");
      if (l[3] == 'x') {
        if (s.question->answer >= 0) return fail(line, "a question has one answer ('- [x]')");
        s.question->answer = int(s.question->choices.size());
      }
      s.question->choices.push_back(trim(std::string_view(l).substr(5)));
      return Status::Ok();
    }
    const auto kv = key_value(l);
    if (!kv) {
      if (!s.caption.empty() || !l.empty()) s.caption += l.empty() ? "\n" : (s.caption.empty() || s.caption.back() == '\n' ? "" : " ") + l;
      return Status::Ok();
    }
    // Named copies, not a structured binding: the lambdas below capture them (C++20 allows capturing
    // a binding, clang 14 does not).
    const std::string& key = kv->first;
    const std::string& value = kv->second;
    auto words = [&](std::vector<std::string>* out, int* at) -> Status {
      const auto split = split_words(value);
      if (!split) return fail(line, key + ": a quote is not closed");
      if (split->empty()) return fail(line, key + ": needs the flags to apply");
      *out = *split;
      *at = line;
      return Status::Ok();
    };
    if (key == "run") return words(&s.run, &s.run_line);
    if (key == "recording") {
      if (value.empty()) return fail(line, "recording: names a recording file (under the data folder's recordings/)");
      s.recording = value;
      return Status::Ok();
    }
    if (key == "view") return words(&s.view, &s.view_line);
    if (key == "show") {
      s.show.clear();
      std::string item;
      std::istringstream list(value);
      while (std::getline(list, item, ',')) {
        item = trim(item);
        if (!item.empty()) s.show.push_back(item);
      }
      if (s.show.empty() || s.show.size() > 3) return fail(line, "show: names one to three panels, separated by commas");
      return Status::Ok();
    }
    if (key == "ask") {
      if (value.empty()) return fail(line, "ask: needs the question");
      s.question = LessonQuestion{value, {}, -1, ""};
      return Status::Ok();
    }
    if (key == "because") {
      if (!s.question) return fail(line, "because: explains an answer: it follows 'ask:' and its choices");
      s.question->because = value;
      return Status::Ok();
    }
    if (key == "sweep") {
      if (value.find('=') == std::string::npos) return fail(line, "sweep: is NAME=A..B or NAME=a,b,c (as bench --sweep)");
      if (!s.experiment) s.experiment = LessonExperiment{};
      s.experiment->sweep = value;
      return Status::Ok();
    }
    if (key == "series") {
      if (!s.experiment) return fail(line, "series: names an experiment's algorithms: put 'sweep:' first");
      std::string item;
      std::istringstream list(value);
      while (std::getline(list, item, ',')) {
        item = trim(item);
        if (!item.empty()) s.experiment->series.push_back(item);
      }
      if (s.experiment->series.empty()) return fail(line, "series: needs one algorithm or more, separated by commas");
      return Status::Ok();
    }
    if (key == "measure") {
      if (value != "keys/s" && value != "ms" && value != "GB/s") return fail(line, "measure: is keys/s, ms or GB/s");
      if (!s.experiment) return fail(line, "measure: belongs to an experiment: put 'sweep:' first");
      s.experiment->measure = value;
      return Status::Ok();
    }
    if (key == "paper") {
      if (!s.experiment) return fail(line, "paper: gives the paper's numbers for an experiment: put 'sweep:' first");
      const size_t colon = value.rfind(':');
      if (colon == std::string::npos) return fail(line, "paper: is 'where they come from: x=y, x=y, ...'");
      s.experiment->paper_label = trim(std::string_view(value).substr(0, colon));
      std::string pair;
      std::istringstream pairs(value.substr(colon + 1));
      while (std::getline(pairs, pair, ',')) {
        const size_t eq = pair.find('=');
        const auto x = eq == std::string::npos ? std::nullopt : number(std::string_view(pair).substr(0, eq));
        const auto y = eq == std::string::npos ? std::nullopt : number(std::string_view(pair).substr(eq + 1));
        if (!x || !y) return fail(line, "paper: '" + trim(pair) + "' is not x=y with two numbers");
        s.experiment->paper.emplace_back(*x, *y);
      }
      if (s.experiment->paper.empty()) return fail(line, "paper: needs at least one x=y pair");
      return Status::Ok();
    }
    // Once the caption has begun, "word: more words" is the caption's, not a misspelt key.
    if (!s.caption.empty()) {
      s.caption += (s.caption.back() == '\n' ? "" : " ") + l;
      return Status::Ok();
    }
    return fail(line, "unknown line '" + key + ":' in a step (run, view, show, ask, because, sweep, series, measure, paper, recording)");
  }

  Status end_step() {
    if (!step_) return Status::Ok();
    LessonStep& s = *step_;
    if (s.question) {
      if (s.question->choices.size() < 2) return fail(s.line, "the question of step '" + s.title + "' needs two choices or more");
      if (s.question->answer < 0) return fail(s.line, "the question of step '" + s.title + "' marks no answer ('- [x]')");
    }
    while (!s.caption.empty() && s.caption.back() == '\n') s.caption.pop_back();
    std::string unknown;
    caption_field_names(s.caption, &unknown);
    if (!unknown.empty()) return fail(s.line, "step '" + s.title + "': the caption quotes {" + unknown + "}, which no run gives");
    lesson_->steps.push_back(std::move(s));
    step_.reset();
    return Status::Ok();
  }

  std::string path_;
  Lesson* lesson_;
  std::optional<LessonStep> step_;
};

}  // namespace

std::optional<std::vector<std::string>> split_words(std::string_view line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (char c : line) {
    if (quote) {
      if (c == quote) quote = 0;
      else word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote) return std::nullopt;
  if (in_word) words.push_back(word);
  return words;
}

std::span<const CaptionField> caption_fields() { return kFields; }

std::vector<std::string> caption_field_names(std::string_view caption, std::string* unknown) {
  std::vector<std::string> names;
  for (size_t open = caption.find('{'); open != std::string_view::npos; open = caption.find('{', open + 1)) {
    const size_t close = caption.find('}', open);
    if (close == std::string_view::npos) break;
    const std::string name(caption.substr(open + 1, close - open - 1));
    bool known = false;
    for (const CaptionField& f : kFields) known |= f.name == name;
    if (!known && unknown && unknown->empty()) *unknown = name;
    if (known) names.push_back(name);
  }
  return names;
}

Status load_lesson(const std::string& path, Lesson* lesson) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return IoError(path + ": cannot read the lesson file");
  std::ostringstream text;
  text << in.rdbuf();
  *lesson = Lesson{};
  lesson->path = path;
  lesson->name = std::filesystem::path(path).stem().string();
  return Reader(path, lesson).read(text.str());
}

Status parse_lesson(std::string_view text, const std::string& path, Lesson* lesson) {
  *lesson = Lesson{};
  lesson->path = path;
  lesson->name = std::filesystem::path(path).stem().string();
  return Reader(path, lesson).read(text);
}

}  // namespace sortscope::app
