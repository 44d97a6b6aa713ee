// From the file's units and axes to mimic's frame (metres, z up, x forward).
//
// What is guessed, and how:
// - Unit (BVH): the standing height of the rest pose in file units, compared with a 1.7 m human: the unit
//   whose conversion lands nearest to 1.7 m on a log scale wins (m, dm, cm, mm, inch, CMU units are told
//   apart by factors >= 1.8, so any human from a child to a tall adult is classified right).
// - Unit (C3D): POINT:UNITS when the file declares it; otherwise the same height test among m, cm, mm.
// - Up: the mean of head-like points minus the mean of foot-like points (names such as Head, LFHD,
//   TopOfHead vs Foot, Toe, Ankle, HEE), over frames spread through the clip; the dominant axis with its
//   sign. Without such names: the axis of the largest body extent, which for a standing human is height.
//   Header hints (C3D X_SCREEN / Y_SCREEN) are ignored: real files contradict them.
// - Forward at frame 0: left/right pairs of names (LeftArm/RightArm, LFHD/RFHD, foot.L/foot.R, Eye_L/Eye_R)
//   give the subject's left; forward = left x up, rounded to the nearest horizontal axis.
// The conversion is a signed axis permutation (det +1), so BVH channels stay channels about coordinate
// axes, and a uniform scale. Joint frames are conjugated by it: at rest they stay aligned with the world.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "mimic/mocap/readers.hpp"

namespace mimic::mocap::detail {

namespace {

constexpr double kHumanHeight = 1.7;  // metres; reference stature for unit guessing

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool contains_any(const std::string& lowered, std::initializer_list<std::string_view> needles) {
  for (std::string_view n : needles)
    if (lowered.find(n) != std::string::npos) return true;
  return false;
}

// Head-like names: joints "Head"; markers LFHD/RFHD/LBHD/RBHD (Plug-in Gait), L_HDF (Qualisys),
// Skeleton_Head1 (OptiTrack), pTopOfHead (Xsens).
bool is_head_name(const std::string& name) {
  const std::string l = lower(name);
  if (contains_any(l, {"head", "hdf", "hdb"})) return true;
  return l.size() == 4 && (l[0] == 'l' || l[0] == 'r') && (l.substr(1) == "fhd" || l.substr(1) == "bhd");
}

// Foot-like names: Foot, Toe, Ankle, Heel, Plug-in Gait TOE/HEE/ANK/MT5, Eb015's RFT1..LFT3 foot clusters.
bool is_foot_name(const std::string& name) {
  const std::string l = lower(name);
  if (contains_any(l, {"foot", "toe", "ankle", "heel", "hee", "ank", "mt5", "malleol", "metatars"}))
    return true;
  return l.size() >= 3 && (l[0] == 'l' || l[0] == 'r') && l[1] == 'f' && l[2] == 't';
}

// Index of the joint/marker that mirrors `names[i]` (LeftArm <-> RightArm, LFHD <-> RFHD, foot.L <-> foot.R),
// or -1. Only substitutions that produce an existing name count, so arbitrary 'L's are harmless.
int mirror_of_left(const std::vector<std::string>& names, const std::unordered_map<std::string, int>& index,
                   std::size_t i) {
  const std::string& name = names[i];
  static const std::pair<std::string_view, std::string_view> kSwaps[] = {
      {"Left", "Right"}, {"left", "right"}, {"LEFT", "RIGHT"}, {"L", "R"}, {"l", "r"}};
  for (const auto& [from, to] : kSwaps) {
    for (std::size_t pos = name.find(from); pos != std::string::npos; pos = name.find(from, pos + 1)) {
      std::string candidate = name;
      candidate.replace(pos, from.size(), to);
      if (auto it = index.find(candidate); it != index.end() && it->second != static_cast<int>(i))
        return it->second;
    }
  }
  return -1;
}

Axis dominant_axis(const Eigen::Vector3d& v) {
  Eigen::Index k = 0;
  v.cwiseAbs().maxCoeff(&k);
  return Axis{static_cast<int>(k), v[k] < 0 ? -1 : 1};
}

Axis dominant_horizontal_axis(const Eigen::Vector3d& v, Axis up) {
  Eigen::Vector3d h = v;
  h[up.index] = 0.0;
  return dominant_axis(h);
}

// Axis that is "forward" when it cannot be told: the next axis after `up`, cyclically (up y -> z, the
// usual BVH convention; up z -> x).
Axis default_forward(Axis up) { return Axis{(up.index + 1) % 3, 1}; }

// Rows are mimic's x, y, z expressed in source axes: forward, up x forward, up.
Eigen::Matrix3d axes_rotation(Axis up, Axis forward) {
  const Eigen::Vector3d z = up.vector(), x = forward.vector();
  Eigen::Matrix3d r;
  r.row(0) = x;
  r.row(1) = z.cross(x);
  r.row(2) = z;
  return r;
}

LengthUnit unit_nearest_to_human(double height, std::initializer_list<LengthUnit> candidates) {
  LengthUnit best = *candidates.begin();
  double best_error = std::numeric_limits<double>::infinity();
  for (LengthUnit u : candidates) {
    const double error = std::abs(std::log(height * metres_per_unit(u) / kHumanHeight));
    if (error < best_error) best_error = error, best = u;
  }
  return best;
}

struct Orientation {
  Axis up{1, 1};
  Provenance up_provenance = Provenance::kDefault;
  Axis forward{2, 1};
  bool forward_known = false;
  Eigen::Vector3d forward_vector = Eigen::Vector3d::Zero();  // measured, source axes
};

// Applies the face-forward rule given the subject's left direction (source axes) at frame 0.
void choose_forward(Orientation& o, const Eigen::Vector3d& left, bool face_forward) {
  o.forward = default_forward(o.up);
  Eigen::Vector3d f = left.cross(o.up.vector());
  f[o.up.index] = 0.0;
  if (f.norm() > 1e-9) {
    o.forward_vector = f;
    if (face_forward) {
      o.forward = dominant_horizontal_axis(f, o.up);
      o.forward_known = true;
    }
  }
}

void record(Clip& clip, LengthUnit unit, Provenance unit_provenance, double height, const Orientation& o) {
  clip.source_unit = unit;
  clip.unit_provenance = unit_provenance;
  clip.source_height = height;
  clip.source_up = o.up;
  clip.up_provenance = o.up_provenance;
  clip.source_forward = o.forward;
  clip.forward_known = o.forward_known;
  clip.conversion.scale = metres_per_unit(unit);
  clip.conversion.rotation = axes_rotation(o.up, o.forward);
  clip.initial_heading = 0.0;
  if (o.forward_vector.norm() > 0.0) {
    const Eigen::Vector3d f = clip.conversion.rotation * o.forward_vector;
    clip.initial_heading = std::atan2(f.y(), f.x());
  }
}

// Extent of `points` along `axis` (max - min).
double extent_along(const std::vector<Eigen::Vector3d>& points, int axis) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto& p : points) lo = std::min(lo, p[axis]), hi = std::max(hi, p[axis]);
  return points.empty() ? 0.0 : hi - lo;
}

