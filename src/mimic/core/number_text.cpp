#include "mimic/core/number_text.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

namespace mimic::core {

void append_number(std::string& out, double value) {
  if (value == 0.0) value = 0.0;  // -0 -> 0
  std::array<char, 32> buffer;    // the longest shortest-form double is 24 characters
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  out.append(buffer.data(), result.ptr);
}

std::string format_number(double value) {
  std::string out;
  append_number(out, value);
  return out;
}

void append_time(std::string& out, double seconds) {
  const double nanoseconds = std::round(seconds * 1e9);
  // Beyond 2^53 ns (104 days) the grid is coarser than a double's spacing; print the value as is.
  append_number(out, std::abs(nanoseconds) < 9.0e15 ? nanoseconds / 1e9 : seconds);
}

namespace {

bool is_non_finite_spelling(std::string_view body) {
  std::string lower;
  for (char c : body) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return lower == "nan" || lower.starts_with("nan(") || lower == "inf" || lower == "infinity";
}

}  // namespace

ParsedNumber parse_number(std::string_view token) {
  std::string_view body = token;
  // std::from_chars refuses a leading '+', which C++ streams (and so hrpsys) accept.
  if (body.size() > 1 && body.front() == '+' && body[1] != '-' && body[1] != '+') body.remove_prefix(1);
  const std::string_view unsigned_body = body.starts_with('-') ? body.substr(1) : body;
  if (is_non_finite_spelling(unsigned_body)) return {0.0, NumberStatus::kNonFinite};

  double value = 0.0;
  const char* first = body.data();
  const char* last = body.data() + body.size();
  const auto [ptr, ec] = std::from_chars(first, last, value, std::chars_format::general);
  if (ptr != last || body.empty()) return {0.0, NumberStatus::kNotANumber};
  if (ec == std::errc::result_out_of_range) {
    // from_chars reports underflow and overflow alike; strtod tells them apart (HUGE_VAL on overflow).
    const std::string copy(body);
    value = std::strtod(copy.c_str(), nullptr);
    if (std::isinf(value)) return {0.0, NumberStatus::kOverflow};
    return {value, NumberStatus::kOk};
  }
  if (ec != std::errc()) return {0.0, NumberStatus::kNotANumber};
  return {value, NumberStatus::kOk};
}

}  // namespace mimic::core
