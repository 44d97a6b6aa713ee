// Entry points: read the file into memory, dispatch on the extension, convert to mimic's frame.
#include "mimic/mocap/load.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "mimic/core/error.hpp"
#include "mimic/mocap/readers.hpp"

namespace mimic::mocap {

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Whole file in one read: the parsers work on a memory buffer (fast, and simple bounds).
std::vector<char> read_file(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(input_error_message(name, "", "is a directory, expected a .bvh or .c3d file"));
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(name.c_str(), "rb"), &std::fclose);
  if (!file)
    throw InputError(input_error_message(name, "", std::string("cannot open: ") + std::strerror(errno)));
  std::vector<char> data;
  char buffer[1 << 16];
  std::size_t n = 0;
  if (const auto size = std::filesystem::file_size(path, ec); !ec) data.reserve(size);
  while ((n = std::fread(buffer, 1, sizeof buffer, file.get())) > 0)
    data.insert(data.end(), buffer, buffer + n);
  if (std::ferror(file.get())) throw InputError(input_error_message(name, "", "read error"));
  return data;
}

void report_gaps(const Clip& clip, int max_gap_frames) {
  const MarkerClip& m = clip.markers();
  if (m.unfilled_gaps.empty()) return;
  const Gap* longest = &m.unfilled_gaps.front();
  std::size_t missing = 0;
  for (const Gap& g : m.unfilled_gaps) {
    missing += static_cast<std::size_t>(g.length);
    if (g.length > longest->length) longest = &g;
  }
  spdlog::warn(
      "{}: {} marker gaps left missing ({} samples; not bounded on both sides or longer than {} frames); "
      "longest: "
      "{} frames {}..{} ({} missing frames)",
      clip.source.string(), m.unfilled_gaps.size(), missing, max_gap_frames, m.labels[longest->marker],
      longest->first, longest->first + longest->length - 1, longest->length);
}

}  // namespace

std::optional<LengthUnit> parse_unit_option(std::string_view text, std::string_view what) {
  if (lower(text) == "auto") return std::nullopt;
  if (auto unit = parse_length_unit(text)) return unit;
  throw InputError(input_error_message(
      std::string(what), "", "expected auto, m, dm, cm, mm, inch or cmu, found '" + std::string(text) + "'"));
}

std::optional<Axis> parse_up_option(std::string_view text, std::string_view what) {
  const std::string t = lower(text);
  if (t == "auto") return std::nullopt;
  std::string_view axis = t;
  int sign = 1;
  if (!axis.empty() && (axis.front() == '+' || axis.front() == '-')) {
    sign = axis.front() == '-' ? -1 : 1;
    axis.remove_prefix(1);
  }
  if (axis.size() == 1 && axis[0] >= 'x' && axis[0] <= 'z') return Axis{axis[0] - 'x', sign};
  throw InputError(
      input_error_message(std::string(what), "",
                          "expected auto, x, y or z (optionally signed), found '" + std::string(text) + "'"));
}

Clip parse_bvh(std::string_view text, const std::string& name, const LoadOptions& options) {
  Clip clip;
  clip.data = detail::parse_bvh_skeleton(text, name);
  clip.source = name;
  clip.format = ClipFormat::kBvh;
  detail::convert_skeleton_clip(clip, options);
  return clip;
}

Clip parse_c3d(std::span<const std::byte> bytes, const std::string& name, const LoadOptions& options) {
  detail::RawMarkers raw = detail::parse_c3d_markers(bytes, name);
  Clip clip;
  clip.data = std::move(raw.clip);
  clip.source = name;
  clip.format = ClipFormat::kC3d;
  detail::convert_marker_clip(clip, raw.declared_unit, options);
  detail::fill_gaps(clip.markers(), std::max(options.max_gap_frames, 0), options.gap_fill);
  report_gaps(clip, options.max_gap_frames);
  return clip;
}

Clip load_bvh(const std::filesystem::path& path, const LoadOptions& options) {
  const std::vector<char> data = read_file(path);
  Clip clip = parse_bvh(std::string_view(data.data(), data.size()), path.string(), options);
  clip.source = path;
  return clip;
}

Clip load_c3d(const std::filesystem::path& path, const LoadOptions& options) {
  const std::vector<char> data = read_file(path);
  Clip clip = parse_c3d(std::as_bytes(std::span<const char>(data)), path.string(), options);
  clip.source = path;
  return clip;
}

Clip load_clip(const std::filesystem::path& path, const LoadOptions& options) {
  const std::string extension = lower(path.extension().string());
  if (extension == ".bvh") return load_bvh(path, options);
  if (extension == ".c3d") return load_c3d(path, options);
  throw InputError(input_error_message(
      path.string(), "", "expected a motion capture file ending in .bvh or .c3d, found '" + extension + "'"));
}

}  // namespace mimic::mocap