// ----- skeletons -----

std::vector<Eigen::Vector3d> joint_positions(const std::vector<Eigen::Isometry3d>& transforms) {
  std::vector<Eigen::Vector3d> p;
  p.reserve(transforms.size());
  for (const auto& t : transforms) p.push_back(t.translation());
  return p;
}

// Mean head position minus mean foot position, or zero when the names say nothing.
Eigen::Vector3d head_minus_feet(const SkeletonClip& s, const std::vector<Eigen::Vector3d>& p) {
  Eigen::Vector3d head = Eigen::Vector3d::Zero(), feet = Eigen::Vector3d::Zero();
  int n_head = 0, n_feet = 0;
  for (std::size_t j = 0; j < s.joints.size(); ++j) {
    if (is_head_name(s.joints[j].name))
      head += p[j], ++n_head;
    else if (is_foot_name(s.joints[j].name))
      feet += p[j], ++n_feet;
  }
  if (n_head == 0 || n_feet == 0) return Eigen::Vector3d::Zero();
  return head / n_head - feet / n_feet;
}

}  // namespace

void convert_skeleton_clip(Clip& clip, const LoadOptions& options) {
  SkeletonClip& s = clip.skeleton();
  const std::vector<Eigen::Vector3d> rest = joint_positions(s.rest_global_transforms());

  // Standing height from the rest pose, measured along the rest pose's own up direction.
  const Eigen::Vector3d rest_up_vector = head_minus_feet(s, rest);
  int rest_up = 0;
  if (rest_up_vector.norm() > 0.0) {
    rest_up = dominant_axis(rest_up_vector).index;
  } else {
    for (int k = 1; k < 3; ++k)
      if (extent_along(rest, k) > extent_along(rest, rest_up)) rest_up = k;
  }
  const double height = extent_along(rest, rest_up);

  LengthUnit unit = LengthUnit::kMetre;
  Provenance unit_provenance = Provenance::kDefault;
  if (options.unit) {
    unit = *options.unit;
    unit_provenance = Provenance::kOverride;
  } else if (height > 0.0) {
    unit = unit_nearest_to_human(height, {LengthUnit::kMetre, LengthUnit::kDecimetre, LengthUnit::kCentimetre,
                                          LengthUnit::kMillimetre, LengthUnit::kInch, LengthUnit::kCmu});
    unit_provenance = Provenance::kDetected;
  }

  // Up from the data: head minus feet over up to 16 frames spread through the clip (a boxer going to
  // the canvas at the end must not flip the answer).
  Orientation o;
  std::vector<Eigen::Isometry3d> transforms;
  if (options.up) {
    o.up = *options.up;
    o.up_provenance = Provenance::kOverride;
  } else {
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    const int frames = s.frame_count();
    const int samples = std::min(frames, 16);
    for (int i = 0; i < samples; ++i) {
      s.global_transforms(static_cast<int>(static_cast<long long>(i) * frames / samples), transforms);
      const Eigen::Vector3d v = head_minus_feet(s, joint_positions(transforms));
      if (v.norm() > 0.0) sum += v.normalized();
    }
    if (sum.norm() > 0.0) {
      o.up = dominant_axis(sum);
      o.up_provenance = Provenance::kDetected;
    } else {
      o.up = Axis{1, 1};  // BVH's customary up axis
      o.up_provenance = Provenance::kDefault;
    }
  }

  // Forward at frame 0 from the left/right joint pairs.
  Eigen::Vector3d left = Eigen::Vector3d::Zero();
  if (s.frame_count() > 0) {
    s.global_transforms(0, transforms);
    std::vector<std::string> names;
    std::unordered_map<std::string, int> index;
    for (std::size_t j = 0; j < s.joints.size(); ++j) {
      names.push_back(s.joints[j].name);
      index.emplace(s.joints[j].name, static_cast<int>(j));
    }
    for (std::size_t j = 0; j < names.size(); ++j) {
      const int r = mirror_of_left(names, index, j);
      if (r >= 0) left += transforms[j].translation() - transforms[r].translation();
    }
  }
  choose_forward(o, left, options.face_forward);
  record(clip, unit, unit_provenance, height, o);

  // Rewrite offsets and channels: p' = scale R p; a rotation about source axis i becomes a rotation about
  // mimic axis k with R e_i = sign e_k, by sign * angle.
  const double scale = clip.conversion.scale;
  const Eigen::Matrix3d& r = clip.conversion.rotation;
  std::vector<double> factor(static_cast<std::size_t>(s.channel_count()), 1.0);
  for (Joint& joint : s.joints) {
    joint.offset = scale * (r * joint.offset);
    for (std::size_t c = 0; c < joint.channels.size(); ++c) {
      const int i = channel_axis(joint.channels[c]);
      int k = 0;
      while (r(k, i) == 0.0) ++k;
      const double sign = r(k, i);
      const bool rotation = is_rotation(joint.channels[c]);
      joint.channels[c] = static_cast<ChannelType>((rotation ? 3 : 0) + k);
      factor[joint.first_channel + c] = rotation ? sign : sign * scale;
    }
  }
  const Eigen::Index cols = s.values.cols();
  double* v = s.values.data();
  for (Eigen::Index f = 0; f < s.values.rows(); ++f)
    for (Eigen::Index c = 0; c < cols; ++c) v[f * cols + c] *= factor[c];
}

