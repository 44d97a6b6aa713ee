// The motion-capture clip every reader produces and the retargeting consumes: either a skeleton clip
// (BVH: a joint hierarchy driven by per-frame channel values) or a marker clip (C3D: labelled 3D points
// per frame). Whatever the source file used, a Clip is in mimic's frame: metres, radians, right-handed,
// z up, and x forward where the facing direction can be told (see `Clip::conversion`).
#pragma once

#include <Eigen/Geometry>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mimic::mocap {

// ---------------------------------------------------------------------------------------------------
// Units and axes of the source file
// ---------------------------------------------------------------------------------------------------

// Length unit of a source file. kCmu is the unit of the CMU database's ASF skeletons kept by the cgspeed
// BVH conversions: 1/0.45 inch = 0.056444 m.
enum class LengthUnit : std::uint8_t { kMetre, kDecimetre, kCentimetre, kMillimetre, kInch, kCmu };

double metres_per_unit(LengthUnit unit);
std::string_view to_string(LengthUnit unit);  // "m", "dm", "cm", "mm", "inch", "cmu"
// Accepts the names above plus common spellings ("metre", "meter", "in", "inches", "millimetre", ...).
std::optional<LengthUnit> parse_length_unit(std::string_view text);

// A signed coordinate axis of a frame, e.g. the source's up direction (+Y for BVH from CMU).
struct Axis {
  int index = 2;  // 0 = x, 1 = y, 2 = z
  int sign = 1;   // +1 or -1
  Eigen::Vector3d vector() const;
  friend bool operator==(const Axis&, const Axis&) = default;
};
std::string to_string(Axis axis);  // "+x", "-y", ...

// How the source frame was mapped onto mimic's: p_mimic = scale * rotation * p_source.
// `rotation` is always a signed permutation with determinant +1 (an exact rotation by multiples of
// 90 degrees), so channel axes stay channel axes: a source `Yrotation` becomes a rotation about one of
// mimic's axes, with a sign. Handedness is preserved; a left-handed source stays mirrored.
struct FrameConversion {
  double scale = 1.0;                                      // metres per source unit
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();  // source axes -> mimic axes
  Eigen::Vector3d to_mimic(const Eigen::Vector3d& p_source) const { return scale * (rotation * p_source); }
  Eigen::Vector3d to_source(const Eigen::Vector3d& p_mimic) const {
    return rotation.transpose() * p_mimic / scale;
  }
};

// Where a unit or an axis came from, so that `mimic info` and the logs can say how sure we are.
enum class Provenance : std::uint8_t {
  kDetected,  // guessed from the data (skeleton height, head above feet, left/right pairs)
  kDeclared,  // stated by the file itself (C3D POINT:UNITS)
  kOverride,  // given by the user in LoadOptions
  kDefault,   // could not be told; the format's customary value was assumed
};
std::string_view to_string(Provenance provenance);

// ---------------------------------------------------------------------------------------------------
// Skeleton clips (BVH)
// ---------------------------------------------------------------------------------------------------

// One degree of freedom of a joint: a translation along, or a rotation about, one of the joint's
// parent-frame axes (after conversion to mimic's frame).
enum class ChannelType : std::uint8_t {
  kXposition,
  kYposition,
  kZposition,
  kXrotation,
  kYrotation,
  kZrotation
};
inline bool is_rotation(ChannelType c) { return c >= ChannelType::kXrotation; }
inline int channel_axis(ChannelType c) { return static_cast<int>(c) % 3; }
std::string_view to_string(ChannelType channel);  // "Xposition", ..., "Zrotation"

struct Joint {
  std::string name;  // as in the file; "End Site" children: "<parent>_End", then "<parent>_End2", ...
  int parent = -1;   // index into SkeletonClip::joints; -1 for the root
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();  // metres, in the parent's frame (mimic axes)
  // The joint's channels in file order. The local transform is
  //   Translation(offset + sum of position channels) * R_c1 * R_c2 * R_c3
  // with the rotations multiplied in the listed order (BVH semantics: "Zrotation Xrotation Yrotation"
  // means Rz * Rx * Ry). Position channels add to the offset (MakeHuman/Blender files put the rest
  // offset in OFFSET and a displacement in the channels; CMU roots have a zero offset).
  std::vector<ChannelType> channels;
  int first_channel = 0;  // column of channels[0] in SkeletonClip::values
  bool end_site = false;  // a BVH "End Site": no channels, marks the tip of a chain
};

using ChannelMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

class SkeletonClip {
 public:
  std::vector<Joint> joints;  // root first, every parent before its children (file order)
  ChannelMatrix values;       // frames x channels; positions in metres, rotations in radians
  double frame_time = 0.0;    // seconds

  int frame_count() const { return static_cast<int>(values.rows()); }
  int channel_count() const { return static_cast<int>(values.cols()); }
  double rate() const { return frame_time > 0.0 ? 1.0 / frame_time : 0.0; }
  double duration() const { return frame_count() * frame_time; }

