// BVH test clips written from a real one: joints renamed into another naming family, End Sites made
// zero-length, a roll / twist joint inserted in a bone (with zero channels, so the motion is unchanged),
// CRLF line ends. Used to check that the automatic landmark mapping finds, without a preset, the same
// joints the preset finds on the original.
#pragma once

#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/shared_data.hpp"

namespace mimic::test {

struct BvhEdit {
  std::map<std::string, std::string> rename;  // old joint name -> new; absent names are kept
  bool zero_end_sites = false;
  // Insert a joint named `twist_name` between `twist_parent` and its only child, at `twist_fraction` of
  // the child's offset (the child keeps the rest), with three rotation channels that are zero in every
  // frame. At 0 the joints' positions are the original ones bit for bit; in mid-bone they are sums of two
  // parts (a rounding of the last bit).
  std::string twist_parent, twist_name;
  double twist_fraction = 0.5;
  bool crlf = false;
};

namespace detail {

struct BvhNode {
  std::string keyword;  // ROOT, JOINT or End
  std::string name;
  double offset[3] = {0, 0, 0};
  std::vector<std::string> channels;
  std::vector<BvhNode> children;
};

inline BvhNode read_node(std::istringstream& in, const std::string& keyword) {
  BvhNode node;
  node.keyword = keyword;
  std::string token;
  in >> node.name;  // "Site" for an End Site
  in >> token;      // {
  while (in >> token && token != "}") {
    if (token == "OFFSET") {
      in >> node.offset[0] >> node.offset[1] >> node.offset[2];
    } else if (token == "CHANNELS") {
      int n = 0;
      in >> n;
      node.channels.resize(static_cast<std::size_t>(n));
      for (auto& c : node.channels) in >> c;
    } else {
      node.children.push_back(read_node(in, token));
    }
  }
  return node;
}

// Writes the node and returns, through `columns`, the channel count written before the twist's place.
inline void write_node(std::ostringstream& out, const BvhNode& node, int depth, const BvhEdit& edit,
                       int& channel, int& twist_column) {
  const std::string tab(static_cast<std::size_t>(depth), '\t');
  if (node.keyword == "End") {
    out << tab << "End Site\n" << tab << "{\n" << tab << "\tOFFSET";
    for (double v : node.offset) out << ' ' << (edit.zero_end_sites ? 0.0 : v);
    out << "\n" << tab << "}\n";
    return;
  }
  const auto it = edit.rename.find(node.name);
  out << tab << node.keyword << ' ' << (it == edit.rename.end() ? node.name : it->second) << "\n"
      << tab << "{\n"
      << tab << "\tOFFSET " << node.offset[0] << ' ' << node.offset[1] << ' ' << node.offset[2] << "\n"
      << tab << "\tCHANNELS " << node.channels.size();
  for (const auto& c : node.channels) out << ' ' << c;
  out << "\n";
  channel += static_cast<int>(node.channels.size());
  if (node.name == edit.twist_parent && node.children.size() == 1) {
    BvhNode child = node.children.front();
    BvhNode twist;
    twist.keyword = "JOINT";
    twist.name = edit.twist_name;
    for (int k = 0; k < 3; ++k) {
      twist.offset[k] = edit.twist_fraction * child.offset[k];
      child.offset[k] -= twist.offset[k];
    }
    twist.channels = {"Zrotation", "Xrotation", "Yrotation"};
    twist_column = channel;
    const std::string inner(static_cast<std::size_t>(depth + 1), '\t');
    out << inner << "JOINT " << twist.name << "\n"
        << inner << "{\n"
        << inner << "\tOFFSET " << twist.offset[0] << ' ' << twist.offset[1] << ' ' << twist.offset[2] << "\n"
        << inner << "\tCHANNELS 3 Zrotation "
        << "Xrotation Yrotation\n";
    channel += 3;
    write_node(out, child, depth + 2, edit, channel, twist_column);
    out << inner << "}\n";
  } else {
    for (const auto& c : node.children) write_node(out, c, depth + 1, edit, channel, twist_column);
  }
  out << tab << "}\n";
}

}  // namespace detail

// The text of `path` (a BVH file) edited as `edit` says.
inline std::string edited_bvh(const std::string& path, const BvhEdit& edit) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream whole;
  whole << file.rdbuf();
  std::string text = whole.str();
  std::string clean;
  for (char c : text)
    if (c != '\r') clean += c;
  const auto motion = clean.find("MOTION");
  std::istringstream hierarchy(clean.substr(0, motion));
  std::string token;
  hierarchy >> token;  // HIERARCHY
  hierarchy >> token;  // ROOT
  const detail::BvhNode root = detail::read_node(hierarchy, token);

  std::ostringstream out;
  out.precision(17);
  out << "HIERARCHY\n";
  int channel = 0, twist_column = -1;
  detail::write_node(out, root, 0, edit, channel, twist_column);

  // MOTION, Frames, Frame Time kept; each frame gets the twist's three zeros at its column.
  std::istringstream motion_text(clean.substr(motion));
  std::string line;
  int line_number = 0;
  while (std::getline(motion_text, line)) {
    if (line_number++ < 3 || twist_column < 0) {
      out << line << "\n";
      continue;
    }
    std::istringstream values(line);
    std::string v;
    int column = 0;
    std::string row;
    while (values >> v) {
      if (column++ == twist_column) row += "0 0 0 ";
      row += v + " ";
    }
    if (column == twist_column) row += "0 0 0 ";
    if (!row.empty()) row.pop_back();
    out << row << "\n";
  }
  std::string result = out.str();
  if (!edit.crlf) return result;
  std::string crlf;
  for (char c : result) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  return crlf;
}

