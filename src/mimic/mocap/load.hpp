// Reading mocap files into a Clip. Every reader converts to mimic's frame (metres, z up, x forward when it
// can be told) and throws mimic::InputError with "file:line N: expected ..." (BVH) or
// "file:byte N: ..." / "file:PARAMETER: ..." (C3D) when the input cannot be read.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "mimic/mocap/clip.hpp"

namespace mimic::mocap {

enum class GapFillMethod : std::uint8_t { kLinear, kCubic };

struct LoadOptions {
  // Source length unit; nullopt = auto (BVH: from the standing height of the skeleton, C3D: POINT:UNITS,
  // checked against the marker cloud's height).
  std::optional<LengthUnit> unit;
  // Source up axis; nullopt = auto (from where the head and the feet are).
  std::optional<Axis> up;
  // Rotate about the up axis so that the subject faces +x at frame 0 (to the nearest 90 degrees).
  bool face_forward = true;
  // Marker gaps of at most this many frames are interpolated; longer ones stay missing and are reported
  // (MarkerClip::unfilled_gaps, and one spdlog warning per file). 0 disables filling.
  int max_gap_frames = 10;
  GapFillMethod gap_fill = GapFillMethod::kCubic;
};

// Parses the command-line spellings: unit "auto|m|cm|mm|dm|inch|cmu" (nullopt for auto) and up axis
// "auto|x|y|z" (also "+y", "-z"). Throw InputError naming `what` (e.g. "--units") on anything else.
std::optional<LengthUnit> parse_unit_option(std::string_view text, std::string_view what = "units");
std::optional<Axis> parse_up_option(std::string_view text, std::string_view what = "up axis");

// Reads a .bvh or .c3d file (chosen by extension, case-insensitive; other extensions: InputError).
Clip load_clip(const std::filesystem::path& path, const LoadOptions& options = {});

Clip load_bvh(const std::filesystem::path& path, const LoadOptions& options = {});
Clip load_c3d(const std::filesystem::path& path, const LoadOptions& options = {});

// The same readers over a buffer already in memory; `name` is used in error messages and Clip::source.
Clip parse_bvh(std::string_view text, const std::string& name, const LoadOptions& options = {});
Clip parse_c3d(std::span<const std::byte> bytes, const std::string& name, const LoadOptions& options = {});

}  // namespace mimic::mocap
