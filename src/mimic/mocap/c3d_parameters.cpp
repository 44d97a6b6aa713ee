// C3D numbers (byte order, DEC VAX floats) and the parameter section.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstring>

#include "mimic/core/error.hpp"
#include "mimic/core/text_file.hpp"
#include "mimic/mocap/c3d_format.hpp"

namespace mimic::mocap::detail {

namespace {

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// DEC VAX F_floating, as stored by PDP-11/VAX writers: two 16-bit little-endian words; the first holds
// the sign (bit 15), an 8-bit exponent with bias 128 (bits 14..7) and the top 7 fraction bits, the second
// the low 16 fraction bits. The value is 0.1fff... x 2^(e - 128) = 1.fff... x 2^(e - 129); e = 0 is zero.
double vax_f_to_double(std::uint16_t word0, std::uint16_t word1) {
  const int exponent = (word0 >> 7) & 0xFF;
  if (exponent == 0) return 0.0;  // zero (sign bit set would be a VAX "reserved operand"; read as 0)
  const std::uint32_t fraction = (static_cast<std::uint32_t>(word0 & 0x7F) << 16) | word1;
  const double mantissa = 1.0 + fraction / 8388608.0;  // 2^23
  const double value = std::ldexp(mantissa, exponent - 129);
  return (word0 & 0x8000) ? -value : value;
}

}  // namespace

std::string_view to_string(C3dProcessor processor) {
  switch (processor) {
    case C3dProcessor::kIntel:
      return "Intel";
    case C3dProcessor::kDec:
      return "DEC";
    case C3dProcessor::kMips:
      return "MIPS";
  }
  return "?";
}

// ----- C3dBytes -----

void C3dBytes::fail(std::size_t at, const std::string& what) const {
  throw InputError(input_error_message(name_, "byte " + std::to_string(at), what));
}

void C3dBytes::require(std::size_t at, std::size_t length, std::string_view what) const {
  if (at > bytes_.size() || length > bytes_.size() - at)
    fail(at, "unexpected end of file reading " + std::string(what) + " (" + std::to_string(length) +
                 " bytes needed, the file has " + std::to_string(bytes_.size()) + ")");
}

std::uint8_t C3dBytes::u8(std::size_t at) const {
  require(at, 1, "a byte");
  return static_cast<std::uint8_t>(bytes_[at]);
}

std::uint16_t C3dBytes::u16_unchecked(std::size_t at) const {
  const auto b0 = static_cast<std::uint16_t>(bytes_[at]), b1 = static_cast<std::uint16_t>(bytes_[at + 1]);
  return processor_ == C3dProcessor::kMips ? static_cast<std::uint16_t>((b0 << 8) | b1)
                                           : static_cast<std::uint16_t>(b0 | (b1 << 8));
}

std::uint16_t C3dBytes::u16(std::size_t at) const {
  require(at, 2, "a 16-bit integer");
  return u16_unchecked(at);
}

double C3dBytes::f32_unchecked(std::size_t at) const {
  std::uint32_t bits = 0;
  const auto b = [&](int i) { return static_cast<std::uint32_t>(bytes_[at + i]); };
  switch (processor_) {
    case C3dProcessor::kIntel:
      bits = b(0) | (b(1) << 8) | (b(2) << 16) | (b(3) << 24);
      break;
    case C3dProcessor::kMips:
      bits = (b(0) << 24) | (b(1) << 16) | (b(2) << 8) | b(3);
      break;
    case C3dProcessor::kDec:
      return vax_f_to_double(static_cast<std::uint16_t>(b(0) | (b(1) << 8)),
                             static_cast<std::uint16_t>(b(2) | (b(3) << 8)));
  }
  return static_cast<double>(std::bit_cast<float>(bits));
}

double C3dBytes::f32(std::size_t at) const {
  require(at, 4, "a float");
  return f32_unchecked(at);
}

std::string C3dBytes::text(std::size_t at, std::size_t length) const {
  require(at, length, "text");
  return std::string(reinterpret_cast<const char*>(bytes_.data() + at), length);
}

// ----- parameters -----

std::size_t C3dParameter::element_count() const {
  std::size_t n = 1;
  for (int d : dimensions) n *= static_cast<std::size_t>(d);
  return n;
}

namespace {

bool names_match(const std::string& stored, std::string_view wanted, bool exact) {
  if (stored == wanted) return true;
  if (exact) return false;
  return stored.size() == 6 && wanted.size() > 6 && wanted.substr(0, 6) == stored;
}

}  // namespace

const C3dParameter* C3dParameters::find(std::string_view group, std::string_view name, bool exact) const {
  const std::string g = upper(group), n = upper(name);
  for (const C3dParameter& p : parameters)
    if (p.group == g && p.name == n) return &p;
  for (const C3dParameter& p : parameters)
    if (names_match(p.group, g, exact) && names_match(p.name, n, exact)) return &p;
  return nullptr;
}

std::optional<std::vector<double>> C3dParameters::numbers(const C3dBytes& bytes, std::string_view group,
                                                          std::string_view name) const {
  const C3dParameter* p = find(group, name);
  if (!p || p->type == -1) return std::nullopt;
  const std::size_t n = p->element_count();
  std::vector<double> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t at = p->data_offset + i * static_cast<std::size_t>(p->type);
    switch (p->type) {
      case 1:
        out.push_back(bytes.u8(at));
        break;
      case 2:
        out.push_back(bytes.i16(at));
        break;
      default: {
        const double v = bytes.f32(at);
        if (!std::isfinite(v)) return std::nullopt;
        out.push_back(v);
      }
    }
  }
  return out;
}

