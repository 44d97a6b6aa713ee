// Internal: the format parsers before conversion to mimic's frame, and the conversion step. The parsers
// return the data in the file's own units and axes (BVH rotations already in radians); frame_conversion
// then guesses units / up / forward and rewrites the clip. Not part of the public API.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "mimic/mocap/clip.hpp"
#include "mimic/mocap/load.hpp"

namespace mimic::mocap::detail {

// BVH text -> skeleton in file units and axes; rotations converted from degrees to radians.
SkeletonClip parse_bvh_skeleton(std::string_view text, const std::string& name);

struct RawMarkers {
  MarkerClip clip;                          // positions in file units and axes, NaN where missing
  std::optional<LengthUnit> declared_unit;  // POINT:UNITS, when present and understood
};

// C3D bytes -> marker clip in file units and axes (no gap filling yet).
RawMarkers parse_c3d_markers(std::span<const std::byte> bytes, const std::string& name);

// Detects (or takes from `options`) the unit, up and forward axes, converts the clip in place and
// records what was done in `clip`.
void convert_skeleton_clip(Clip& clip, const LoadOptions& options);
void convert_marker_clip(Clip& clip, std::optional<LengthUnit> declared_unit, const LoadOptions& options);

// Fills marker gaps of at most `max_gap_frames` frames; records filled and unfilled gaps in the clip.
void fill_gaps(MarkerClip& clip, int max_gap_frames, GapFillMethod method);

}  // namespace mimic::mocap::detail
