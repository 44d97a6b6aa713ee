// Marker gap filling. Optical systems lose markers for a few frames when they are occluded; retargeting
// wants every landmark at every frame, so short gaps are bridged. Long gaps are not invented: they stay
// missing and are reported, and the user decides (a larger limit, or a better capture).
#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>

#include "mimic/mocap/readers.hpp"

namespace mimic::mocap::detail {

namespace {

// Velocity (per frame) at the valid sample `at`, estimated from the samples on the side away from the
// gap (`direction` -1: before, +1: after): second-order one-sided difference when two neighbours are
// valid, first-order with one, none (nullopt) without.
std::optional<Eigen::Vector3d> one_sided_velocity(const MarkerClip& clip, int marker, int at, int direction) {
  const int frames = clip.frame_count();
  auto ok = [&](int f) { return f >= 0 && f < frames && clip.valid(f, marker); };
  const Eigen::Vector3d& p0 = clip.position(at, marker);
  if (!ok(at + direction)) return std::nullopt;
  const Eigen::Vector3d& p1 = clip.position(at + direction, marker);
  if (!ok(at + 2 * direction)) return Eigen::Vector3d((p0 - p1) * -direction);
  const Eigen::Vector3d& p2 = clip.position(at + 2 * direction, marker);
  return Eigen::Vector3d((3.0 * p0 - 4.0 * p1 + p2) * (-0.5 * direction));
}

// Cubic Hermite between the samples at frames a and b (a < b, both valid), with the velocities measured
// outside the gap (the chord where there is nothing to measure): the bridge joins the trajectory with
// matching velocity on both sides.
void fill_cubic(MarkerClip& clip, int marker, int a, int b) {
  const Eigen::Vector3d pa = clip.position(a, marker), pb = clip.position(b, marker);
  const Eigen::Vector3d chord = (pb - pa) / (b - a);  // per frame
  const Eigen::Vector3d va = one_sided_velocity(clip, marker, a, -1).value_or(chord);
  const Eigen::Vector3d vb = one_sided_velocity(clip, marker, b, +1).value_or(chord);
  const double span = b - a;
  const std::size_t stride = static_cast<std::size_t>(clip.marker_count());
  for (int f = a + 1; f < b; ++f) {
    const double t = (f - a) / span, t2 = t * t, t3 = t2 * t;
    const double h00 = 2 * t3 - 3 * t2 + 1, h10 = t3 - 2 * t2 + t, h01 = -2 * t3 + 3 * t2, h11 = t3 - t2;
    const std::size_t i = f * stride + marker;
    clip.positions[i] = h00 * pa + h10 * span * va + h01 * pb + h11 * span * vb;
    clip.states[i] = SampleState::kFilled;
  }
}

void fill_linear(MarkerClip& clip, int marker, int a, int b) {
  const Eigen::Vector3d pa = clip.position(a, marker), pb = clip.position(b, marker);
  const std::size_t stride = static_cast<std::size_t>(clip.marker_count());
  for (int f = a + 1; f < b; ++f) {
    const double t = static_cast<double>(f - a) / (b - a);
    const std::size_t i = f * stride + marker;
    clip.positions[i] = (1 - t) * pa + t * pb;
    clip.states[i] = SampleState::kFilled;
  }
}

}  // namespace

void fill_gaps(MarkerClip& clip, int max_gap_frames, GapFillMethod method) {
  clip.filled_gaps.clear();
  clip.unfilled_gaps.clear();
  const int frames = clip.frame_count(), markers = clip.marker_count();
  for (int m = 0; m < markers; ++m) {
    int f = 0;
    while (f < frames) {
      if (clip.valid(f, m)) {
        ++f;
        continue;
      }
      const int first = f;
      while (f < frames && !clip.valid(f, m)) ++f;
      const Gap gap{m, first, f - first};
      const bool bounded = first > 0 && f < frames;  // a valid sample on both sides
      if (bounded && gap.length <= max_gap_frames) {
        if (method == GapFillMethod::kCubic)
          fill_cubic(clip, m, first - 1, f);
        else
          fill_linear(clip, m, first - 1, f);
        clip.filled_gaps.push_back(gap);
      } else {
        clip.unfilled_gaps.push_back(gap);
      }
    }
  }
}

}  // namespace mimic::mocap::detail