inline std::string boxing_bvh() { return (source_dir() / "data" / "mocap" / "boxing.bvh").string(); }

// The boxing clip's joints (CMU MotionBuilder names): the centre line, then the limb joints of one side.
inline const std::vector<std::string> kBoxingCentre = {"Hips", "LowerBack", "Spine", "Spine1",
                                                       "Neck", "Neck1",     "Head"};
inline const std::vector<std::string> kBoxingLeft = {
    "LHipJoint", "LeftUpLeg",   "LeftLeg",  "LeftFoot",       "LeftToeBase", "LeftShoulder",
    "LeftArm",   "LeftForeArm", "LeftHand", "LeftFingerBase", "LFingers",    "LThumb"};
inline const std::vector<std::string> kBoxingRight = {
    "RHipJoint", "RightUpLeg",   "RightLeg",  "RightFoot",       "RightToeBase", "RightShoulder",
    "RightArm",  "RightForeArm", "RightHand", "RightFingerBase", "RFingers",     "RThumb"};

struct Family {
  std::string name;
  std::vector<std::string> centre;  // new names of kBoxingCentre
  std::vector<std::string> limb;    // new stems of kBoxingLeft / kBoxingRight
  std::function<std::string(const std::string& stem, bool left)> sided;
  BvhEdit edit;  // zero_end_sites, twist, crlf; rename is filled from the above
};

// The shipped boxing clip's joints renamed into six naming families, some with zero-length End Sites,
// an inserted roll / twist joint or CRLF line ends.
inline std::vector<Family> boxing_families() {
  std::vector<Family> f;
  f.push_back(
      {"mixamo",
       {"mixamorig:Hips", "mixamorig:Spine", "mixamorig:Spine1", "mixamorig:Spine2", "mixamorig:Neck",
        "mixamorig:Neck1", "mixamorig:Head"},
       {"Pelvis", "UpLeg", "Leg", "Foot", "ToeBase", "Shoulder", "Arm", "ForeArm", "Hand", "HandMiddle1",
        "HandMiddle2", "HandThumb1"},
       [](const std::string& s, bool l) { return "mixamorig:" + std::string(l ? "Left" : "Right") + s; },
       {}});
  f.push_back({"asf",
               {"root", "lowerback", "upperback", "thorax", "lowerneck", "upperneck", "head"},
               {"hipjoint", "femur", "tibia", "foot", "toes", "clavicle", "humerus", "radius", "wrist",
                "hand", "fingers", "thumb"},
               [](const std::string& s, bool l) { return std::string(l ? "l" : "r") + s; },
               {}});
  f.push_back({"blender",
               {"hips", "spine", "spine.001", "chest", "neck", "neck.001", "head"},
               {"pelvis", "thigh", "shin", "foot", "toe", "shoulder", "upper_arm", "forearm", "hand",
                "f_middle.01", "f_middle.02", "thumb.01"},
               [](const std::string& s, bool l) { return s + (l ? ".L" : ".R"); },
               {}});
  f.back().edit.zero_end_sites = true;
  f.back().edit.crlf = true;
  f.push_back({"unreal",
               {"pelvis", "spine_01", "spine_02", "spine_03", "neck_01", "neck_02", "head"},
               {"hipjoint", "thigh", "calf", "foot", "ball", "clavicle", "upperarm", "lowerarm", "hand",
                "middle_01", "middle_02", "thumb_01"},
               [](const std::string& s, bool l) { return s + (l ? "_l" : "_r"); },
               {}});
  f.back().edit.twist_parent = "LeftForeArm";
  f.back().edit.twist_name = "lowerarm_twist_01_l";
  f.push_back({"prefix",
               {"Pelvis", "Waist", "Spine", "Chest", "Neck", "Neck1", "Head"},
               {"HipJoint", "Thigh", "Knee", "Ankle", "Toe", "Clavicle", "UpperArm", "Elbow", "Wrist",
                "Finger0", "Finger01", "Thumb"},
               [](const std::string& s, bool l) { return std::string(l ? "L_" : "R_") + s; },
               {}});
  f.back().edit.crlf = true;
  f.push_back({"xsens",
               {"Pelvis", "L5", "L3", "T8", "Neck", "UpperNeck", "Head"},
               {"HipJoint", "UpperLeg", "LowerLeg", "Foot", "Toe", "Shoulder", "UpperArm", "ForeArm", "Hand",
                "Fingers", "FingerTip", "Thumb"},
               [](const std::string& s, bool l) { return std::string(l ? "Left" : "Right") + s; },
               {}});
  f.back().edit.twist_parent = "RightArm";
  f.back().edit.twist_name = "RightArmRoll";
  f.back().edit.twist_fraction = 0.0;  // a roll joint at the shoulder
  f.back().edit.zero_end_sites = true;
  for (Family& family : f) {
    for (std::size_t i = 0; i < kBoxingCentre.size(); ++i)
      family.edit.rename[kBoxingCentre[i]] = family.centre[i];
    for (std::size_t i = 0; i < kBoxingLeft.size(); ++i) {
      family.edit.rename[kBoxingLeft[i]] = family.sided(family.limb[i], true);
      family.edit.rename[kBoxingRight[i]] = family.sided(family.limb[i], false);
    }
  }
  return f;
}

}  // namespace mimic::test
