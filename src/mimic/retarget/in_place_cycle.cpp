#include "mimic/retarget/in_place_cycle.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "mimic/retarget/clip_contacts.hpp"

namespace mimic::retarget {

InPlaceCycle detect_in_place_cycle(const LandmarkTrack& track, const InPlaceCycleOptions& options) {
  InPlaceCycle out;
  for (Landmark l : {Landmark::kPelvis, Landmark::kRightHip, Landmark::kLeftHip, Landmark::kRightAnkle,
                     Landmark::kLeftAnkle}) {
    if (!track.has(l)) {
      out.reason = "the track has no feet";
      return out;
    }
  }
  const int n = track.frame_count();
  if (n < 3 || track.rate <= 0.0) {
    out.reason = "too few frames";
    return out;
  }
  const double L = clip_leg_length(track);
  auto frame = [&](int k) -> const LandmarkFrame& { return track.frames[static_cast<std::size_t>(k)]; };

  double excursion = 0.0;
  for (int k = 1; k < n; ++k)
    excursion =
        std::max(excursion, (frame(k)[Landmark::kPelvis] - frame(0)[Landmark::kPelvis]).head<2>().norm());

  // Each foot's contact point at a frame: its ankle, or its toe when the toe is lower (heel rise and push-off
  // roll over the ball: the ankle then moves forward several centimetres while the toe stays planted).
  // Heights are above each landmark's own lowest level: a skeleton's ankle and toe joints stand at
  // different heights, placed by hand.
  const std::array<std::array<Landmark, 2>, 2> points = {
      std::array{Landmark::kRightAnkle, Landmark::kRightToe},
      std::array{Landmark::kLeftAnkle, Landmark::kLeftToe}};
  std::array<std::array<double, 2>, 2> lowest{};
  for (int f = 0; f < 2; ++f) {
    for (int p = 0; p < 2; ++p) {
      const Landmark l = points[static_cast<std::size_t>(f)][static_cast<std::size_t>(p)];
      double& low = lowest[static_cast<std::size_t>(f)][static_cast<std::size_t>(p)];
      low = frame(0)[l].z();
      for (int k = 1; k < n; ++k) low = std::min(low, frame(k)[l].z());
    }
  }
  auto point_height = [&](int k, int f, int p) {
    return frame(k)[points[static_cast<std::size_t>(f)][static_cast<std::size_t>(p)]].z() -
           lowest[static_cast<std::size_t>(f)][static_cast<std::size_t>(p)];
  };
  auto contact = [&](int k, int f) {
    const Landmark toe = points[static_cast<std::size_t>(f)][1];
    return track.has(toe) && point_height(k, f, 1) < point_height(k, f, 0) ? 1 : 0;
  };
  auto height = [&](int k, int f) { return point_height(k, f, contact(k, f)); };

  // Per frame interval [k-1, k]: the stance displacement (the feet blended by their heights), whether it
  // slides backwards, and which foot is the lower.
  out.root_offset.assign(static_cast<std::size_t>(n), Eigen::Vector2d::Zero());
  int sliding = 0;
  std::array<int, 2> lower{};
  for (int k = 1; k < n; ++k) {
    const double below = 0.5 * (height(k - 1, 1) + height(k, 1) - height(k - 1, 0) - height(k, 0));
    double w_right = std::clamp(0.5 + below / (2.0 * options.blend_height * L), 0.0, 1.0);
    ++lower[below >= 0.0 ? 0 : 1];
    Eigen::Vector2d forward = frame(k).pelvis_rotation.col(0).head<2>();
    if (forward.norm() > 1e-9) forward.normalize();
    std::array<Eigen::Vector2d, 2> moved;
    for (int f = 0; f < 2; ++f) {
      // The point the foot stood on at the interval's start (k-1).
      const Landmark l = points[static_cast<std::size_t>(f)][static_cast<std::size_t>(contact(k - 1, f))];
      moved[static_cast<std::size_t>(f)] = (frame(k)[l] - frame(k - 1)[l]).head<2>();
    }
    // A foot that moves forward under the pelvis while the other moves backwards is swinging, however low
    // it still is (toe-off, the swing's end): the stance is the other foot alone. In double support both
    // slide backwards together and the blend does not matter.
    const double right_ahead = moved[0].dot(forward), left_ahead = moved[1].dot(forward);
    if (right_ahead > 0.0 && left_ahead < 0.0) w_right = 0.0;
    if (left_ahead > 0.0 && right_ahead < 0.0) w_right = 1.0;
    const Eigen::Vector2d stance = w_right * moved[0] + (1.0 - w_right) * moved[1];
    if (forward.norm() > 1e-9 && stance.dot(forward) * track.rate < -options.min_slide_speed * L) ++sliding;
    out.root_offset[static_cast<std::size_t>(k)] = out.root_offset[static_cast<std::size_t>(k - 1)] - stance;
  }
  const double intervals = n - 1;
  const double sliding_share = sliding / intervals;
  const double right_share = lower[0] / intervals, left_share = lower[1] / intervals;
  out.detected = excursion <= options.max_root_excursion * L && sliding_share >= options.min_sliding_share &&
                 std::min(right_share, left_share) >= options.min_foot_share;
  out.reason = fmt::format(
      "pelvis within {:.3f} m of its start (in-place below {:.3f}); the stance foot slides backwards in "
      "{:.0f} % of the frames (in-place from {:.0f} %); lower foot right {:.0f} %, left {:.0f} % (each from "
      "{:.0f} %)",
      excursion, options.max_root_excursion * L, 100.0 * sliding_share, 100.0 * options.min_sliding_share,
      100.0 * right_share, 100.0 * left_share, 100.0 * options.min_foot_share);
  if (!out.detected) {
    out.root_offset.assign(static_cast<std::size_t>(n), Eigen::Vector2d::Zero());
    return out;
  }
  for (int k = 1; k < n; ++k)
    out.travel +=
        (out.root_offset[static_cast<std::size_t>(k)] - out.root_offset[static_cast<std::size_t>(k - 1)])
            .norm();
  return out;
}

LandmarkTrack with_recovered_root_motion(LandmarkTrack track, const InPlaceCycle& cycle) {
  if (!cycle.detected) return track;
  for (std::size_t k = 0; k < track.frames.size(); ++k) {
    const Eigen::Vector3d shift(cycle.root_offset[k].x(), cycle.root_offset[k].y(), 0.0);
    // Unavailable landmarks stay NaN.
    for (Eigen::Vector3d& p : track.frames[k].position) p += shift;
  }
  return track;
}

}  // namespace mimic::retarget
