// Clip accessors, unit and axis names, and forward kinematics of skeleton clips.
#include "mimic/mocap/clip.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace mimic::mocap {

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Rotation by `angle` about coordinate axis `axis`, written out: cheaper than Eigen::AngleAxis and exact
// zeros off the plane of rotation.
Eigen::Matrix3d axis_rotation(int axis, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  Eigen::Matrix3d r;
  switch (axis) {
    case 0:
      r << 1, 0, 0, 0, c, -s, 0, s, c;
      break;
    case 1:
      r << c, 0, s, 0, 1, 0, -s, 0, c;
      break;
    default:
      r << c, -s, 0, s, c, 0, 0, 0, 1;
      break;
  }
  return r;
}

}  // namespace

double metres_per_unit(LengthUnit unit) {
  switch (unit) {
    case LengthUnit::kMetre:
      return 1.0;
    case LengthUnit::kDecimetre:
      return 0.1;
    case LengthUnit::kCentimetre:
      return 0.01;
    case LengthUnit::kMillimetre:
      return 0.001;
    case LengthUnit::kInch:
      return 0.0254;
    case LengthUnit::kCmu:
      // CMU ASF length unit: 1/0.45 inch (CMU mocap database FAQ; cgspeed BVH READMEFIRST).
      return 0.0254 / 0.45;
  }
  return 1.0;
}

std::string_view to_string(LengthUnit unit) {
  switch (unit) {
    case LengthUnit::kMetre:
      return "m";
    case LengthUnit::kDecimetre:
      return "dm";
    case LengthUnit::kCentimetre:
      return "cm";
    case LengthUnit::kMillimetre:
      return "mm";
    case LengthUnit::kInch:
      return "inch";
    case LengthUnit::kCmu:
      return "cmu";
  }
  return "?";
}

std::optional<LengthUnit> parse_length_unit(std::string_view text) {
  const std::string t = lower(text);
  if (t == "m" || t == "metre" || t == "meter" || t == "metres" || t == "meters") return LengthUnit::kMetre;
  if (t == "dm" || t == "decimetre" || t == "decimeter" || t == "decimetres" || t == "decimeters")
    return LengthUnit::kDecimetre;
  if (t == "cm" || t == "centimetre" || t == "centimeter" || t == "centimetres" || t == "centimeters")
    return LengthUnit::kCentimetre;
  if (t == "mm" || t == "millimetre" || t == "millimeter" || t == "millimetres" || t == "millimeters")
    return LengthUnit::kMillimetre;
  if (t == "inch" || t == "in" || t == "inches") return LengthUnit::kInch;
  if (t == "cmu") return LengthUnit::kCmu;
  return std::nullopt;
}

Eigen::Vector3d Axis::vector() const {
  Eigen::Vector3d v = Eigen::Vector3d::Zero();
  v[index] = sign;
  return v;
}

std::string to_string(Axis axis) {
  std::string s(1, axis.sign < 0 ? '-' : '+');
  s += static_cast<char>('x' + axis.index);
  return s;
}

std::string_view to_string(Provenance provenance) {
  switch (provenance) {
    case Provenance::kDetected:
      return "detected";
    case Provenance::kDeclared:
      return "declared by the file";
    case Provenance::kOverride:
      return "given by the user";
    case Provenance::kDefault:
      return "assumed (format default)";
  }
  return "?";
}

std::string_view to_string(ChannelType channel) {
  static constexpr std::string_view kNames[] = {"Xposition", "Yposition", "Zposition",
                                                "Xrotation", "Yrotation", "Zrotation"};
  return kNames[static_cast<int>(channel)];
}

// ----- SkeletonClip -----

int SkeletonClip::joint_index(std::string_view name) const {
  for (std::size_t j = 0; j < joints.size(); ++j)
    if (joints[j].name == name) return static_cast<int>(j);
  return -1;
}

Eigen::Isometry3d SkeletonClip::local_transform(int frame, int joint) const {
  const Joint& jt = joints[joint];
  Eigen::Vector3d translation = jt.offset;
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
  const double* row = values.data() + static_cast<Eigen::Index>(frame) * values.cols() + jt.first_channel;
  for (std::size_t c = 0; c < jt.channels.size(); ++c) {
    const ChannelType type = jt.channels[c];
    if (is_rotation(type))
      rotation = rotation * axis_rotation(channel_axis(type), row[c]);
    else
      translation[channel_axis(type)] += row[c];
  }
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.linear() = rotation;
  t.translation() = translation;
  return t;
}

Eigen::Isometry3d SkeletonClip::rest_local_transform(int joint) const {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.translation() = joints[joint].offset;
  return t;
}

void SkeletonClip::global_transforms(int frame, std::vector<Eigen::Isometry3d>& out) const {
  if (out.size() != joints.size()) out.resize(joints.size());
  for (std::size_t j = 0; j < joints.size(); ++j) {
    const Eigen::Isometry3d local = local_transform(frame, static_cast<int>(j));
    const int parent = joints[j].parent;
    out[j] = parent < 0 ? local : out[parent] * local;
  }
}

std::vector<Eigen::Isometry3d> SkeletonClip::global_transforms(int frame) const {
  std::vector<Eigen::Isometry3d> out;
  global_transforms(frame, out);
  return out;
}

std::vector<Eigen::Isometry3d> SkeletonClip::rest_global_transforms() const {
  std::vector<Eigen::Isometry3d> out(joints.size());
  for (std::size_t j = 0; j < joints.size(); ++j) {
    const Eigen::Isometry3d local = rest_local_transform(static_cast<int>(j));
    const int parent = joints[j].parent;
    out[j] = parent < 0 ? local : out[parent] * local;
  }
  return out;
}

// ----- MarkerClip -----

int MarkerClip::frame_count() const {
  return labels.empty() ? 0 : static_cast<int>(positions.size() / labels.size());
}

int MarkerClip::marker_index(std::string_view label) const {
  for (std::size_t m = 0; m < labels.size(); ++m)
    if (labels[m] == label || (m < raw_labels.size() && raw_labels[m] == label)) return static_cast<int>(m);
  const std::string wanted = lower(label);
  for (std::size_t m = 0; m < labels.size(); ++m)
    if (lower(labels[m]) == wanted) return static_cast<int>(m);
  return -1;
}

// ----- Clip -----

int Clip::frame_count() const {
  return std::visit([](const auto& d) { return d.frame_count(); }, data);
}

double Clip::rate() const {
  if (is_skeleton()) return skeleton().rate();
  return markers().rate;
}

double Clip::duration() const {
  return std::visit([](const auto& d) { return d.duration(); }, data);
}

}  // namespace mimic::mocap
