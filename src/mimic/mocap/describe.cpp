// `mimic info CLIP`: what is in a mocap file and how mimic understood it.
#include "mimic/mocap/describe.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

namespace mimic::mocap {

namespace {

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

// The channel as the file names it: mimic's axis k came from the source axis i with rotation(k, i) != 0.
std::string_view file_channel(ChannelType channel, const FrameConversion& conversion) {
  const int k = channel_axis(channel);
  int i = 0;
  while (i < 2 && conversion.rotation(k, i) == 0.0) ++i;
  return to_string(static_cast<ChannelType>((is_rotation(channel) ? 3 : 0) + i));
}

void describe_skeleton(const SkeletonClip& s, const FrameConversion& conversion, std::ostream& out) {
  int end_sites = 0;
  for (const Joint& j : s.joints) end_sites += j.end_site;
  out << "skeleton: " << s.joints.size() - end_sites << " joints + " << end_sites << " end sites, "
      << s.channel_count() << " channels (as named in the file), bone lengths in metres\n";
  // Indentation shows the tree up to kMaxIndentedDepth levels (a human skeleton has about 10); deeper
  // joints are printed at that indentation with their depth, so that a corrupt 100,000-deep hierarchy
  // prints one short line per joint instead of gigabytes of spaces.
  constexpr int kMaxIndentedDepth = 32;
  std::vector<int> depth(s.joints.size(), 0);
  for (std::size_t j = 0; j < s.joints.size(); ++j) {
    const Joint& joint = s.joints[j];
    if (joint.parent >= 0) depth[j] = depth[joint.parent] + 1;
    out << "  " << std::string(2 * std::min(depth[j], kMaxIndentedDepth), ' ');
    if (depth[j] > kMaxIndentedDepth) out << "(depth " << depth[j] << ") ";
    out << joint.name;
    if (!joint.channels.empty()) {
      out << "  [";
      for (std::size_t c = 0; c < joint.channels.size(); ++c)
        out << (c ? " " : "") << file_channel(joint.channels[c], conversion);
      out << "]";
    }
    out << "  " << fixed(joint.offset.norm(), 3) << "\n";
  }
}

void describe_markers(const MarkerClip& m, std::ostream& out) {
  out << "markers: " << m.marker_count() << " (first frame number " << m.first_frame << ")\n";
  const int frames = m.frame_count();
  for (int k = 0; k < m.marker_count(); ++k) {
    int measured = 0, filled = 0;
    for (int f = 0; f < frames; ++f) {
      const SampleState state = m.state(f, k);
      measured += state == SampleState::kMeasured;
      filled += state == SampleState::kFilled;
    }
    out << "  " << m.labels[k];
    if (k < static_cast<int>(m.raw_labels.size()) && m.raw_labels[k] != m.labels[k])
      out << " (" << m.raw_labels[k] << ")";
    out << "  valid " << fixed(frames ? 100.0 * (measured + filled) / frames : 0.0, 1) << "%";
    if (filled) out << " (" << filled << " filled)";
    out << "\n";
  }
  if (!m.unfilled_gaps.empty()) out << "unfilled gaps: " << m.unfilled_gaps.size() << "\n";
}

}  // namespace

void describe_clip(const Clip& clip, std::ostream& out) {
  out << "file: " << clip.source.string() << " (" << (clip.format == ClipFormat::kBvh ? "BVH" : "C3D")
      << ")\n";
  if (clip.is_skeleton())
    describe_skeleton(clip.skeleton(), clip.conversion, out);
  else
    describe_markers(clip.markers(), out);
  out << "frames: " << clip.frame_count() << "\n";
  out << "rate: " << fixed(clip.rate(), 3) << " Hz\n";
  out << "duration: " << fixed(clip.duration(), 3) << " s\n";
  out << "units: " << to_string(clip.source_unit) << " (" << to_string(clip.unit_provenance)
      << (clip.source_height > 0
              ? ", height " + fixed(clip.source_height, 3) + " " + std::string(to_string(clip.source_unit))
              : std::string())
      << "), converted to metres\n";
  out << "up axis: " << to_string(clip.source_up) << " (" << to_string(clip.up_provenance)
      << "), converted to +z\n";
  out << "forward: ";
  if (clip.forward_known)
    out << to_string(clip.source_forward) << " (from left/right pairs at frame 0, heading "
        << fixed(clip.initial_heading * 180.0 / std::numbers::pi, 1)
        << " deg after conversion), converted to +x\n";
  else
    out << to_string(clip.source_forward) << " (unknown: no left/right pairs), mapped to +x\n";
}

void describe_clip(const std::filesystem::path& path, std::ostream& out, const LoadOptions& options) {
  describe_clip(load_clip(path, options), out);
}

}  // namespace mimic::mocap
