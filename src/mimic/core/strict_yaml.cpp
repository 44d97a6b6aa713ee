#include "mimic/core/strict_yaml.hpp"

#include <algorithm>
#include <charconv>
#include <numeric>

#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"
#include "mimic/core/text_file.hpp"

namespace mimic::core {
namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string join(std::span<const std::string_view> names) {
  std::string text;
  for (const auto name : names) {
    if (!text.empty()) text += ", ";
    text += name;
  }
  return text;
}

}  // namespace

YamlDocument::YamlDocument(std::string_view text, std::string file) : file_(std::move(file)) {
  try {
    root_ = YAML::Load(std::string(without_utf8_bom(text)));
  } catch (const YAML::ParserException& e) {
    fail(e.mark.is_null() ? 0 : e.mark.line + 1, "invalid YAML: " + e.msg);
  }
}

int YamlDocument::line_of(const YAML::Node& node) {
  const YAML::Mark mark = node.Mark();
  return mark.is_null() ? 0 : mark.line + 1;
}

void YamlDocument::fail(int line, const std::string& what) const {
  // Keys, values and paths quoted in `what` come from the file: their control bytes are escaped here, once
  // for every message, so that an error stays one line.
  throw InputError(input_error_message(file_, line > 0 ? "line " + std::to_string(line) : "",
                                       escaped_for_message(what, what.size())));
}

std::string describe_yaml_value(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map:
      return "a mapping";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Scalar:
      return "'" + escaped_for_message(node.Scalar()) + "'";
    default:
      return "nothing";
  }
}

std::string closest_name(std::string_view name, std::initializer_list<std::string_view> allowed) {
  return closest_name(name, std::span<const std::string_view>(allowed.begin(), allowed.size()));
}

