// Marker gap filling. Optical systems lose markers for a few frames when they are occluded; retargeting
// wants every landmark at every frame, so short gaps are bridged. Long gaps are not invented: they stay
// missing and are reported, and the user decides (a larger limit, or a better capture).
#include <spdlog/spdlog.h>

#include <algorithm>

#include "mimic/mocap/readers.hpp"

namespace mimic::mocap::detail {

namespace {

// Cubic Hermite between the samples at frames a and b (a < b, both valid), with tangents from the
// neighbours outside the gap when they are valid (Catmull-Rom-like), else the chord: the bridge joins
// the trajectory with matching velocity on both sides.
void fill_cubic(MarkerClip& clip, int marker, int a, int b) {
  const int frames = clip.frame_count();
  const Eigen::Vector3d pa = clip.position(a, marker), pb = clip.position(b, marker);
  const Eigen::Vector3d chord = (pb - pa) / (b - a);  // per frame
  const Eigen::Vector3d va =
      a > 0 && clip.valid(a - 1, marker) ? Eigen::Vector3d(pa - clip.position(a - 1, marker)) : chord;
  const Eigen::Vector3d vb = b + 1 < frames && clip.valid(b + 1, marker)
                                 ? Eigen::Vector3d(clip.position(b + 1, marker) - pb)
                                 : chord;
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
