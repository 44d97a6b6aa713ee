#include "mimic/retarget/upper_body_targets.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace mimic::retarget {

namespace {

// Unit vector from a to b; `fallback` when the two points coincide (a degenerate frame must not
// produce NaNs that would poison the warm start of the following frames).
Eigen::Vector3d direction(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                          const Eigen::Vector3d& fallback) {
  const Eigen::Vector3d d = b - a;
  const double n = d.norm();
  return n > 1e-9 ? Eigen::Vector3d(d / n) : fallback;
}

constexpr std::array<std::array<Landmark, 4>, 2> kArmLandmarks = {{
    {Landmark::kRightShoulder, Landmark::kRightElbow, Landmark::kRightWrist, Landmark::kRightHand},
    {Landmark::kLeftShoulder, Landmark::kLeftElbow, Landmark::kLeftWrist, Landmark::kLeftHand},
}};

}  // namespace

Eigen::Matrix3d heading_rotation(const LandmarkFrame& frame) {
  Eigen::Vector3d left = frame.pelvis_rotation.col(1);
  left.z() = 0.0;
  if (left.norm() < 1e-9) {
    // Pelvis lying on its side: fall back on its forward axis.
    Eigen::Vector3d forward = frame.pelvis_rotation.col(0);
    forward.z() = 0.0;
    left = Eigen::Vector3d::UnitZ().cross(forward);
  }
  left.normalize();
  Eigen::Matrix3d r;
  r.col(0) = left.cross(Eigen::Vector3d::UnitZ());
  r.col(1) = left;
  r.col(2) = Eigen::Vector3d::UnitZ();
  return r;
}

UpperBodyTargets upper_body_targets(const LandmarkTrack& track, const LandmarkFrame& frame, double scale,
                                    double gripper_length) {
  const Eigen::Matrix3d world_to_heading = heading_rotation(frame).transpose();
  auto at = [&](Landmark l) -> Eigen::Vector3d { return world_to_heading * frame[l]; };

  UpperBodyTargets t;
  t.torso_from_chest = track.has(Landmark::kChest);
  t.torso_up = direction(at(t.torso_from_chest ? Landmark::kChest : Landmark::kPelvis), at(Landmark::kNeck),
                         Eigen::Vector3d::UnitZ());
  t.shoulder_axis =
      direction(at(Landmark::kRightShoulder), at(Landmark::kLeftShoulder), Eigen::Vector3d::UnitY());
  t.head_up = direction(at(Landmark::kNeck), at(Landmark::kHead), t.torso_up);
  t.has_head_rotation = track.head_orientation;
  t.head_rotation = world_to_heading * frame.head_rotation;

  for (int side : {kRight, kLeft}) {
    const auto& l = kArmLandmarks[static_cast<std::size_t>(side)];
    ArmTargets& arm = t.arms[static_cast<std::size_t>(side)];
    const Eigen::Vector3d shoulder = at(l[0]), elbow = at(l[1]), wrist = at(l[2]);
    arm.upper_arm = direction(shoulder, elbow, -Eigen::Vector3d::UnitZ());
    arm.forearm = direction(elbow, wrist, arm.upper_arm);
    arm.has_hand = track.has(l[3]);
    arm.hand = arm.has_hand ? direction(wrist, at(l[3]), arm.forearm) : arm.forearm;
    arm.reach = scale * (wrist - shoulder) + gripper_length * arm.hand;
  }
  return t;
}

double human_arm_length(const LandmarkTrack& track) {
  std::vector<double> lengths;
  lengths.reserve(track.frames.size());
  for (const LandmarkFrame& f : track.frames) {
    double sum = 0.0;
    for (const auto& l : kArmLandmarks) sum += (f[l[1]] - f[l[0]]).norm() + (f[l[2]] - f[l[1]]).norm();
    if (std::isfinite(sum)) lengths.push_back(0.5 * sum);
  }
  if (lengths.empty()) return 0.0;
  const auto mid = lengths.begin() + static_cast<std::ptrdiff_t>(lengths.size() / 2);
  std::nth_element(lengths.begin(), mid, lengths.end());
  return *mid;
}

double human_height(const LandmarkTrack& track) {
  std::vector<double> heights;
  heights.reserve(track.frames.size());
  for (const LandmarkFrame& f : track.frames) {
    // A missing ankle is NaN: fmin takes the other one.
    const double ankle = std::fmin(f[Landmark::kRightAnkle].z(), f[Landmark::kLeftAnkle].z());
    const double height = f[Landmark::kHead].z() - ankle;
    if (std::isfinite(height)) heights.push_back(height);
  }
  if (heights.empty()) return 0.0;
  const auto at =
      heights.begin() + static_cast<std::ptrdiff_t>(0.9 * static_cast<double>(heights.size() - 1));
  std::nth_element(heights.begin(), at, heights.end());
  return *at;
}

}  // namespace mimic::retarget
