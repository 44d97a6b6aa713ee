#include "mimic/io/sample_table.hpp"

#include <algorithm>
#include <cmath>

#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"
#include "mimic/core/text_file.hpp"

namespace mimic::io {
namespace {

// The largest magnitude of any field. A time beyond 1e6 s (11 days) is no recorded motion, a joint angle
// beyond 1e6 rad or a waist / ZMP coordinate beyond 1e6 m (1000 km) is no robot pose: such a value is a
// corrupt file, and refusing it here names the line instead of failing later without a file.
constexpr double kMaxMagnitude = 1.0e6;

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_blank(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !is_blank(line[i])) ++i;
    if (i > start) fields.push_back(line.substr(start, i - start));
  }
  return fields;
}

bool looks_like_comment(std::string_view field) {
  return field.starts_with('#') || field.starts_with('%') || field.starts_with(';') ||
         field.starts_with("//");
}

// The token as the message shows it: quoted, at most 40 bytes, control bytes escaped (one line).
std::string quoted(std::string_view token) { return "'" + core::escaped_for_message(token, 40) + "'"; }

std::string expected_fields(std::span<const SampleLayout> layouts) {
  std::string text = "expected ";
  for (std::size_t i = 0; i < layouts.size(); ++i) {
    if (i > 0) text += " or ";
    text += std::to_string(layouts[i].values + 1) + " fields (time + " + std::string(layouts[i].description) +
            ")";
  }
  return text;
}

class TableParser {
 public:
  TableParser(const std::string& file, std::span<const SampleLayout> layouts)
      : file_(file), layouts_(layouts) {}

  void parse_line(std::string_view line, int line_number) {
    line_number_ = line_number;
    const auto fields = split_fields(line);
    if (fields.empty()) return;
    if (std::any_of(fields.begin(), fields.end(), looks_like_comment)) {
      fail("comments are not allowed: hrpsys's SequencePlayer reads every token as a number");
    }
    // Tokens first, so that a header line or a comma-separated line is reported as what it is rather
    // than as a wrong field count.
    row_.clear();
    for (std::size_t i = 0; i < fields.size(); ++i) row_.push_back(parse_field(fields[i], i));
    check_field_count(row_.size());
    check_time(row_.front());
    table_.times.push_back(row_.front());
    table_.values.insert(table_.values.end(), row_.begin() + 1, row_.end());
    table_.lines.push_back(line_number);
  }

  SampleTable finish() {
    if (table_.times.empty()) {
      throw InputError(input_error_message(
          file_, "", "no samples (the file is empty); " + expected_fields(layouts_) + " per line"));
    }
    return std::move(table_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(input_error_message(file_, "line " + std::to_string(line_number_), what));
  }

  void check_field_count(std::size_t count) {
    if (table_.times.empty()) {
      for (const auto& layout : layouts_) {
        if (count == static_cast<std::size_t>(layout.values + 1)) {
          table_.columns = layout.values;
          return;
        }
      }
      fail(expected_fields(layouts_) + ", found " + std::to_string(count));
    }
    if (count != static_cast<std::size_t>(table_.columns + 1)) {
      fail("expected " + std::to_string(table_.columns + 1) + " fields, as on line " +
           std::to_string(table_.lines.front()) + ", found " + std::to_string(count));
    }
  }

  double parse_field(std::string_view token, std::size_t index) const {
    const auto parsed = core::parse_number(token);
    const std::string field = index == 0 ? "the time (field 1)" : "field " + std::to_string(index + 1);
    switch (parsed.status) {
      case core::NumberStatus::kOk:
        if (!(std::abs(parsed.value) <= kMaxMagnitude)) {
          fail("expected a number within +-" + core::format_number(kMaxMagnitude) + " as " + field +
               ", found " + quoted(token));
        }
        return parsed.value;
      case core::NumberStatus::kNonFinite:
        fail("expected a finite number as " + field + ", found " + quoted(token));
      case core::NumberStatus::kOverflow:
        fail("expected a number within the range of a double as " + field + ", found " + quoted(token));
      case core::NumberStatus::kNotANumber:
        break;
    }
    std::string hint;
    if (token.find(',') != std::string_view::npos) {
      hint = " (fields are separated by spaces or tabs, not commas)";
    } else if (index == 0 && table_.times.empty()) {
      hint = " (header lines are not allowed)";
    }
    fail("expected a number as " + field + ", found " + quoted(token) + hint);
  }

  void check_time(double time) const {
    if (table_.times.empty() || time > table_.times.back()) return;
    // hrpsys moves to each sample over (t - t_previous); zero or negative durations are not a motion.
    fail("time " + core::format_number(time) + " is not after the previous sample's time " +
         core::format_number(table_.times.back()) + " (line " + std::to_string(table_.lines.back()) +
         "); times must increase strictly");
  }

  const std::string& file_;
  std::span<const SampleLayout> layouts_;
  SampleTable table_;
  std::vector<double> row_;  // the line being parsed
  int line_number_ = 0;
};

}  // namespace

SampleTable parse_sample_table(std::string_view text, const std::string& file,
                               std::span<const SampleLayout> layouts) {
  TableParser parser(file, layouts);
  int line_number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    parser.parse_line(text.substr(start, end - start), ++line_number);
    start = end + 1;
  }
  return parser.finish();
}

}  // namespace mimic::io