// ----- markers -----

namespace {

// Median over sampled frames of the per-frame extent of the valid markers along each axis.
Eigen::Vector3d typical_extent(const MarkerClip& m) {
  const int frames = m.frame_count();
  const int samples = std::min(frames, 64);
  std::vector<double> per_axis[3];
  std::vector<Eigen::Vector3d> points;
  for (int i = 0; i < samples; ++i) {
    const int f = static_cast<int>(static_cast<long long>(i) * frames / samples);
    points.clear();
    for (int k = 0; k < m.marker_count(); ++k)
      if (m.valid(f, k)) points.push_back(m.position(f, k));
    if (points.size() < 2) continue;
    for (int a = 0; a < 3; ++a) per_axis[a].push_back(extent_along(points, a));
  }
  Eigen::Vector3d e = Eigen::Vector3d::Zero();
  for (int a = 0; a < 3; ++a) {
    auto& v = per_axis[a];
    if (v.empty()) continue;
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    e[a] = v[v.size() / 2];
  }
  return e;
}

}  // namespace

void convert_marker_clip(Clip& clip, std::optional<LengthUnit> declared_unit, const LoadOptions& options) {
  MarkerClip& m = clip.markers();
  const int markers = m.marker_count(), frames = m.frame_count();

  // Mean position of each marker over its valid samples.
  std::vector<Eigen::Vector3d> mean(markers, Eigen::Vector3d::Zero());
  std::vector<int> count(markers, 0);
  for (int f = 0; f < frames; ++f)
    for (int k = 0; k < markers; ++k)
      if (m.valid(f, k)) mean[k] += m.position(f, k), ++count[k];
  for (int k = 0; k < markers; ++k)
    if (count[k] > 0) mean[k] /= count[k];

  const Eigen::Vector3d extent = typical_extent(m);

  Orientation o;
  if (options.up) {
    o.up = *options.up;
    o.up_provenance = Provenance::kOverride;
  } else {
    // Head markers if any, else any upper-body marker (pelvis, trunk), against foot markers.
    Eigen::Vector3d top = Eigen::Vector3d::Zero(), bottom = Eigen::Vector3d::Zero();
    int n_top = 0, n_bottom = 0;
    for (int k = 0; k < markers; ++k) {
      if (count[k] == 0) continue;
      if (is_head_name(m.labels[k])) top += mean[k], ++n_top;
      if (is_foot_name(m.labels[k])) bottom += mean[k], ++n_bottom;
    }
    if (n_top == 0 && n_bottom > 0) {
      for (int k = 0; k < markers; ++k) {
        const std::string l = lower(m.labels[k]);
        if (count[k] > 0 && !is_foot_name(m.labels[k]) &&
            contains_any(l, {"asi", "psi", "pv", "hip", "pelvis", "c7", "clav", "sho", "chest", "acromion"}))
          top += mean[k], ++n_top;
      }
    }
    if (n_top > 0 && n_bottom > 0) {
      o.up = dominant_axis(top / n_top - bottom / n_bottom);
      o.up_provenance = Provenance::kDetected;
    } else if (extent.maxCoeff() > 0.0) {
      // A standing human is taller than wide or deep; the floor is usually at 0 with the body above.
      Eigen::Index k = 0;
      extent.maxCoeff(&k);
      double mean_along = 0.0;
      int n = 0;
      for (int i = 0; i < markers; ++i)
        if (count[i] > 0) mean_along += mean[i][k], ++n;
      o.up = Axis{static_cast<int>(k), n > 0 && mean_along < 0.0 ? -1 : 1};
      o.up_provenance = Provenance::kDetected;
    } else {
      o.up = Axis{2, 1};  // C3D's customary up axis
    }
  }

  const double height = extent[o.up.index];
  LengthUnit unit = LengthUnit::kMillimetre;
  Provenance unit_provenance = Provenance::kDefault;
  if (options.unit) {
    unit = *options.unit;
    unit_provenance = Provenance::kOverride;
  } else if (declared_unit) {
    unit = *declared_unit;
    unit_provenance = Provenance::kDeclared;
  } else if (height > 0.0) {
    unit =
        unit_nearest_to_human(height, {LengthUnit::kMetre, LengthUnit::kCentimetre, LengthUnit::kMillimetre});
    unit_provenance = Provenance::kDetected;
  }
  if (height > 0.0) {
    const double metres = height * metres_per_unit(unit);
    if (metres < 0.2 || metres > 5.0)
      spdlog::warn("{}: the markers span {:.3g} m vertically in unit '{}' ({}); check the units",
                   clip.source.string(), metres, to_string(unit), to_string(unit_provenance));
  }

  // Left direction at the start: for each left/right pair, the first frame where both are valid.
  Eigen::Vector3d left = Eigen::Vector3d::Zero();
  std::unordered_map<std::string, int> index;
  for (int k = 0; k < markers; ++k) index.emplace(m.labels[k], k);
  for (int k = 0; k < markers; ++k) {
    const int r = mirror_of_left(m.labels, index, k);
    if (r < 0) continue;
    for (int f = 0; f < frames; ++f) {
      if (m.valid(f, k) && m.valid(f, r)) {
        left += m.position(f, k) - m.position(f, r);
        break;
      }
    }
  }
  choose_forward(o, left, options.face_forward);
  record(clip, unit, unit_provenance, height, o);

  const double scale = clip.conversion.scale;
  const Eigen::Matrix3d r = clip.conversion.rotation;
  for (auto& p : m.positions) p = scale * (r * p);  // NaN (missing) stays NaN
}

}  // namespace mimic::mocap::detail