  // Index of the joint called `name`, or -1.
  int joint_index(std::string_view name) const;

  // Transform of joint `joint` relative to its parent at `frame` (world for the root).
  Eigen::Isometry3d local_transform(int frame, int joint) const;
  // Rest pose (all channels zero): the local transforms are pure offsets.
  Eigen::Isometry3d rest_local_transform(int joint) const;

  // World transforms of every joint at `frame` by forward kinematics (metres, z up).
  std::vector<Eigen::Isometry3d> global_transforms(int frame) const;
  // Same, into `out` (resized only if its size differs from joints.size(): reuse it in loops).
  void global_transforms(int frame, std::vector<Eigen::Isometry3d>& out) const;
  // World transforms of the rest pose.
  std::vector<Eigen::Isometry3d> rest_global_transforms() const;
};

// ---------------------------------------------------------------------------------------------------
// Marker clips (C3D)
// ---------------------------------------------------------------------------------------------------

enum class SampleState : std::uint8_t {
  kMeasured,  // as recorded
  kFilled,    // missing in the file, interpolated over a short gap (see LoadOptions::max_gap_frames)
  kMissing,   // missing in the file (residual < 0) and not filled; the position is NaN
};

// A run of consecutive missing samples of one marker.
struct Gap {
  int marker = 0;
  int first = 0;   // frame index (0-based, into the clip) of the first missing sample
  int length = 0;  // number of missing frames
};

class MarkerClip {
 public:
  std::vector<std::string> labels;         // subject prefix removed: "AbcdeFghijk:RFHD" -> "RFHD"
  std::vector<std::string> raw_labels;     // as in the file (trailing blanks trimmed)
  std::vector<Eigen::Vector3d> positions;  // frame-major: positions[f * marker_count() + m], metres
  std::vector<SampleState> states;         // same layout as positions
  double rate = 0.0;                       // frames per second
  int first_frame = 1;                     // number of frame 0 in the capture (C3D header)
  std::vector<Gap> filled_gaps;            // gaps closed by interpolation
  std::vector<Gap> unfilled_gaps;          // gaps left missing (too long, or at the clip's ends)

  int marker_count() const { return static_cast<int>(labels.size()); }
  int frame_count() const;
  double duration() const { return rate > 0.0 ? frame_count() / rate : 0.0; }

  // Index of the marker whose stripped or raw label is `label`, or -1. Exact match first, then
  // case-insensitive (Eb015 writes "pv4" beside "PV1").
  int marker_index(std::string_view label) const;

  const Eigen::Vector3d& position(int frame, int marker) const {
    return positions[static_cast<std::size_t>(frame) * labels.size() + marker];
  }
  SampleState state(int frame, int marker) const {
    return states[static_cast<std::size_t>(frame) * labels.size() + marker];
  }
  // True when the sample can be used (measured or filled).
  bool valid(int frame, int marker) const { return state(frame, marker) != SampleState::kMissing; }
};

// ---------------------------------------------------------------------------------------------------
// Clip
// ---------------------------------------------------------------------------------------------------

enum class ClipFormat : std::uint8_t { kBvh, kC3d };

struct Clip {
  std::variant<SkeletonClip, MarkerClip> data;
  std::filesystem::path source;  // file it was read from (or the name given to parse_*)
  ClipFormat format = ClipFormat::kBvh;

  LengthUnit source_unit = LengthUnit::kMetre;  // unit of the file's lengths
  Provenance unit_provenance = Provenance::kDefault;
  double source_height = 0.0;  // standing height measured in source units (what units were guessed from)

  Axis source_up;  // the file's up axis (e.g. +y for CMU BVH), mapped to mimic's +z
  Provenance up_provenance = Provenance::kDefault;

  // Facing direction at frame 0: the source axis mapped to mimic's +x. Forward = left x up, where left
  // is the sum of (left - right) over joint or marker pairs (LeftArm/RightArm, LFHD/RFHD, foot.L/foot.R),
  // rounded to the nearest horizontal axis.
  Axis source_forward{0, 1};
  bool forward_known = false;  // false: no left/right pairs found, forward axis arbitrary
  // Remaining heading of the subject at frame 0 after conversion (radians about +z, within ±45°):
  // forward is only aligned with +x up to this angle, because conversions are exact axis permutations.
  double initial_heading = 0.0;

  FrameConversion conversion;  // what was applied to the file's data

  bool is_skeleton() const { return std::holds_alternative<SkeletonClip>(data); }
  bool is_markers() const { return std::holds_alternative<MarkerClip>(data); }
  const SkeletonClip& skeleton() const { return std::get<SkeletonClip>(data); }
  SkeletonClip& skeleton() { return std::get<SkeletonClip>(data); }
  const MarkerClip& markers() const { return std::get<MarkerClip>(data); }
  MarkerClip& markers() { return std::get<MarkerClip>(data); }

  int frame_count() const;
  double rate() const;  // frames per second
  double duration() const;
};

}  // namespace mimic::mocap