std::string closest_name(std::string_view name, std::span<const std::string_view> allowed) {
  std::string best;
  std::size_t best_distance = 3;
  for (const auto candidate : allowed) {
    const bool prefix = name.size() >= 3 && (candidate.starts_with(name) || name.starts_with(candidate));
    const std::size_t distance = prefix ? 1 : edit_distance(name, candidate);
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

StrictMapping::StrictMapping(YamlDocument& document, const YAML::Node& node, std::string path, int line,
                             std::initializer_list<std::string_view> allowed)
    : StrictMapping(document, node, std::move(path), line,
                    std::span<const std::string_view>(allowed.begin(), allowed.size())) {}

StrictMapping::StrictMapping(YamlDocument& document, const YAML::Node& node, std::string path, int line,
                             std::span<const std::string_view> allowed)
    : StrictMapping(document, node, std::move(path), line, allowed, false) {}

StrictMapping StrictMapping::with_any_keys(YamlDocument& document, const YAML::Node& node, std::string path,
                                           int line) {
  return StrictMapping(document, node, std::move(path), line, {}, true);
}

StrictMapping::StrictMapping(YamlDocument& document, const YAML::Node& node, std::string path, int line,
                             std::span<const std::string_view> allowed, bool any_key)
    : document_(document), path_(std::move(path)), line_(line) {
  if (!node.IsMap()) {
    document_.fail(line_, (path_.empty() ? std::string("the file") : path_) +
                              ": expected a mapping (key: value " + "lines), found " +
                              describe_yaml_value(node));
  }
  for (const auto& item : node) {
    const int key_line = YamlDocument::line_of(item.first);
    if (!item.first.IsScalar())
      document_.fail(key_line, "expected a key name, found " + describe_yaml_value(item.first));
    const std::string key = item.first.Scalar();
    const std::string full = key_path(key);
    if (!any_key && std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      const std::string suggestion = closest_name(key, allowed);
      document_.fail(key_line, "unknown key '" + full + "' (" +
                                   (suggestion.empty() ? "" : "did you mean '" + suggestion + "'? ") +
                                   "expected one of: " + join(allowed) + ")");
    }
    if (const Entry* earlier = find(key)) {
      document_.fail(key_line,
                     "duplicate key '" + full + "' (first on line " + std::to_string(earlier->line) + ")");
    }
    entries_.push_back({key, item.second, key_line});
    document_.record(full, key_line);
  }
}

const StrictMapping::Entry* StrictMapping::find(std::string_view key) const {
  for (const auto& entry : entries_) {
    if (entry.key == key) return &entry;
  }
  return nullptr;
}

bool StrictMapping::has(std::string_view key) const { return find(key) != nullptr; }

std::vector<std::string> StrictMapping::keys() const {
  std::vector<std::string> out;
  for (const auto& entry : entries_) out.push_back(entry.key);
  return out;
}

StrictMapping StrictMapping::child(std::string_view key,
                                   std::initializer_list<std::string_view> allowed) const {
  return child(key, std::span<const std::string_view>(allowed.begin(), allowed.size()));
}

StrictMapping StrictMapping::child(std::string_view key, std::span<const std::string_view> allowed) const {
  require(key);
  return StrictMapping(document_, node(key), key_path(key), line(key), allowed);
}

StrictMapping StrictMapping::child_with_any_keys(std::string_view key) const {
  require(key);
  return with_any_keys(document_, node(key), key_path(key), line(key));
}

const YAML::Node& StrictMapping::node(std::string_view key) const { return find(key)->value; }

int StrictMapping::line(std::string_view key) const {
  const Entry* entry = find(key);
  return entry ? entry->line : line_;
}

std::string StrictMapping::key_path(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

void StrictMapping::fail(std::string_view key, const std::string& what) const {
  document_.fail(line(key), key_path(key) + ": " + what);
}

void StrictMapping::fail(std::string_view key, int line, const std::string& what) const {
  document_.fail(line > 0 ? line : this->line(key), key_path(key) + ": " + what);
}

void StrictMapping::fail_mapping(const std::string& what) const {
  document_.fail(line_, (path_.empty() ? std::string("the file") : path_) + ": " + what);
}

void StrictMapping::require(std::string_view key) const {
  if (!has(key)) document_.fail(line_, "missing required key '" + key_path(key) + "'");
}

const YAML::Node& StrictMapping::scalar(std::string_view key, std::string_view expected) const {
  const YAML::Node& value = node(key);
  if (!value.IsScalar())
    fail(key, "expected " + std::string(expected) + ", found " + describe_yaml_value(value));
  return value;
}

bool StrictMapping::read(std::string_view key, double& out) const {
  if (!has(key)) return false;
  const auto& value = scalar(key, "a number");
  const ParsedNumber parsed = parse_number(value.Scalar());
  if (parsed.status != NumberStatus::kOk) {
    fail(key, std::string(parsed.status == NumberStatus::kNonFinite ? "expected a finite number"
                                                                    : "expected a number") +
                  ", found " + describe_yaml_value(value));
  }
  out = parsed.value;
  return true;
}

bool StrictMapping::read(std::string_view key, int& out) const {
  if (!has(key)) return false;
  const auto& value = scalar(key, "an integer");
  std::string_view text = value.Scalar();
  if (text.starts_with('+')) text.remove_prefix(1);
  int parsed = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), parsed);
  if (ec != std::errc() || ptr != text.data() + text.size() || text.empty()) {
    fail(key, "expected an integer, found " + describe_yaml_value(value));
  }
  out = parsed;
  return true;
}

bool StrictMapping::read(std::string_view key, bool& out) const {
  if (!has(key)) return false;
  const auto& value = scalar(key, "true or false");
  const std::string& text = value.Scalar();
  if (text == "true" || text == "True" || text == "TRUE") {
    out = true;
  } else if (text == "false" || text == "False" || text == "FALSE") {
    out = false;
  } else {
    fail(key, "expected true or false, found " + describe_yaml_value(value));
  }
  return true;
}

bool StrictMapping::read(std::string_view key, std::string& out) const {
  if (!has(key)) return false;
  out = scalar(key, "a string").Scalar();
  return true;
}

bool StrictMapping::read(std::string_view key, std::span<double> out) const {
  if (!has(key)) return false;
  const YAML::Node& value = node(key);
  const std::string expected = "a list of " + std::to_string(out.size()) + " numbers";
  if (!value.IsSequence() || value.size() != out.size()) {
    fail(key,
         "expected " + expected + ", found " +
             (value.IsSequence() ? "a list of " + std::to_string(value.size()) : describe_yaml_value(value)));
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    const ParsedNumber parsed = value[i].IsScalar() ? parse_number(value[i].Scalar()) : ParsedNumber{};
    if (parsed.status != NumberStatus::kOk) {
      fail(key, "expected " + expected + ", found " + describe_yaml_value(value[i]) + " as item " +
                    std::to_string(i + 1));
    }
    out[i] = parsed.value;
  }
  return true;
}

bool StrictMapping::read(std::string_view key, double& out, const NumberRange& range) const {
  double value = 0.0;
  if (!read(key, value)) return false;
  if (!range.contains(value))
    fail(key, "expected " + range.describe() + ", found " + describe_yaml_value(node(key)));
  out = value;
  return true;
}

bool StrictMapping::read(std::string_view key, std::span<double> out, const NumberRange& range) const {
  std::vector<double> values(out.size());
  if (!read(key, std::span<double>(values))) return false;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!range.contains(values[i])) {
      fail(key, "expected a list of " + std::to_string(out.size()) + " numbers, each " + range.describe() +
                    ", found " + describe_yaml_value(node(key)[i]) + " as item " + std::to_string(i + 1));
    }
  }
  std::copy(values.begin(), values.end(), out.begin());
  return true;
}

bool StrictMapping::read(std::string_view key, std::vector<YamlListItem>& out) const {
  if (!has(key)) return false;
  const YAML::Node& value = node(key);
  if (!value.IsSequence())
    fail(key, "expected a list of names, e.g. [a, b], found " + describe_yaml_value(value));
  std::vector<YamlListItem> items;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const int item_line = YamlDocument::line_of(value[i]);
    if (!value[i].IsScalar()) {
      fail(key, item_line,
           "expected a list of names, found " + describe_yaml_value(value[i]) + " as item " +
               std::to_string(i + 1));
    }
    items.push_back({value[i].Scalar(), item_line > 0 ? item_line : line(key)});
  }
  out = std::move(items);
  return true;
}

bool NumberRange::contains(double x) const {
  const bool above = lower_open ? x > lower : x >= lower;
  const bool below = upper_open ? x < upper : x <= upper;
  return above && below;
}

std::string NumberRange::describe() const {
  const bool bounded_below = lower > -kInfinity;
  const bool bounded_above = upper < kInfinity;
  if (bounded_below && bounded_above) {
    return noun + " in " + (lower_open ? "(" : "[") + format_number(lower) + ", " + format_number(upper) +
           (upper_open ? ")" : "]");
  }
  if (bounded_below) return noun + (lower_open ? " > " : " >= ") + format_number(lower);
  if (bounded_above) return noun + (upper_open ? " < " : " <= ") + format_number(upper);
  return noun;
}

}  // namespace mimic::core
