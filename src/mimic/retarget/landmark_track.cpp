#include "mimic/retarget/landmark_track.hpp"

#include <cmath>
#include <limits>

#include "mimic/core/error.hpp"

namespace mimic::retarget {

namespace {

const Eigen::Vector3d kNaN = Eigen::Vector3d::Constant(std::numeric_limits<double>::quiet_NaN());
const Eigen::Vector3d kUp = Eigen::Vector3d::UnitZ();

bool valid(const Eigen::Vector3d& p) { return p.allFinite(); }

// Orthonormal frame [forward, left, up] from a left direction and a forward hint: left is kept, forward is
// the hint made orthogonal to it, up completes a right-handed frame.
Eigen::Matrix3d frame_from_left(const Eigen::Vector3d& left, const Eigen::Vector3d& forward_hint) {
  const Eigen::Vector3d y = left.normalized();
  Eigen::Vector3d x = forward_hint - forward_hint.dot(y) * y;
  if (x.norm() < 1e-9) x = y.cross(kUp);
  x.normalize();
  Eigen::Matrix3d r;
  r.col(0) = x;
  r.col(1) = y;
  r.col(2) = x.cross(y);
  return r;
}

// Orthonormal frame [forward, left, up] keeping `up` and making `left` orthogonal to it.
Eigen::Matrix3d frame_from_up(const Eigen::Vector3d& up, const Eigen::Vector3d& left) {
  const Eigen::Vector3d z = up.normalized();
  Eigen::Vector3d y = left - left.dot(z) * z;
  y.normalize();
  Eigen::Matrix3d r;
  r.col(0) = y.cross(z);
  r.col(1) = y;
  r.col(2) = z;
  return r;
}

// Left-right axis of a frame of landmarks: hips if both are there, else shoulders.
Eigen::Vector3d left_axis(const LandmarkFrame& f, bool hips) {
  return hips ? Eigen::Vector3d(f[Landmark::kLeftHip] - f[Landmark::kRightHip])
              : Eigen::Vector3d(f[Landmark::kLeftShoulder] - f[Landmark::kRightShoulder]);
}

int joint_of(const PresetMatch& match, Landmark l) {
  const auto& idx = match.indices[static_cast<std::size_t>(index(l))];
  return idx.empty() ? -1 : idx.front();
}

void extract_skeleton(const mocap::SkeletonClip& skeleton, const PresetMatch& match, LandmarkTrack& track) {
  const bool hips = track.has(Landmark::kLeftHip) && track.has(Landmark::kRightHip);

  // Facing frame of the rest pose (all channels zero, every joint frame aligned with the world): rest
  // joint orientations are the identity, so R_joint(t) * rest_facing is the facing frame at time t.
  const std::vector<Eigen::Isometry3d> rest = skeleton.rest_global_transforms();
  LandmarkFrame rest_frame;
  for (int i = 0; i < kLandmarkCount; ++i) {
    const int j = match.indices[static_cast<std::size_t>(i)].empty()
                      ? -1
                      : match.indices[static_cast<std::size_t>(i)][0];
    rest_frame.position[static_cast<std::size_t>(i)] =
        j >= 0 ? rest[static_cast<std::size_t>(j)].translation() : kNaN;
  }
  Eigen::Vector3d rest_left = left_axis(rest_frame, hips);
  rest_left.z() = 0.0;
  if (rest_left.norm() < 1e-9) {
    throw InputError(input_error_message(track.source, "",
                                         "the rest pose of the skeleton has its left and right "
                                         "hips (or shoulders) on one vertical: cannot tell its facing"));
  }
  const Eigen::Matrix3d rest_facing = frame_from_left(rest_left, rest_left.normalized().cross(kUp));

  const int pelvis_joint = joint_of(match, Landmark::kPelvis);
  const int head_joint = joint_of(match, Landmark::kHead);
  track.head_orientation = true;

  std::vector<Eigen::Isometry3d> global;
  track.frames.resize(static_cast<std::size_t>(skeleton.frame_count()));
  for (int f = 0; f < skeleton.frame_count(); ++f) {
    skeleton.global_transforms(f, global);
    LandmarkFrame& out = track.frames[static_cast<std::size_t>(f)];
    for (int i = 0; i < kLandmarkCount; ++i) {
      const auto& idx = match.indices[static_cast<std::size_t>(i)];
      out.position[static_cast<std::size_t>(i)] =
          idx.empty() ? kNaN : global[static_cast<std::size_t>(idx[0])].translation();
    }
    out.pelvis_rotation = global[static_cast<std::size_t>(pelvis_joint)].linear() * rest_facing;
    out.head_rotation = global[static_cast<std::size_t>(head_joint)].linear() * rest_facing;
  }
}

// Fills the NaN samples of one landmark by linear interpolation in time; returns false when no frame has it.
bool fill_gaps(std::vector<LandmarkFrame>& frames, std::size_t l) {
  const std::size_t n = frames.size();
  std::size_t previous = n;  // last valid frame seen
  for (std::size_t f = 0; f < n; ++f) {
    if (!valid(frames[f].position[l])) continue;
    if (previous == n) {
      for (std::size_t g = 0; g < f; ++g) frames[g].position[l] = frames[f].position[l];
    } else {
      for (std::size_t g = previous + 1; g < f; ++g) {
        const double s = static_cast<double>(g - previous) / static_cast<double>(f - previous);
        frames[g].position[l] =
            frames[previous].position[l] + s * (frames[f].position[l] - frames[previous].position[l]);
      }
    }
    previous = f;
  }
  if (previous == n) return false;
  for (std::size_t g = previous + 1; g < n; ++g) frames[g].position[l] = frames[previous].position[l];
  return true;
}

void extract_markers(const mocap::MarkerClip& markers, const PresetMatch& match, LandmarkTrack& track) {
  const int n = markers.frame_count();
  track.frames.resize(static_cast<std::size_t>(n));
  for (int f = 0; f < n; ++f) {
    LandmarkFrame& out = track.frames[static_cast<std::size_t>(f)];
    for (int i = 0; i < kLandmarkCount; ++i) {
      const auto& idx = match.indices[static_cast<std::size_t>(i)];
      Eigen::Vector3d sum = Eigen::Vector3d::Zero();
      bool all_valid = !idx.empty();
      for (int m : idx) {
        if (!markers.valid(f, m) || !valid(markers.position(f, m))) {
          all_valid = false;
          break;
        }
        sum += markers.position(f, m);
      }
      out.position[static_cast<std::size_t>(i)] =
          all_valid ? Eigen::Vector3d(sum / static_cast<double>(idx.size())) : kNaN;
    }
  }
  for (int i = 0; i < kLandmarkCount; ++i) {
    if (!track.available[static_cast<std::size_t>(i)]) continue;
    if (!fill_gaps(track.frames, static_cast<std::size_t>(i))) {
      track.available[static_cast<std::size_t>(i)] = false;
      if (is_required(static_cast<Landmark>(i))) {
        throw InputError(input_error_message(track.source, "",
                                             "landmark '" + std::string(to_string(static_cast<Landmark>(i))) +
                                                 "' (preset '" + track.preset +
                                                 "'): its markers are never all visible in the same frame"));
      }
    }
  }

  const bool hips = track.has(Landmark::kLeftHip) && track.has(Landmark::kRightHip);
  const bool front = track.has(Landmark::kPelvisFront);
  const bool head_sides = track.has(Landmark::kHeadLeft) && track.has(Landmark::kHeadRight);
  const bool head_front = track.has(Landmark::kHeadFront);
  track.head_orientation = head_sides || head_front;
  for (LandmarkFrame& f : track.frames) {
    const Eigen::Vector3d left = left_axis(f, hips);
    const Eigen::Vector3d hint = front ? Eigen::Vector3d(f[Landmark::kPelvisFront] - f[Landmark::kPelvis])
                                       : Eigen::Vector3d(left.cross(kUp));
    f.pelvis_rotation = frame_from_left(left, hint);
    // The head markers' own axes (front, sides) beat the neck-to-head line, which leans with where the
    // neck markers sit (on the back for some sets).
    const Eigen::Vector3d head_up = f[Landmark::kHead] - f[Landmark::kNeck];
    if (head_front && head_sides) {
      f.head_rotation = frame_from_left(f[Landmark::kHeadLeft] - f[Landmark::kHeadRight],
                                        f[Landmark::kHeadFront] - f[Landmark::kHead]);
    } else if (head_front) {
      const Eigen::Vector3d forward = f[Landmark::kHeadFront] - f[Landmark::kHead];
      f.head_rotation = frame_from_left(head_up.cross(forward), forward);
    } else if (head_sides) {
      f.head_rotation = frame_from_up(head_up, f[Landmark::kHeadLeft] - f[Landmark::kHeadRight]);
    } else {
      f.head_rotation = f.pelvis_rotation;
    }
  }
}

}  // namespace

LandmarkTrack extract_landmarks(const mocap::Clip& clip, const SelectedPreset& selected) {
  if (!selected.match.usable()) {
    throw InputError(
        input_error_message(clip.source.string(), "",
                            "preset '" + selected.preset.name + "' does not provide the required landmarks"));
  }
  LandmarkTrack track;
  track.preset = selected.preset.name;
  track.source = clip.source.string();
  track.rate = clip.rate();
  for (int i = 0; i < kLandmarkCount; ++i)
    track.available[static_cast<std::size_t>(i)] = selected.match.resolved(static_cast<Landmark>(i));
  if (clip.is_skeleton()) {
    extract_skeleton(clip.skeleton(), selected.match, track);
  } else {
    extract_markers(clip.markers(), selected.match, track);
  }
  return track;
}

LandmarkTrack extract_landmarks(const mocap::Clip& clip, std::string_view preset_name_or_file) {
  return extract_landmarks(clip, select_preset(clip, preset_name_or_file));
}

}  // namespace mimic::retarget
