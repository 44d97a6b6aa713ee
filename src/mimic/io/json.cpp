#include "mimic/io/json.hpp"

#include <cmath>
#include <stdexcept>

#include "mimic/core/atomic_file.hpp"
#include "mimic/core/number_text.hpp"

namespace mimic::io {
namespace {

// Length of the valid UTF-8 sequence starting at text[i], or 0 if the bytes there are not one.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  std::uint32_t code = 0;
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    code = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    code = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    code = lead & 0x07;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  // Reject overlong forms, UTF-16 surrogates and code points beyond Unicode.
  constexpr std::uint32_t kMinimum[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < kMinimum[length] || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) return 0;
  return length;
}

// The two-character escape JSON defines for `c`, or nullptr.
const char* short_escape(char c) {
  switch (c) {
    case '"':
      return "\\\"";
    case '\\':
      return "\\\\";
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    case '\b':
      return "\\b";
    case '\f':
      return "\\f";
    default:
      return nullptr;
  }
}

void append_quoted(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (const char* escape = short_escape(text[i])) {
      out += escape;
      ++i;
    } else if (byte < 0x20) {
      out += "\\u00";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
      ++i;
    } else if (const std::size_t length = utf8_sequence_length(text, i); length > 0) {
      out.append(text.substr(i, length));
      i += length;
    } else {
      out += "\\ufffd";
      ++i;
    }
  }
  out += '"';
}

void newline(std::string& out, int indent, int depth) {
  out += '\n';
  out.append(static_cast<std::size_t>(indent * depth), ' ');
}

}  // namespace

Json& Json::operator[](std::string_view key) {
  if (is_null()) value_ = Object{};
  auto* object = std::get_if<Object>(&value_);
  if (!object)
    throw std::logic_error("Json: member '" + std::string(key) + "' of a value that is not an object");
  for (auto& [name, member] : *object) {
    if (name == key) return member;
  }
  object->emplace_back(std::string(key), Json());
  return object->back().second;
}

Json& Json::push_back(Json element) {
  if (is_null()) value_ = Array{};
  auto* array = std::get_if<Array>(&value_);
  if (!array) throw std::logic_error("Json: push_back on a value that is not an array");
  array->push_back(std::move(element));
  return array->back();
}

std::size_t Json::size() const {
  if (const auto* array = std::get_if<Array>(&value_)) return array->size();
  if (const auto* object = std::get_if<Object>(&value_)) return object->size();
  return 0;
}

void Json::write(std::string& out, int indent, int depth) const {
  if (std::holds_alternative<std::nullptr_t>(value_)) {
    out += "null";
  } else if (const auto* flag = std::get_if<bool>(&value_)) {
    out += *flag ? "true" : "false";
  } else if (const auto* integer = std::get_if<std::int64_t>(&value_)) {
    out += std::to_string(*integer);
  } else if (const auto* number = std::get_if<double>(&value_)) {
    if (std::isfinite(*number)) {
      core::append_number(out, *number);
    } else {
      out += "null";  // JSON has no NaN or infinity
    }
  } else if (const auto* text = std::get_if<std::string>(&value_)) {
    append_quoted(out, *text);
  } else if (const auto* array = std::get_if<Array>(&value_)) {
    out += '[';
    bool all_scalars = true;
    for (const auto& element : *array) all_scalars = all_scalars && element.is_scalar();
    const bool multiline = indent > 0 && !all_scalars;
    for (std::size_t i = 0; i < array->size(); ++i) {
      if (i > 0) out += indent > 0 && !multiline ? ", " : ",";
      if (multiline) newline(out, indent, depth + 1);
      (*array)[i].write(out, indent, depth + 1);
    }
    if (multiline) newline(out, indent, depth);
    out += ']';
  } else if (const auto* object = std::get_if<Object>(&value_)) {
    out += '{';
    for (std::size_t i = 0; i < object->size(); ++i) {
      if (i > 0) out += ',';
      if (indent > 0) newline(out, indent, depth + 1);
      append_quoted(out, (*object)[i].first);
      out += indent > 0 ? ": " : ":";
      (*object)[i].second.write(out, indent, depth + 1);
    }
    if (indent > 0 && !object->empty()) newline(out, indent, depth);
    out += '}';
  }
}

std::string Json::dump(int indent) const {
  std::string out;
  write(out, indent, 0);
  return out;
}

void Json::write(std::ostream& out, int indent) const { out << dump(indent); }

std::string json_quote(std::string_view text) {
  std::string out;
  append_quoted(out, text);
  return out;
}

void write_json_file(const std::filesystem::path& path, const Json& json, int indent) {
  const std::string text = json.dump(indent) + "\n";
  write_file_atomically(path, [&](std::ostream& out) { out.write(text.data(), std::ssize(text)); });
}

void write_report_with_outputs(const std::filesystem::path& report, const Json& json,
                               const std::function<void()>& write_outputs) {
  if (!report.empty()) write_json_file(report, json);
  try {
    write_outputs();
  } catch (...) {
    if (!report.empty()) {
      std::error_code ignored;
      std::filesystem::remove(report, ignored);
    }
    throw;
  }
}

}  // namespace mimic::io