std::optional<double> C3dParameters::number(const C3dBytes& bytes, std::string_view group,
                                            std::string_view name) const {
  auto values = numbers(bytes, group, name);
  if (!values || values->empty()) return std::nullopt;
  return values->front();
}

std::optional<std::vector<std::string>> C3dParameters::strings(const C3dBytes& bytes, std::string_view group,
                                                               std::string_view name, bool exact) const {
  const C3dParameter* p = find(group, name, exact);
  if (!p || p->type != -1) return std::nullopt;
  std::vector<std::string> out;
  const auto trim = [](std::string s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.pop_back();
    std::size_t start = 0;
    while (start < s.size() && s[start] == ' ') ++start;
    return s.substr(start);
  };
  if (p->dimensions.empty()) {
    out.push_back(trim(bytes.text(p->data_offset, 1)));
  } else {
    const std::size_t length = static_cast<std::size_t>(p->dimensions[0]);
    const std::size_t count = p->element_count() / std::max<std::size_t>(length, 1);
    if (length == 0) return out;
    for (std::size_t i = 0; i < count; ++i)
      out.push_back(trim(bytes.text(p->data_offset + i * length, length)));
  }
  return out;
}

C3dParameters read_c3d_parameters(const C3dBytes& bytes, std::size_t start, std::size_t limit) {
  C3dParameters result;
  limit = std::min(limit, bytes.size());
  std::vector<std::pair<int, std::string>> group_ids;  // (id, name)
  struct Pending {
    int group_id;
    C3dParameter parameter;
  };
  std::vector<Pending> pending;

  std::size_t at = start + 4;  // after the 4-byte parameter section header
  while (at + 2 <= limit) {
    const int name_length_signed = bytes.i8(at);
    const int group_id = bytes.i8(at + 1);
    if (name_length_signed == 0 || group_id == 0) break;  // end of the section
    const std::size_t name_length = static_cast<std::size_t>(std::abs(name_length_signed));
    const std::size_t pointer_at = at + 2 + name_length;
    if (pointer_at + 2 > limit) {
      spdlog::warn("{}: parameter section ends inside a record at byte {}; ignoring the rest", bytes.name(),
                   at);
      break;
    }
    const std::string name = upper(bytes.text(at + 2, name_length));
    // "Next" is a byte count from the pointer word itself; unsigned so that large LABELS arrays work.
    const std::size_t next_offset = bytes.u16(pointer_at);
    const std::size_t next = next_offset == 0 ? limit : pointer_at + next_offset;
    const std::size_t body = pointer_at + 2;

    if (group_id < 0) {
      group_ids.emplace_back(-group_id, name);
    } else {
      C3dParameter p;
      p.name = name;
      p.locked = name_length_signed < 0;
      const std::size_t record_end = std::min(next, limit);
      if (body + 2 > record_end) {
        spdlog::warn("{}: parameter {} at byte {} is cut short; skipped", bytes.name(),
                     core::escaped_for_message(name), at);
      } else {
        p.type = bytes.i8(body);
        const std::size_t dims = bytes.u8(body + 1);
        bool ok =
            (p.type == -1 || p.type == 1 || p.type == 2 || p.type == 4) && body + 2 + dims <= record_end;
        for (std::size_t d = 0; ok && d < dims; ++d) p.dimensions.push_back(bytes.u8(body + 2 + d));
        p.data_offset = body + 2 + dims;
        // The values must end before the next record (the description that follows is not needed and is
        // missing in some writers' files).
        const std::size_t size = p.element_count() * static_cast<std::size_t>(std::abs(p.type));
        ok = ok && p.data_offset + size <= record_end;
        if (ok)
          pending.push_back({group_id, std::move(p)});
        else
          spdlog::warn(
              "{}: parameter {} at byte {} is malformed (type or size does not fit its record); skipped",
              bytes.name(), core::escaped_for_message(name), at);
      }
    }
    if (next_offset == 0) break;
    if (next <= at || next > limit) {
      spdlog::warn("{}: parameter record at byte {} points outside the parameter section; ignoring the rest",
                   bytes.name(), at);
      break;
    }
    at = next;
  }

  for (const auto& [id, name] : group_ids) result.groups.push_back(name);
  for (Pending& p : pending) {
    p.parameter.group = "GROUP" + std::to_string(p.group_id);
    for (const auto& [id, name] : group_ids)
      if (id == p.group_id) p.parameter.group = name;
    result.parameters.push_back(std::move(p.parameter));
  }
  return result;
}

}  // namespace mimic::mocap::detail
