// Internal: the byte-level pieces of the C3D format (https://www.c3d.org/c3ddocs.html, "The C3D File
// Format User Guide", Motion Lab Systems 2008): processor types, bounds-checked reading of integers and
// floats in the file's byte order and float format, and the parameter section.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mimic::mocap::detail {

// Byte 4 of the parameter section header is 83 + processor type (User Guide, "The parameter header").
enum class C3dProcessor : std::uint8_t { kIntel, kDec, kMips };
std::string_view to_string(C3dProcessor processor);

// Reads numbers at absolute byte offsets, every access checked against the buffer: a truncated or
// corrupt file ends in InputError ("file:byte N: ..."), never a read past the end.
class C3dBytes {
 public:
  C3dBytes(std::span<const std::byte> bytes, const std::string& name) : bytes_(bytes), name_(name) {}

  void set_processor(C3dProcessor processor) { processor_ = processor; }
  C3dProcessor processor() const { return processor_; }
  std::size_t size() const { return bytes_.size(); }
  const std::string& name() const { return name_; }
  const std::byte* data() const { return bytes_.data(); }

  std::uint8_t u8(std::size_t at) const;
  std::int8_t i8(std::size_t at) const { return static_cast<std::int8_t>(u8(at)); }
  std::uint16_t u16(std::size_t at) const;
  std::int16_t i16(std::size_t at) const { return static_cast<std::int16_t>(u16(at)); }
  double f32(std::size_t at) const;  // IEEE little/big endian, or DEC VAX F
  std::string text(std::size_t at, std::size_t length) const;

  // Throws "file:byte N: what" unless [at, at + length) lies inside the buffer.
  void require(std::size_t at, std::size_t length, std::string_view what) const;
  [[noreturn]] void fail(std::size_t at, const std::string& what) const;

  // Decoding without checks, for the data loop after one check of the whole frame block.
  std::uint16_t u16_unchecked(std::size_t at) const;
  double f32_unchecked(std::size_t at) const;

 private:
  std::span<const std::byte> bytes_;
  const std::string& name_;
  C3dProcessor processor_ = C3dProcessor::kIntel;
};

// One parameter of the parameter section. Values stay as raw bytes; typed accessors decode them.
struct C3dParameter {
  std::string group;  // upper case
  std::string name;   // upper case
  int type = 0;       // -1 char, 1 byte, 2 int16, 4 float
  std::vector<int> dimensions;
  std::size_t data_offset = 0;  // absolute byte offset of the values
  bool locked = false;          // negative name length in the file: "do not edit"

  std::size_t element_count() const;
};

class C3dParameters {
 public:
  std::vector<C3dParameter> parameters;
  std::vector<std::string> groups;  // in file order, upper case

  // Finds GROUP:NAME (case-insensitive). Names are significant to 6 characters in old writers (User Guide,
  // "Group and parameter names"), so a stored name of exactly 6 characters also matches a longer wanted
  // name with the same first 6 ("DATA_S" for DATA_START), unless `exact` (LABELS2 must not find LABELS).
  const C3dParameter* find(std::string_view group, std::string_view name, bool exact = false) const;

  // Typed reads; nullopt when the parameter is absent or has no value of that kind.
  std::optional<double> number(const C3dBytes& bytes, std::string_view group, std::string_view name) const;
  std::optional<std::vector<double>> numbers(const C3dBytes& bytes, std::string_view group,
                                             std::string_view name) const;
  // A character parameter as strings: a 2-D array (length x count) gives `count` strings, a 1-D array one.
  // Trailing blanks and NULs are trimmed.
  std::optional<std::vector<std::string>> strings(const C3dBytes& bytes, std::string_view group,
                                                  std::string_view name, bool exact = false) const;
};

// Reads the parameter section that starts at byte `start` (its 4-byte header included); `processor`
// has already been taken from it. Records are followed by their "next" pointers, so a record with a
// missing or wrong description (the OptiTrack mocap36.c3d case) is stepped over without harm. Every
// step moves forward and stays inside `[start, limit)`, so the loop ends on any input.
C3dParameters read_c3d_parameters(const C3dBytes& bytes, std::size_t start, std::size_t limit);

}  // namespace mimic::mocap::detail
