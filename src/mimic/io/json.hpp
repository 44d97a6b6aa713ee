// A small JSON value for reports (`--report OUT.json`): build it like a tree, write it out. Objects keep
// their keys in insertion order so that a report reads top-down in the order it was filled. Numbers
// that are NaN or infinite (a metric that could not be computed) are written as null.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <ostream>
#include <ranges>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace mimic::io {

class Json {
 public:
  using Array = std::vector<Json>;
  using Object = std::vector<std::pair<std::string, Json>>;

  Json() = default;  // null
  Json(std::nullptr_t) {}
  Json(bool value) : value_(value) {}
  template <std::integral T>
  requires(!std::same_as<T, bool>) Json(T value) {
    // Unsigned values beyond int64 keep their magnitude as a double rather than wrapping.
    if constexpr (std::unsigned_integral<T> && sizeof(T) >= sizeof(std::int64_t)) {
      if (value > static_cast<T>(INT64_MAX)) {
        value_ = static_cast<double>(value);
        return;
      }
    }
    value_ = static_cast<std::int64_t>(value);
  }
  template <std::floating_point T>
  Json(T value) : value_(static_cast<double>(value)) {}
  Json(const char* value) : value_(std::string(value)) {}
  Json(std::string value) : value_(std::move(value)) {}
  Json(std::string_view value) : value_(std::string(value)) {}

  static Json array() { return Json(Array{}); }
  static Json object() { return Json(Object{}); }
  // An array of the range's elements, e.g. a std::vector<double> or an Eigen vector.
  template <std::ranges::input_range R>
  static Json array_of(const R& range) {
    Json json = array();
    for (const auto& element : range) json.push_back(Json(element));
    return json;
  }

  bool is_null() const { return std::holds_alternative<std::nullptr_t>(value_); }
  bool is_object() const { return std::holds_alternative<Object>(value_); }
  bool is_array() const { return std::holds_alternative<Array>(value_); }

  // Object member, appended (as null) when missing; a null value becomes an empty object first.
  // Throws std::logic_error on any other kind of value.
  Json& operator[](std::string_view key);
  // Appends to an array; a null value becomes an empty array first. Throws std::logic_error otherwise.
  Json& push_back(Json element);
  // Members of an object or elements of an array (0 for scalars).
  std::size_t size() const;

  // indent > 0: one member per line, arrays of scalars kept on one line; indent <= 0: one line.
  void write(std::ostream& out, int indent = 2) const;
  std::string dump(int indent = 2) const;

 private:
  explicit Json(Array array) : value_(std::move(array)) {}
  explicit Json(Object object) : value_(std::move(object)) {}
  void write(std::string& out, int indent, int depth) const;
  bool is_scalar() const { return !is_object() && !is_array(); }

  std::variant<std::nullptr_t, bool, std::int64_t, double, std::string, Array, Object> value_;
};

// `text` as a JSON string literal with quotes: ", \ and control characters escaped, valid UTF-8 kept as
// is and every byte of invalid UTF-8 replaced by U+FFFD (file names are not always UTF-8).
std::string json_quote(std::string_view text);

// Writes `json` (with a final newline) to `path` atomically.
void write_json_file(const std::filesystem::path& path, const Json& json, int indent = 2);

// A report and the outputs it describes, all or none: writes `json` to `report` (when not empty) first, so
// that an unwritable report path fails before any output exists, then calls `write_outputs`; when that
// throws, the report is removed again and the exception passed on.
void write_report_with_outputs(const std::filesystem::path& report, const Json& json,
                               const std::function<void()>& write_outputs);

}  // namespace mimic::io
